"""The backward engine: `backward()` and `grad()` over the recorded graph.

Nodes run once every gradient that flows into them has arrived, newest first (PyTorch orders
its ready queue by sequence number). Each node's outgoing gradients are checked against the
input they belong to: a broadcast gradient is summed back to the input's shape and cast to its
dtype (PyTorch's validate_outputs). Without `create_graph` the formulas run in no-grad mode;
with it, they record a graph of their own (higher-order gradients).
"""

from __future__ import annotations

import heapq
import itertools
import sys
from typing import Any

import numpy as np

from ..aten._meta_util import _is_non_overlapping_and_dense
from ..dispatcher.keyset import REQUIRES_GRAD_BIT
from ..dispatcher.tls import state as _tls
from ..profiler import _state as _prof
from ..tensor._tensor import Tensor as _Tensor
from ._meta import autograd_meta
from .graph import AccumulateGrad, Node, gradient_edge
from .validate_outputs import _validate

__all__ = ["backward", "grad", "accumulate_into_grad", "attach_not_implemented"]

# [check NaN now (enabled and check_nan), enabled, check_nan]: the engine reads [0] per node
_anomaly = [False, False, True]


_aten: list[Any] = []  # ops.aten, fetched on first use (keyroute._ops imports this module)


def _ops() -> Any:
    if not _aten:
        from .._ops import ops

        _aten.append(ops.aten)
    return _aten[0]


# -- leaf accumulation ----------------------------------------------------------------------

# References to the gradient that accumulate_into_grad's own call accounts for: sys.getrefcount's
# argument, the parameter, and the caller's one reference (AccumulateGrad.apply's local, moved
# out of the engine's input buffer, as PyTorch's apply moves grads[0]).
_OWN_REFS = 3


# References to a buffered gradient that _accumulate accounts for: the buffer's slot, its local
# and sys.getrefcount's argument; and to its array: the tensor's and getrefcount's.
_BUF_REFS = 3
_DATA_REFS = 2


def _accumulate(buf: list[Any], nr: int, g: Any) -> Any:
    """PyTorch's InputBuffer::accumulate: the second gradient for one input is added into the
    first in place (`add_`) when grad mode is off and the engine holds the first's last
    reference and storage (a plain dense tensor owning its array); otherwise out of place."""
    old = buf[nr]
    st = _tls.thread_state
    if (
        not st.grad_enabled
        and not st.modes  # under a dispatch mode every tensor is subclass-like (out of place)
        and type(old) is _Tensor
        and type(g) is _Tensor
        and sys.getrefcount(old) <= _BUF_REFS
        and getattr(old._data, "base", 0) is None
        and sys.getrefcount(old._data) <= _DATA_REFS
        and tuple(old.shape) == tuple(g.shape)
        and _is_non_overlapping_and_dense(old.shape, old.stride())
    ):
        return _ops().add_.Tensor(old, g)
    return _ops().add.Tensor(old, g)


def _check_hook_result(hook: Any, value: Any, result: Any) -> None:
    """PyTorch's check_single_result: a tensor hook may not change the gradient's type,
    device or size."""
    name = getattr(hook, "__name__", type(hook).__name__)
    if not hasattr(result, "_key_set"):
        raise TypeError(f"expected Tensor or None (got {type(result).__name__})")
    if result._dtype is not value._dtype or result.device.type != value.device.type:
        raise RuntimeError(
            f"hook '{name}' has changed the type of value (was {value.type()} got {result.type()})"
        )
    if result.device != value.device:
        raise RuntimeError(
            f"hook '{name}' has changed the device of value (was {value.device} got "
            f"{result.device})"
        )
    if tuple(result.shape) != tuple(value.shape):
        raise RuntimeError(f"hook '{name}' has changed the size of value")


def accumulate_into_grad(leaf: Any, g: Any, held: int = 0) -> None:
    """Add g into leaf.grad (PyTorch's AccumulateGrad::accumulateGrad), after the leaf's hooks.

    Without a .grad yet, a gradient that nothing else references (`held`: references the engine
    keeps on purpose, as PyTorch's post-hook inputs) and that obeys the gradient layout contract
    is stolen (`detach`); any other is copied into the leaf's layout (clone_obey_contract).
    With a .grad, the gradient is added in place (`add_`), or out of place when grad mode is on
    (create_graph: the sum is differentiable).
    """
    if g is None or not leaf._key_set & REQUIRES_GRAD_BIT:
        return
    meta = autograd_meta(leaf)
    aten = _ops()
    if meta.grad is None:
        if (
            not _tls.thread_state.grad_enabled
            and sys.getrefcount(g) <= _OWN_REFS + held
            and _obeys_layout_contract(g, leaf)
        ):
            meta.grad = aten.detach.default(g)
        else:
            meta.grad = _clone_obey_contract(g, leaf)
    elif _tls.thread_state.grad_enabled:
        meta.grad = aten.add.Tensor(meta.grad, g)
    else:
        aten.add_.Tensor(meta.grad, g)
    if meta.post_accumulate_hooks:
        for hook in list(meta.post_accumulate_hooks):
            hook(leaf)


def _obeys_layout_contract(g: Any, leaf: Any) -> bool:
    """grad_layout_contract.h: a dense leaf's gradient has its strides (size-1 dimensions
    aside, where only stride 0 is refused); any other leaf's gradient is contiguous."""
    gd, ld = g._data, leaf._data
    if (
        gd.__class__ is np.ndarray
        and ld.__class__ is np.ndarray
        and ld.flags.c_contiguous
        and gd.flags.c_contiguous
        and 0 not in gd.strides
    ):
        return True  # the common case: both row-major (the shapes agree: validate_outputs)
    lstride = leaf.stride()
    if not _is_non_overlapping_and_dense(tuple(leaf._data.shape), lstride):
        return g.is_contiguous()
    for size, gs, ls in zip(g._data.shape, g.stride(), lstride):
        if size != 1:
            if gs != ls:
                return False
        elif gs == 0:
            return False
    return True


_CONTIGUOUS_FORMAT = 0  # MemoryFormat::Contiguous (schemas carry memory formats as ints)
_PRESERVE_FORMAT = 1


def _clone_obey_contract(g: Any, leaf: Any) -> Any:
    """A copy of g laid out as the leaf (dense leaf) or contiguous; differentiable in grad mode."""
    aten = _ops()
    shape = tuple(leaf._data.shape)
    stride = leaf.stride()
    if not _is_non_overlapping_and_dense(shape, stride):
        return aten.clone.default(g, memory_format=_CONTIGUOUS_FORMAT)
    out = aten.new_empty_strided.default(
        g, list(shape), list(stride), dtype=leaf._dtype, layout=leaf.layout, device=leaf.device
    )
    return aten.copy_.default(out, g)


# -- the run ---------------------------------------------------------------------------------


def _run(
    roots: list[tuple[tuple[Node | None, int], Any]],
    retain_graph: bool,
    create_graph: bool,
    capture: list[tuple[Node, int]] | None,
    accumulate: bool,
    only: set[int] | None = None,
) -> list[Any]:
    """Execute the graph from the root edges; return captured gradients (for grad())."""
    # Dependencies: how many edges from reachable nodes point at each node.
    deps: dict[Node, int] = {}
    seen: set[int] = set()
    stack = [edge[0] for edge, _ in roots if edge[0] is not None]
    all_nodes: list[Node] = []
    while stack:
        node = stack.pop()
        if id(node) in seen:
            continue
        seen.add(id(node))
        all_nodes.append(node)
        for nxt, _nr in node.next_edges:
            if nxt is not None:
                deps[nxt] = deps.get(nxt, 0) + 1
                if id(nxt) not in seen:
                    stack.append(nxt)
    needed: set[int] | None = None
    if capture is not None or only is not None:
        targets = {id(n) for n, _ in capture} if capture is not None else set(only or ())
        needed = _needed_nodes(all_nodes, targets)
    captured: dict[tuple[int, int], Any] = {}
    capture_keys = {(id(n), nr) for n, nr in capture} if capture is not None else set()

    buffers: dict[Node, list[Any]] = {}
    counter = itertools.count()
    ready: list[tuple[int, int, Node]] = []

    def add_grad(node: Node, nr: int, g: Any) -> None:
        buf = buffers.get(node)
        if buf is None:
            buf = buffers[node] = []
        while len(buf) <= nr:
            buf.append(None)
        if buf[nr] is None:
            buf[nr] = g
        elif g is not None:
            buf[nr] = _accumulate(buf, nr, g)

    for (node, nr), g in roots:
        if node is not None:
            add_grad(node, nr, g)
    g = None  # the engine holds gradients in its buffers only (AccumulateGrad counts references)
    for node in {id(e[0]): e[0] for e, _ in roots if e[0] is not None}.values():
        if deps.get(node, 0) == 0:
            heapq.heappush(ready, (-node.sequence_nr, next(counter), node))

    heappush, heappop = heapq.heappush, heapq.heappop
    prev_grad = _tls.thread_state.grad_enabled
    _tls.thread_state.grad_enabled = create_graph
    _tls.thread_state.refresh()
    # The running graph task, for will_engine_execute_node (register_multi_grad_hook).
    prev_task = _graph_task[0]
    _graph_task[0] = (next(_task_ids), seen, needed, accumulate, only)
    # Whether this task runs every node it reaches and captures nothing (backward(), not
    # grad(inputs=...)): the loop's common-node test then reads the node and the profiler only.
    plain_task = needed is None and not capture_keys
    try:
        while ready:
            node = heappop(ready)[2]
            grads = buffers.pop(node, [])
            if (
                plain_task
                and _prof.collector is None
                and not (
                    node._tensor_pre_hooks
                    or node._retains_grad
                    or node._pre_hooks
                    or node._hooks
                    or _anomaly[1]
                    or isinstance(node, AccumulateGrad)
                )
            ):
                # The common node (no hooks, captures, profile, anomaly mode): _call_node's
                # fast path, inline (one frame less per node).
                edges = node.next_edges
                if len(grads) < len(node.output_metadata) or not grads:
                    grads.extend([None] * (max(len(node.output_metadata), 1) - len(grads)))
                for g in grads:
                    if g is not None:
                        break
                else:
                    grads = None
                    for nxt, _nr in edges:
                        if nxt is not None:
                            left = deps[nxt] - 1
                            deps[nxt] = left
                            if not left:
                                heappush(ready, (-nxt.sequence_nr, next(counter), nxt))
                    continue
                g = None
                outputs = node.apply(grads)
                if outputs.__class__ is not tuple:
                    outputs = list(outputs)
                grads = None
                meta = getattr(node, "input_metadata", None)
                if meta is not None:
                    for g, m in zip(outputs, meta):
                        if (
                            g is not None
                            and m is not None
                            and (g._data.shape != m[0] or g._dtype is not m[1])
                        ):
                            outputs = _validate(node, list(outputs))  # the full checks
                            break
                    g = None
                n_outputs = len(outputs)
                i = 0
                for nxt, nr in edges:
                    if nxt is not None:
                        if i < n_outputs and outputs[i] is not None:
                            if nr == 0 and nxt not in buffers:  # add_grad's first, inline
                                buffers[nxt] = [outputs[i]]
                            else:
                                add_grad(nxt, nr, outputs[i])
                        left = deps[nxt] - 1
                        deps[nxt] = left
                        if not left:
                            heappush(ready, (-nxt.sequence_nr, next(counter), nxt))
                    i += 1
                outputs = ()
                continue
            if capture_keys:
                for nr in range(len(grads)):
                    if (id(node), nr) in capture_keys:
                        captured[(id(node), nr)] = grads[nr]
            run = needed is None or id(node) in needed
            if isinstance(node, AccumulateGrad):
                run = run and accumulate and (only is None or id(node) in only)
            outputs: list[Any] = []
            # PyTorch's engine records each node's evaluation (the node, then the adding of its
            # outputs into the next input buffers) while a profile runs.
            span = None
            if run and _prof.collector is not None:
                span = _prof.span(f"autograd::engine::evaluate_function: {_profile_name(node)}")
            if run:
                outputs = _call_node(node, grads, retain_graph)
            grads = None
            n_outputs = len(outputs)
            for i, (nxt, nr) in enumerate(node.next_edges):
                if nxt is None:
                    continue
                if i < n_outputs and outputs[i] is not None:
                    if nr == 0 and nxt not in buffers:  # add_grad's first gradient, inline
                        buffers[nxt] = [outputs[i]]
                    else:
                        add_grad(nxt, nr, outputs[i])
                left = deps[nxt] - 1
                deps[nxt] = left
                if not left:
                    heappush(ready, (-nxt.sequence_nr, next(counter), nxt))
            outputs = []
            if span is not None:
                _prof.end_span(span)
        if not retain_graph:
            for node in all_nodes:
                node.release_variables()
    finally:
        _graph_task[0] = prev_task
        _tls.thread_state.grad_enabled = prev_grad
        _tls.thread_state.refresh()
    if capture is None:
        return []
    return [captured.get((id(n), nr)) for n, nr in capture]


_graph_task: list[Any] = [None]  # (id, reachable node ids, needed ids or None, accumulate, only)
_task_ids = itertools.count()


def current_graph_task_id() -> int:
    """The running backward's id, -1 outside one (torch._C._current_graph_task_id)."""
    task = _graph_task[0]
    return -1 if task is None else task[0]


def will_engine_execute_node(node: Node) -> bool:
    """Whether the running backward will run `node` (torch._C._will_engine_execute_node)."""
    task = _graph_task[0]
    if task is None:
        raise RuntimeError(
            "_will_engine_execute_node should only be called during the backward pass"
        )
    _tid, seen, needed, accumulate, only = task
    key = id(node)
    if key not in seen:
        return False
    if isinstance(node, AccumulateGrad):
        return accumulate and (needed is None or key in needed) and (only is None or key in only)
    return needed is None or key in needed


def _needed_nodes(nodes: list[Node], targets: set[int]) -> set[int]:
    """Nodes from which a target node is reachable (PyTorch's exec_info)."""
    needed: set[int] = set()
    memo: dict[int, bool] = {}

    def visit(node: Node) -> bool:
        key = id(node)
        if key in memo:
            return memo[key]
        memo[key] = key in targets
        result = key in targets
        for nxt, _ in node.next_edges:
            if nxt is not None and visit(nxt):
                result = True
        memo[key] = result
        if result:
            needed.add(key)
        return result

    import sys

    limit = sys.getrecursionlimit()
    sys.setrecursionlimit(max(limit, 10000 + 4 * len(nodes)))
    try:
        for n in nodes:
            visit(n)
    finally:
        sys.setrecursionlimit(limit)
    return needed


def _call_node(node: Node, grads: list[Any], retain_graph: bool) -> list[Any]:
    """Run one node on its input buffer `grads` (changed in place: for an AccumulateGrad node
    the buffer must stay the gradient's only holder in the engine, see accumulate_into_grad)."""
    if not (
        node._tensor_pre_hooks
        or node._retains_grad
        or node._pre_hooks
        or node._hooks
        or _anomaly[1]
        or _prof.collector is not None
        or isinstance(node, AccumulateGrad)
    ):
        # The common node (no hooks, no profile, no anomaly mode): the steps below without
        # the ones that are off, and validate_outputs' shape and dtype test inline.
        if len(grads) < len(node.output_metadata) or not grads:
            grads.extend([None] * (max(len(node.output_metadata), 1) - len(grads)))
        for g in grads:
            if g is not None:
                break
        else:
            return [None] * len(node.next_edges)
        outputs = list(node.apply(grads))
        meta = getattr(node, "input_metadata", None)
        if meta is None:
            return outputs
        n_meta = len(meta)
        for i, g in enumerate(outputs):
            if g is not None and i < n_meta:
                m = meta[i]
                if m is not None and (g._data.shape != m[0] or g._dtype is not m[1]):
                    return _validate(node, outputs)  # a broadcast or cast: the full checks
        return outputs
    n_out = max(len(node.output_metadata), len(grads), 1)
    if len(grads) < n_out:
        grads.extend([None] * (n_out - len(grads)))
    new: Any = None
    if node._tensor_pre_hooks:
        for nr, hooks in node._tensor_pre_hooks.items():
            for hook in list(hooks):
                if nr < len(grads) and grads[nr] is not None:
                    new = hook(grads[nr])
                    if new is not None:
                        _check_hook_result(hook, grads[nr], new)
                        grads[nr] = new
    if node._retains_grad:
        for nr, t in node._retains_grad.items():
            if nr < len(grads) and grads[nr] is not None:
                _retain(t, grads[nr])
    if node._pre_hooks:
        for hook in list(node._pre_hooks):
            new = hook(tuple(grads))
            if new is not None:
                grads[:] = new
    new = None
    apply = node.apply if _prof.collector is None else _profiled_apply(node, grads)
    if isinstance(node, AccumulateGrad):
        if node._hooks:
            # PyTorch keeps the inputs for the post hooks: one more reference to the gradient.
            inputs = tuple(grads)
            apply(grads, held=1)
            for hook in list(node._hooks):
                hook((), inputs)
        else:
            apply(grads)
        return []
    if all(g is None for g in grads):
        return [None] * len(node.next_edges)
    if _anomaly[1]:
        try:
            outputs = list(apply(grads))
        except Exception:
            _warn_anomaly(node)
            raise
    else:
        outputs = list(apply(grads))
    outputs = _validate(node, outputs)
    if _anomaly[0]:
        try:
            _check_nan(node, outputs)
        except RuntimeError:
            _warn_anomaly(node)
            raise
    if node._hooks:
        for hook in list(node._hooks):
            new = hook(tuple(outputs), tuple(grads))
            if new is not None:
                if len(new) != len(outputs):
                    raise RuntimeError(
                        f"hook '{getattr(hook, '__name__', hook)}' has returned an incorrect "
                        f"number of values (got {len(new)}, but expected {len(outputs)})"
                    )
                outputs = list(new)
    return outputs


def _profile_name(node: Node) -> str:
    """The node's name in a profile: PyTorch's C++ nodes outside the generated ones are named
    by their C++ class (torch::autograd::AccumulateGrad)."""
    name = node.name()
    if name in ("AccumulateGrad", "CopySlices", "GraphRoot", "NotImplemented", "Error"):
        return f"torch::autograd::{name}"
    return name


def _profiled_apply(node: Node, grads: list[Any]) -> Any:
    """node.apply inside an event named as the node (PyTorch's Node::operator() records one),
    with the incoming gradients' shapes as its inputs."""
    shapes = [list(g.shape) if g is not None else [] for g in grads]
    name = _profile_name(node)

    def apply(*args: Any, **kwargs: Any) -> Any:
        rec = _prof.span(name, "cpu_op", shapes)
        try:
            return node.apply(*args, **kwargs)
        finally:
            _prof.end_span(rec)

    return apply


def _retain(t: Any, g: Any) -> None:
    """retain_grad's hook (VariableHooks::retain_grad): a contiguous copy, then sums."""
    meta = autograd_meta(t)
    if meta.grad is None:
        meta.grad = _ops().clone.default(g, memory_format=_CONTIGUOUS_FORMAT)
    else:
        meta.grad = _ops().add.Tensor(meta.grad, g)


def _check_nan(node: Node, outputs: list[Any]) -> None:
    for i, g in enumerate(outputs):
        if g is not None and g._dtype.category >= 2 and bool(_ops().isnan.default(g).any()):
            raise RuntimeError(f"Function '{node.name()}' returned nan values in its {i}th output.")


# -- public entry points ---------------------------------------------------------------------


def _as_list(x: Any) -> list[Any]:
    if x is None:
        return []
    if isinstance(x, (list, tuple)):
        return list(x)
    return [x]


def _grad_list(grads: Any) -> list[Any] | None:
    """PyTorch's _tensor_or_tensors_to_tuple for gradients: None, one tensor, or a sequence
    (anything else fails as tuple() does: "'float' object is not iterable")."""
    if grads is None:
        return None
    if hasattr(grads, "_key_set"):
        return [grads]
    return list(tuple(grads))


def _root_grads(outputs: list[Any], grad_outputs: list[Any] | None) -> list[Any]:
    """torch.autograd's _make_grads: the given gradients (shapes checked), or ones for scalar
    outputs that require grad (None for the others: the engine refuses them next)."""
    aten = _ops()
    if grad_outputs is not None and len(grad_outputs) != len(outputs):
        raise RuntimeError(f"got {len(outputs)} tensors and {len(grad_outputs)} gradients")
    result = []
    for i, out in enumerate(outputs):
        g = grad_outputs[i] if grad_outputs is not None and i < len(grad_outputs) else None
        if g is None:
            if out._key_set & REQUIRES_GRAD_BIT:
                if out.numel() != 1:
                    raise RuntimeError("grad can be implicitly created only for scalar outputs")
                if out._dtype.category != 2:  # integral, bool and complex outputs
                    raise RuntimeError(
                        f"grad can be implicitly created only for real scalar outputs but got "
                        f"{out._dtype}"
                    )
                g = aten.ones_like.default(out, memory_format=_PRESERVE_FORMAT)
        elif not hasattr(g, "_key_set"):
            raise TypeError(
                f"expected Tensor or None as grad_tensors[{i}] (got {type(g).__name__})"
            )
        elif tuple(g._data.shape) != tuple(out._data.shape):
            raise RuntimeError(
                f"Mismatch in shape: grad_output[{i}] has a shape of {g.shape} and "
                f"output[{i}] has a shape of {out.shape}."
            )
        elif g.device != out.device:  # the engine's validate_outputs on the root
            raise RuntimeError(
                f"invalid gradient at index {i} - expected device {out.device} but got {g.device}"
            )
        result.append(g)
    return result


def _check_outputs(outputs: list[Any]) -> None:
    for i, out in enumerate(outputs):
        if not out._key_set & REQUIRES_GRAD_BIT:
            raise RuntimeError(
                f"element {i} of tensors does not require grad and does not have a grad_fn"
            )


_warned_create_graph = [False]


def _warn_create_graph() -> None:
    """Engine::execute's TORCH_WARN_ONCE for backward(create_graph=True): once per process."""
    if _warned_create_graph[0]:
        return
    _warned_create_graph[0] = True
    import warnings

    warnings.warn(
        "Using backward() with create_graph=True will create a reference cycle between the "
        "parameter and its gradient which can cause a memory leak. We recommend using "
        "autograd.grad when creating the graph to avoid this. If you have to use this "
        "function, make sure to reset the .grad fields of your parameters to None after use to "
        "break the cycle and avoid the leak.",
        UserWarning,
        stacklevel=3,
    )


def backward(
    tensors: Any,
    grad_tensors: Any = None,
    retain_graph: bool | None = None,
    create_graph: bool = False,
    inputs: Any = None,
) -> None:
    """Accumulate the gradients of `tensors` into the leaves' `.grad` (torch.autograd.backward)."""
    if inputs is not None:
        inputs = _as_list(inputs)
        if not inputs:
            raise RuntimeError("`inputs` argument to `backward()` cannot be empty.")
    outputs = _as_list(tensors)
    root_grads = _root_grads(outputs, _grad_list(grad_tensors))
    if retain_graph is None:
        retain_graph = create_graph
    _check_outputs(outputs)
    roots = list(zip((gradient_edge(o) for o in outputs), root_grads))
    del root_grads
    only = None
    if inputs is not None:
        only = set()
        for t in inputs:
            node, _ = gradient_edge(t)
            if node is None:
                raise RuntimeError("One of the differentiated Tensors does not require grad")
            only.add(id(node))
            if not isinstance(node, AccumulateGrad):
                # run_backward's input.retain_grad(): a non-leaf input's .grad is kept
                node._retains_grad = dict(node._retains_grad or {})
                node._retains_grad[autograd_meta(t).output_nr] = t
    if create_graph:
        _warn_create_graph()
    _run(roots, retain_graph, create_graph, None, True, only)


def grad(
    outputs: Any,
    inputs: Any,
    grad_outputs: Any = None,
    retain_graph: bool | None = None,
    create_graph: bool = False,
    only_inputs: bool = True,
    allow_unused: bool | None = None,
    is_grads_batched: bool = False,
    materialize_grads: bool = False,
) -> tuple[Any, ...]:
    """Gradients of outputs with respect to inputs (torch.autograd.grad); no .grad written.
    The gradients are the engine's own tensors (nothing is detached)."""
    outs = _as_list(outputs)
    ins = _as_list(inputs)
    if not ins:
        raise RuntimeError("`inputs` argument to `grad()` cannot be empty.")
    root_grads = _root_grads(outs, _grad_list(grad_outputs))
    if retain_graph is None:
        retain_graph = create_graph
    if allow_unused is None:
        allow_unused = materialize_grads
    _check_outputs(outs)
    capture = []
    for t in ins:
        if not t._key_set & REQUIRES_GRAD_BIT:
            raise RuntimeError("One of the differentiated Tensors does not require grad")
        capture.append(gradient_edge(t))
    roots = list(zip((gradient_edge(o) for o in outs), root_grads))
    del root_grads
    result = _run(roots, retain_graph, create_graph, capture, False)
    final = []
    for index, (t, g) in enumerate(zip(ins, result)):
        if g is None:
            if materialize_grads:
                # zeros_like(input, requires_grad=create_graph), as torch.autograd.grad
                g = _ops().zeros_like.default(t)
                if create_graph:
                    g.requires_grad_(True)
            elif not allow_unused:
                raise RuntimeError(
                    f"The differentiated Tensor at index {index} appears to not have been used "
                    "in the graph. Set allow_unused=True if this is the desired behavior."
                )
        final.append(g)
    return tuple(final)


def attach_not_implemented(op: Any, args: tuple, kwargs: dict, out: Any) -> None:
    """Autograd fallback (warn mode): outputs that need grad but have no node get one that
    warns at backward and passes no gradient on."""
    from .nodes import NotImplementedNode

    tensors = [a for a in list(args) + list(kwargs.values()) if hasattr(a, "_key_set")]
    if (
        not any(t._key_set & REQUIRES_GRAD_BIT for t in tensors)
        or not _tls.thread_state.grad_enabled
    ):
        return
    outs = out if isinstance(out, (list, tuple)) else (out,)
    node = None
    for i, t in enumerate(outs):
        if not hasattr(t, "_key_set") or t._dtype.category < 2:
            continue
        if t._autograd_meta is not None and t._autograd_meta.grad_fn is not None:
            t._autograd_meta.grad_fn.register_prehook(_warn_hook(op))
            continue
        if any(t is a for a in tensors):
            continue
        if node is None:
            node = NotImplementedNode(op, tensors)
        from .graph import set_history

        set_history(t, node, i)


def _warn_hook(op: Any) -> Any:
    def hook(grads: tuple[Any, ...]) -> None:
        import warnings

        warnings.warn(
            f"{op.qualified_name()}: an autograd kernel was not registered to the Autograd "
            f"key(s) but we are trying to backprop through it. This may lead to silently "
            f"incorrect behavior. This behavior is deprecated and will be removed in a future "
            f"version of PyTorch. If your operator is differentiable, please ensure you have "
            f"registered an autograd kernel to the correct Autograd key (e.g. "
            f"DispatchKey::Autograd, DispatchKey::CompositeImplicitAutograd). If your operator "
            f"is not differentiable, or to squash this warning and use the previous behavior, "
            f"please register torch::CppFunction::makeFallthrough() to DispatchKey::Autograd.",
            UserWarning,
            stacklevel=2,
        )

    return hook


def set_anomaly_enabled(enabled: bool, check_nan: bool = True) -> None:
    """torch.set_anomaly_enabled: anomaly mode and its NaN check."""
    _anomaly[1] = bool(enabled)
    _anomaly[2] = bool(check_nan)
    _anomaly[0] = _anomaly[1] and _anomaly[2]


def is_anomaly_enabled() -> bool:
    return _anomaly[1]


def is_anomaly_check_nan_enabled() -> bool:
    return _anomaly[2]


def _warn_anomaly(node: Node) -> None:
    """PyTorch's warning when a node fails in anomaly mode: it names the node, then prints the
    forward traceback that anomaly mode recorded in the node's metadata (empty when none was)."""
    import warnings

    stack = node.__dict__.get("_metadata", {}).get("traceback_", "")
    warnings.warn(
        f"Error detected in {node.name()}. Traceback of forward call that caused the error:\n"
        f"{''.join(stack) if isinstance(stack, list) else stack}",
        UserWarning,
        stacklevel=2,
    )
