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
from collections.abc import Sequence
from typing import Any

from ..dispatcher.keyset import REQUIRES_GRAD_BIT
from ..dispatcher.tls import state as _tls
from ._meta import autograd_meta
from .graph import AccumulateGrad, Node, gradient_edge

__all__ = ["backward", "grad", "accumulate_into_grad", "attach_not_implemented"]

_anomaly = [False]


def _ops() -> Any:
    from .._ops import ops

    return ops.aten


# -- leaf accumulation ----------------------------------------------------------------------


def accumulate_into_grad(leaf: Any, g: Any) -> None:
    """Add g into leaf.grad (AccumulateGrad), after the leaf's hooks."""
    if g is None:
        return
    meta = autograd_meta(leaf)
    aten = _ops()
    if meta.grad is None:
        if not _tls.s.grad_enabled:
            # Steal the incoming gradient (PyTorch's AccumulateGrad does when nothing else
            # holds it): copy only if its layout differs from the leaf's, or if its memory
            # (itself or the tensor it views) was already handed to another leaf.
            root = g._base if g._base is not None else g
            g = g.detach()
            if not g.is_contiguous() and leaf.is_contiguous():
                g = aten.clone.default(g, memory_format=0)
            elif _is_aliased(root):
                g = aten.clone.default(g)
        meta.grad = g
    elif _tls.s.grad_enabled:
        meta.grad = aten.add.Tensor(meta.grad, g)
    else:
        aten.add_.Tensor(meta.grad, g)
    if meta.post_accumulate_hooks:
        for hook in list(meta.post_accumulate_hooks):
            hook(leaf)


# Memory handed to a leaf's .grad during the current backward run, by id; the objects are
# kept so that an id cannot be reused by a later tensor within the run.
_STORED: dict[int, Any] = {}


def _is_aliased(g: Any) -> bool:
    # A gradient handed to two leaves (e.g. through add) must not become both their .grad.
    key = id(g)
    if key in _STORED:
        return True
    _STORED[key] = g
    return False


# -- the run ---------------------------------------------------------------------------------


def _sum_to(g: Any, shape: tuple[int, ...]) -> Any:
    aten = _ops()
    gshape = tuple(g._data.shape)
    if gshape == shape:
        return g
    lead = len(gshape) - len(shape)
    dims = list(range(lead))
    for i, s in enumerate(shape):
        if s == 1 and gshape[lead + i] != 1:
            dims.append(lead + i)
    if dims:
        g = aten.sum.dim_IntList(g, dims, True)
    if lead:
        g = (
            aten.view.default(g, list(shape))
            if g.is_contiguous()
            else aten.reshape.default(g, list(shape))
        )
    elif tuple(g._data.shape) != shape:
        g = aten.reshape.default(g, list(shape))
    return g


def _validate(node: Node, outputs: Sequence[Any]) -> list[Any]:
    """validate_outputs: reduce broadcast gradients, cast dtypes, check shapes."""
    result = list(outputs)
    meta = node.input_metadata if hasattr(node, "input_metadata") else None
    if meta is None:
        return result
    for i, g in enumerate(result):
        if g is None or i >= len(meta) or meta[i] is None:
            continue
        shape, dtype = meta[i]
        gshape = tuple(g._data.shape)
        if gshape != shape:
            if not _expandable(shape, gshape):
                raise RuntimeError(
                    f"Function {node.name()} returned an invalid gradient at index {i} - got "
                    f"[{', '.join(map(str, gshape))}] but expected shape compatible with "
                    f"[{', '.join(map(str, shape))}]"
                )
            g = _sum_to(g, shape)
        if g._dtype is not dtype:
            g = _ops().to.dtype(g, dtype)
        result[i] = g
    return result


def _expandable(shape: tuple[int, ...], target: tuple[int, ...]) -> bool:
    if len(shape) > len(target):
        return False
    for s, t in zip(reversed(shape), reversed(target)):
        if s != t and s != 1:
            return False
    return True


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
            buf[nr] = _ops().add.Tensor(buf[nr], g)

    for (node, nr), g in roots:
        if node is not None:
            add_grad(node, nr, g)
    for node in {id(e[0]): e[0] for e, _ in roots if e[0] is not None}.values():
        if deps.get(node, 0) == 0:
            heapq.heappush(ready, (-node.sequence_nr, next(counter), node))

    prev_grad = _tls.s.grad_enabled
    _tls.s.grad_enabled = create_graph
    _tls.s.refresh()
    _STORED.clear()
    try:
        while ready:
            _, _, node = heapq.heappop(ready)
            grads = buffers.pop(node, [])
            if capture_keys:
                for nr, g in enumerate(grads):
                    if (id(node), nr) in capture_keys:
                        captured[(id(node), nr)] = g
            run = needed is None or id(node) in needed
            if isinstance(node, AccumulateGrad):
                run = run and accumulate and (only is None or id(node) in only)
            outputs: list[Any] = []
            if run:
                outputs = _call_node(node, grads, retain_graph)
            for i, (nxt, nr) in enumerate(node.next_edges):
                if nxt is None:
                    continue
                g = outputs[i] if i < len(outputs) else None
                if g is not None:
                    add_grad(nxt, nr, g)
                deps[nxt] -= 1
                if deps[nxt] == 0:
                    heapq.heappush(ready, (-nxt.sequence_nr, next(counter), nxt))
        if not retain_graph:
            for node in all_nodes:
                node.release_variables()
    finally:
        _tls.s.grad_enabled = prev_grad
        _tls.s.refresh()
        _STORED.clear()
    if capture is None:
        return []
    return [captured.get((id(n), nr)) for n, nr in capture]


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
    n_out = max(len(node.output_metadata), len(grads), 1)
    grads = list(grads) + [None] * (n_out - len(grads))
    if node._tensor_pre_hooks:
        for nr, hooks in node._tensor_pre_hooks.items():
            for hook in list(hooks):
                if nr < len(grads) and grads[nr] is not None:
                    new = hook(grads[nr])
                    if new is not None:
                        grads[nr] = new
    if node._retains_grad:
        for nr, t in node._retains_grad.items():
            if nr < len(grads) and grads[nr] is not None:
                _retain(t, grads[nr])
    if node._pre_hooks:
        for hook in list(node._pre_hooks):
            new = hook(tuple(grads))
            if new is not None:
                grads = list(new)
    if isinstance(node, AccumulateGrad):
        node.apply(grads)
        return []
    if all(g is None for g in grads):
        return [None] * len(node.next_edges)
    outputs = list(node.apply(grads))
    outputs = _validate(node, outputs)
    if _anomaly[0]:
        _check_nan(node, outputs)
    if node._hooks:
        for hook in list(node._hooks):
            new = hook(tuple(outputs), tuple(grads))
            if new is not None:
                outputs = list(new)
    return outputs


def _retain(t: Any, g: Any) -> None:
    meta = autograd_meta(t)
    g = g.detach() if not _tls.s.grad_enabled else g
    meta.grad = g if meta.grad is None else _ops().add.Tensor(meta.grad, g)


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


def _root_grads(
    outputs: list[Any], grad_outputs: list[Any] | None, create_graph: bool
) -> list[Any]:
    aten = _ops()
    result = []
    for i, out in enumerate(outputs):
        g = grad_outputs[i] if grad_outputs is not None and i < len(grad_outputs) else None
        if g is None:
            if out.numel() != 1:
                raise RuntimeError("grad can be implicitly created only for scalar outputs")
            if out._dtype.category < 2:
                raise RuntimeError(
                    f"grad can be implicitly created only for real scalar outputs but got "
                    f"{out._dtype}"
                )
            g = aten.ones_like.default(out, memory_format=0)
        else:
            if tuple(g._data.shape) != tuple(out._data.shape):
                raise RuntimeError(
                    f"Mismatch in shape: grad_output[{i}] has a shape of {g.shape} and "
                    f"output[{i}] has a shape of {out.shape}."
                )
        result.append(g)
    return result


def backward(
    tensors: Any,
    grad_tensors: Any = None,
    retain_graph: bool | None = None,
    create_graph: bool = False,
    inputs: Any = None,
) -> None:
    """Accumulate the gradients of `tensors` into the leaves' `.grad` (torch.autograd.backward)."""
    outputs = _as_list(tensors)
    grads = _as_list(grad_tensors) if grad_tensors is not None else None
    if retain_graph is None:
        retain_graph = create_graph
    for i, out in enumerate(outputs):
        if not out._ks & REQUIRES_GRAD_BIT:
            raise RuntimeError(
                f"element {i} of tensors does not require grad and does not have a grad_fn"
            )
    roots = list(
        zip((gradient_edge(o) for o in outputs), _root_grads(outputs, grads, create_graph))
    )
    only = None
    if inputs is not None:
        inputs = _as_list(inputs)
        if not inputs:
            raise RuntimeError("'inputs' argument to backward() cannot be empty.")
        only = set()
        for t in inputs:
            node, _ = gradient_edge(t)
            if node is None:
                raise RuntimeError("One of the differentiated Tensors does not require grad")
            only.add(id(node))
            if not isinstance(node, AccumulateGrad):
                node_ref = node
                node_ref._retains_grad = dict(node_ref._retains_grad or {})
                node_ref._retains_grad[autograd_meta(t).output_nr] = t
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
    """Gradients of outputs with respect to inputs (torch.autograd.grad); no .grad written."""
    outs = _as_list(outputs)
    ins = _as_list(inputs)
    gouts = _as_list(grad_outputs) if grad_outputs is not None else None
    if retain_graph is None:
        retain_graph = create_graph
    if allow_unused is None:
        allow_unused = materialize_grads
    for i, out in enumerate(outs):
        if not out._ks & REQUIRES_GRAD_BIT:
            raise RuntimeError(
                f"element {i} of tensors does not require grad and does not have a grad_fn"
            )
    capture = []
    for t in ins:
        if not t._ks & REQUIRES_GRAD_BIT:
            raise RuntimeError("One of the differentiated Tensors does not require grad")
        edge = gradient_edge(t)
        capture.append(edge)
    roots = list(zip((gradient_edge(o) for o in outs), _root_grads(outs, gouts, create_graph)))
    result = _run(roots, retain_graph, create_graph, capture, False)
    final = []
    for t, g in zip(ins, result):
        if g is None:
            if materialize_grads:
                g = _ops().zeros_like.default(t)
            elif not allow_unused:
                raise RuntimeError(
                    "One of the differentiated Tensors appears to not have been used in the "
                    "graph. Set allow_unused=True if this is the desired behavior."
                )
        elif not create_graph:
            g = g.detach()
        final.append(g)
    return tuple(final)


def attach_not_implemented(op: Any, args: tuple, kwargs: dict, out: Any) -> None:
    """Autograd fallback (warn mode): outputs that need grad but have no node get one that
    warns at backward and passes no gradient on."""
    from .nodes import NotImplementedNode

    tensors = [a for a in list(args) + list(kwargs.values()) if hasattr(a, "_ks")]
    if not any(t._ks & REQUIRES_GRAD_BIT for t in tensors) or not _tls.s.grad_enabled:
        return
    outs = out if isinstance(out, (list, tuple)) else (out,)
    node = None
    for i, t in enumerate(outs):
        if not hasattr(t, "_ks") or t._dtype.category < 2:
            continue
        if t._ag is not None and t._ag.grad_fn is not None:
            t._ag.grad_fn.register_prehook(_warn_hook(op))
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


def set_detect_anomaly(mode: bool) -> None:
    _anomaly[0] = bool(mode)


def is_anomaly_enabled() -> bool:
    return _anomaly[0]
