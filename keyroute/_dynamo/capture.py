"""Capture: a function's aten calls as one GraphModule, by tracing it on fake tensors.

No bytecode is rewritten (as JAX's jit): the function runs once on FakeTensors under make_fx's
tracing mode, with the graph-break hooks installed (breaks.HOOKS). Its Python side effects
happen at that trace only. Parameters and buffers of a compiled module are graph inputs
(placeholders), not constants, so an optimizer's in-place update is seen by the next call.

A function that breaks is run as segments instead (`run_segmented`): on the real tensors, under
a recording mode that starts a new graph at each break and runs the breaking construct eagerly,
so results are eager's and `explain` reports the graphs and breaks.
"""

from __future__ import annotations

import contextlib
import operator
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

from ..fx.graph import Graph
from ..fx.graph_module import GraphModule
from ..tensor._tensor import Tensor
from ..utils._pytree import tree_flatten, tree_unflatten
from ..utils.python_dispatch import TorchDispatchMode
from . import breaks
from .breaks import HOOKS, GraphBreak
from .exc import TorchRuntimeError

_MISSING = object()


@dataclass
class Captured:
    """One graph and how to rebuild the function's output from the graph's outputs."""

    gm: GraphModule
    out_spec: Any
    #: The output's leaves: None where a graph output goes, else the (constant) value.
    out_template: list[Any]
    #: Walk indices of the lifted tensors, the graph's last inputs (lifting.py).
    lifted: list[int] = field(default_factory=list)
    #: Walk paths where the last len(stores) graph outputs are stored after each run
    #: (Note [trace-time stores]).
    stores: list[tuple[Any, ...]] = field(default_factory=list)

    def rebuild(self, outs: Any) -> Any:
        it = iter(outs)
        leaves = [next(it) if v is _MISSING else v for v in self.out_template]
        return tree_unflatten(leaves, self.out_spec)


def _captures_item(make: Any, t: Any) -> bool:
    """`.item()` of a floating tensor under capture_scalar_outputs (unbacked.py)."""
    from . import config
    from .unbacked import captures

    return (
        make is breaks.item_break
        and config.capture_scalar_outputs
        and isinstance(t, Tensor)
        and captures(t)
    )


def _raise_handler(make: Callable[[], GraphBreak], run: Any, t: Any) -> Any:
    if _captures_item(make, t):
        return run()  # the proxy mode records it (unbacked.local_scalar_node)
    b = make()
    b.user_stack = breaks.user_stack(3)
    raise b


def _fake_of(mode: Any, t: Tensor) -> Tensor:
    f = mode.from_tensor(t.detach())
    if t.requires_grad:
        f.requires_grad_(True)
    return f


def trace(
    call: Callable[[tuple[Tensor, ...]], Any],
    tensors: list[Tensor],
    names: list[str],
    dynamic: Any = None,
    lift: Any = None,
) -> Captured:
    """Trace `call(tensors)` on fake tensors into one graph; raises GraphBreak where it cannot.
    `dynamic`: a dynamic.DynamicPlan whose symbolic sizes the fakes get (symbolic_shapes.py).
    `lift`: (walk, roots) of the tensors reached outside the arguments (lifting.py)."""
    from ..fx.experimental.proxy_tensor import dispatch_trace
    from ..subclasses.fake_tensor import (
        DataDependentOutputException,
        DynamicOutputShapeException,
        FakeTensorMode,
    )
    from .unbacked import _COUNT, _COUNT_INT

    _COUNT[0] = _COUNT_INT[0] = 0  # unbacked symbols are numbered per capture (zuf0, u0, ...)
    mode = FakeTensorMode(allow_non_fake_inputs=True)
    fakes = [_fake_of(mode, t) for t in tensors]
    env: Any = contextlib.nullcontext()
    if dynamic is not None:
        env = dynamic.env
        mode.cache_enabled = False  # cached results would carry (or lose) symbolic sizes
        for f, shape in zip(fakes, dynamic.shapes):
            if shape is not None:
                f._data.shape = shape
    holder: dict[str, Any] = {}

    def flat_call(*ts: Tensor) -> tuple[Tensor, ...]:
        out = call(ts)
        leaves, spec = tree_flatten(out)
        holder["spec"] = spec
        holder["template"] = [_MISSING if isinstance(v, Tensor) else v for v in leaves]
        ts = tuple(v for v in leaves if isinstance(v, Tensor))
        holder["needs_grad"] = any(v.requires_grad for v in ts)
        return ts

    lifter = None
    if lift is not None:
        from .lifting import Lifter

        lifter = Lifter(lift[0], lift[1], mode)

    HOOKS.install()
    HOOKS.handlers.append(_raise_handler)
    try:
        with _RecordGradMode(), env:
            gm = dispatch_trace(
                flat_call,
                tuple(fakes),
                tracing_mode="fake",
                fake_mode=mode,
                placeholder_names=names,
                flat_names=True,
                lift=lifter,
            )
    except GraphBreak:
        raise
    except (DataDependentOutputException, DynamicOutputShapeException) as e:
        op = getattr(e, "func", None)
        b = breaks.data_dependent_op_break(str(op) if op is not None else "aten.nonzero.default")
        b.user_stack = breaks.user_stack_from_tb(e.__traceback__)
        raise b from None
    except RuntimeError as e:
        msg = str(e)
        if "There was no fake impl registered" in msg or "no fake impl" in msg:
            raise TorchRuntimeError(_fake_impl_message(msg, e)) from None
        if "does not have a fake" in msg or "Operator does not support running with fake" in msg:
            b = breaks.no_fake_break(_op_name(msg))
            b.user_stack = breaks.user_stack_from_tb(e.__traceback__)
            raise b from None
        raise
    finally:
        HOOKS.handlers.pop()
        HOOKS.uninstall()
    # Dynamo's graph keeps every custom-operator call (its user called it); the AOT path later
    # decides from the schema (examples/dishonest_mutation.py: eager keeps the write).
    stores: list[tuple[Any, ...]] = []
    if lifter is not None:
        stores = _trace_stores(gm, lifter)
    gm.graph.eliminate_dead_code(_impure_in_dynamo)
    if dynamic is not None:
        _add_sym_placeholders(gm, dynamic)
    gm.recompile()
    # The AOT backends build a training graph only when an output needs a gradient (as
    # PyTorch's AOT Autograd, which otherwise compiles an inference graph): opt.step's
    # parameters require grad, its updates run under no_grad.
    # A trace that ran a backward (it stored new .grad values) is a whole training step: its
    # graph already holds the backward, so it is compiled as an inference graph.
    backward_inside = any(p[-1] == ("attr", "grad") for p in stores)
    gm._kr_outputs_need_grad = holder["needs_grad"] and not backward_inside
    lifted = lifter.order if lifter is not None else []
    return Captured(gm, holder["spec"], holder["template"], lifted, stores)


def _trace_stores(gm: GraphModule, lifter: Any) -> list[tuple[Any, ...]]:
    """Tensors the trace stored into the walked structures become extra graph outputs
    (Note [trace-time stores]); raises StoreUnsupported where one cannot be replayed."""
    from .lifting import walk

    after = walk(lifter.roots)
    if not after.fakes:
        return []
    nodes = lifter.tracking.nodes
    extra = []
    paths = []
    for path, fake in after.fakes:
        node = nodes.get(id(fake))
        if node is None or path[-1][0] == "key":
            raise StoreUnsupported(path)
        extra.append(node)
        paths.append(path)
    out = next(n for n in reversed(list(gm.graph.nodes)) if n.op == "output")
    out.args = (tuple(out.args[0]) + tuple(extra),)
    return paths


class StoreUnsupported(Exception):
    """A tensor made during the trace was stored where it cannot be replayed."""


def _add_sym_placeholders(gm: GraphModule, dynamic: Any) -> None:
    """Dynamo's graph takes each symbol as an input ("s77: Sym(s77)") before the first tensor
    with that size, then every value gets its symbolic sizes (symbolic_shapes.symbolize_graph)."""
    from .symbolic_shapes import SymInt, symbolize_graph

    phs = [n for n in gm.graph.nodes if n.op == "placeholder"]
    for name, ti, _d in dynamic.order:
        with gm.graph.inserting_before(phs[ti]):
            ph = gm.graph.placeholder(name)
        expr = dynamic.ph_expr.get(name, name)
        ph.meta["val"] = SymInt(dynamic.env.hints[expr], expr)
    symbolize_graph(gm)


def _set_grad_enabled(enabled: bool) -> None:
    """A grad-mode change inside the compiled function, as a node of its graph (as
    torch._C._set_grad_enabled in Dynamo's graphs)."""
    from ..autograd import grad_mode

    grad_mode._set_grad(enabled)


_set_grad_enabled.__module__ = "keyroute._dynamo.capture"


class _RecordGradMode:
    """During a trace, grad-mode changes also become graph nodes."""

    def __enter__(self) -> None:
        from ..autograd import grad_mode

        self.orig = orig = grad_mode._set_grad

        def hooked(enabled: bool) -> None:
            from ..fx.experimental.proxy_tensor import ProxyTorchDispatchMode
            from ..layers.python import mode_stack

            orig(enabled)
            for m in mode_stack():
                if isinstance(m, ProxyTorchDispatchMode):
                    m.tracking.graph.create_node(
                        "call_function", _set_grad_enabled, (bool(enabled),), {}, "set_grad"
                    )
                    break

        grad_mode._set_grad = hooked

    def __exit__(self, *exc: Any) -> None:
        from ..autograd import grad_mode

        grad_mode._set_grad = self.orig


def _impure_in_dynamo(n: Any) -> bool:
    if n.target is _set_grad_enabled:
        return True
    ns = getattr(n.target, "namespace", "aten")
    return n.is_impure() or (n.op == "call_function" and ns not in ("aten", "prims"))


def _op_name(msg: str) -> str:
    import re

    m = re.search(r"([A-Za-z_][\w]*::[\w.]+|[A-Za-z_]\w*\.\w+\.\w+)", msg)
    return m.group(1).replace("::", ".") if m else "?"


def _fake_impl_message(msg: str, e: BaseException) -> str:
    lines = [
        "RuntimeError when making fake tensor call",
        f"  Explanation: Dynamo failed to run FX node with fake tensors: got RuntimeError({msg!r})",
        "  Hint: Your code may result in an error when running in eager. Please double check "
        "that your code doesn't contain a similar error when actually running eager/uncompiled. "
        "You can do this by removing the `torch.compile` call, or by using "
        '`torch.compiler.set_stance("force_eager")`. ',
        "",
        "  Developer debug context: ",
        "",
        " For more details about this graph break, please visit: "
        "https://meta-pytorch.github.io/compile-graph-break-site/gb/gb4315.html",
        "",
        "from user code:",
    ]
    for fr in breaks.user_stack_from_tb(e.__traceback__):
        lines.append(f'   File "{fr.filename}", line {fr.lineno}, in {fr.name}')
        lines.append(f"    {fr.line}")
    return "\n".join(lines)


# -- segmented runs ---------------------------------------------------------------------------


@dataclass
class SegmentRun:
    result: Any
    graphs: list[GraphModule] = field(default_factory=list)
    breaks: list[GraphBreak] = field(default_factory=list)


class SegmentRecorder(TorchDispatchMode):
    """Records the aten calls of an eager run, one list per segment between breaks."""

    def __init__(self) -> None:
        super().__init__()
        self.segments: list[list[tuple[Any, Any, Any, Any]]] = [[]]
        self.breaks: list[GraphBreak] = []
        self.paused = False

    def __torch_dispatch__(self, func: Any, types: Any, args: Any = (), kwargs: Any = None) -> Any:
        kwargs = kwargs or {}
        out = func(*args, **kwargs)
        if not self.paused:
            self.segments[-1].append((func, args, kwargs, out))
        return out

    def handler(self, make: Callable[[], GraphBreak], run: Any, t: Any) -> Any:
        if self.paused:
            return run()
        if _captures_item(make, t):
            from .unbacked import eager_scalar

            return eager_scalar(run())
        b = make()
        b.user_stack = breaks.user_stack(3)
        self.breaks.append(b)
        self.segments.append([])
        self.paused = True
        try:
            return run()
        finally:
            self.paused = False


def run_segmented(call: Callable[[], Any]) -> SegmentRun:
    """Run `call()` eagerly, recording its graphs (non-empty segments) and breaks."""
    _compiling = breaks.COMPILING

    rec = SegmentRecorder()
    HOOKS.install()
    HOOKS.handlers.append(rec.handler)
    # torch.compiler.is_compiling() holds between the breaks too, as while dynamo traces
    # (Adam then keeps its step a tensor, as PyTorch's optimizers do when compiled).
    _compiling[0] += 1
    try:
        with rec:
            result = call()
    finally:
        _compiling[0] -= 1
        HOOKS.handlers.pop()
        HOOKS.uninstall()
    final_ids = {id(v) for v in tree_flatten(result)[0] if isinstance(v, Tensor)}
    segs = [s for s in rec.segments if s]
    graphs = []
    for i, seg in enumerate(segs):
        later: set[int] = set(final_ids)
        for s in segs[i + 1 :]:
            for _f, a, k, _o in s:
                later.update(id(v) for v in tree_flatten((a, k))[0] if isinstance(v, Tensor))
        graphs.append(_segment_graph(seg, later))
    return SegmentRun(result, graphs, rec.breaks)


def _segment_graph(records: list[tuple[Any, Any, Any, Any]], later: set[int]) -> GraphModule:
    from ..subclasses.fake_tensor import FakeTensorMode

    mode = FakeTensorMode()
    g = Graph()
    env: dict[int, Any] = {}
    produced: list[tuple[int, Any]] = []
    inputs: list[Tensor] = []
    known: set[int] = set()
    for _f, a, k, o in records:
        for v in tree_flatten((a, k))[0]:
            if isinstance(v, Tensor) and id(v) not in known:
                known.add(id(v))
                inputs.append(v)
        known.update(id(v) for v in tree_flatten(o)[0] if isinstance(v, Tensor))
    for i, t in enumerate(inputs):
        ph = g.placeholder(f"L_stack{i}_" if i else "L_x_")
        ph.meta["val"] = mode.from_tensor(t.detach())
        env[id(t)] = ph

    def arg(v: Any) -> Any:
        if isinstance(v, Tensor):
            return env[id(v)]
        if type(v) in (list, tuple):
            return type(v)(arg(x) for x in v)
        return v

    for func, a, k, out in records:
        node = g.create_node("call_function", func, arg(a), {n: arg(v) for n, v in k.items()})
        if isinstance(out, Tensor):
            node.meta["val"] = mode.from_tensor(out.detach())
            env[id(out)] = node
            produced.append((id(out), node))
        elif isinstance(out, (tuple, list)):
            for j, o in enumerate(out):
                if isinstance(o, Tensor):
                    gi = g.create_node("call_function", operator.getitem, (node, j), {})
                    gi.meta["val"] = mode.from_tensor(o.detach())
                    env[id(o)] = gi
                    produced.append((id(o), gi))
    outs = []
    seen = set()
    for tid, node in produced:
        if tid in later and env.get(tid) is node and tid not in seen:
            seen.add(tid)
            outs.append(node)
    g.output(tuple(outs))
    return GraphModule({}, g, "GraphModule")
