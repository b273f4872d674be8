"""make_fx (torch.fx.experimental.proxy_tensor): record every aten call that reaches the Python
key while `f` runs, as a GraphModule.

The tracing mode is a dispatch mode (innermost on the mode stack): each call is mapped to a
call_function node whose inputs are the nodes of the argument tensors, run (on fake tensors under
`tracing_mode="fake"`, whose FakeTensorMode sits below it on the stack), and its outputs are
bound to the node. An in-place op's output is its input tensor, so later reads of that tensor
read the in-place node (as PyTorch's graphs show: `relu(add_)`). A tensor the graph did not
produce is a constant (`_tensor_constant0`, a get_attr). `meta["val"]` holds a FakeTensor with
each value's metadata in both modes, as PyTorch's.

Note [placeholder names]: a Python function's parameters name its placeholders with a `_1`
suffix (`x_1`), as PyTorch's tracer does; a function with `*args` (or without a code object)
gets `arg0_1, arg1_1, ...`.
"""

from __future__ import annotations

import contextlib
import inspect
import operator
from collections.abc import Callable
from typing import Any

from ...dispatcher.keys import DispatchKey
from ...dispatcher.tls import ExcludeDispatchKeyGuard, IncludeDispatchKeyGuard
from ...library import Library
from ...tensor._tensor import Tensor
from ...utils._pytree import tree_flatten, tree_unflatten
from ...utils.python_dispatch import TorchDispatchMode
from ..graph import Graph
from ..graph_module import GraphModule
from ..node import Node

__all__ = ["make_fx", "ProxyTorchDispatchMode", "get_isolated_graphmodule", "dispatch_trace"]

_DATA_DEPENDENT = "aten::_local_scalar_dense"


class _Tracking:
    """Tensor -> node, by identity (the tensors are kept alive for the trace, so ids are stable)."""

    __slots__ = ("nodes", "keep", "graph", "constants", "fake_mode", "real", "lift")

    def __init__(self, graph: Graph, fake_mode: Any, real: bool) -> None:
        self.nodes: dict[int, Node] = {}
        self.keep: list[Any] = []
        self.graph = graph
        self.constants: dict[str, Tensor] = {}
        self.fake_mode = fake_mode
        self.real = real
        #: keyroute.compile's lifting (_dynamo/lifting.Lifter): real tensors reached through
        #: closures / objects, mapped to placeholders on first use; None for make_fx.
        self.lift: Any = None

    def bind(self, t: Tensor, node: Node) -> None:
        self.nodes[id(t)] = node
        self.keep.append(t)

    def constant(self, t: Tensor) -> Node:
        name = f"_tensor_constant{len(self.constants)}"
        self.constants[name] = t
        node = self.graph.create_node("get_attr", name)
        node.meta["val"] = self.meta_val(t)
        self.bind(t, node)
        return node

    def meta_val(self, v: Any) -> Any:
        if self.real and isinstance(v, Tensor):
            return self.fake_mode.from_tensor(v)
        return v

    def arg(self, a: Any) -> Any:
        if isinstance(a, Tensor):
            n = self.nodes.get(id(a))
            return n if n is not None else self.constant(a)
        t = type(a)
        if t is list or t is tuple:
            return t(self.arg(x) for x in a)
        if t is dict:
            return {k: self.arg(v) for k, v in a.items()}
        if (t is not float and isinstance(a, float) or t is not int and isinstance(a, int)) and (
            hasattr(a, "node") and hasattr(a, "sym")
        ):
            return a.node  # an unbacked SymFloat / SymInt (capture_scalar_outputs): its node
        return a


#: True once an unbacked SymInt was made in this process: from then on each call checks that
#: none is used where a size (not a Scalar) is expected (its value is a placeholder).
_UNBACKED_INT: list[bool] = [False]


class ProxyTorchDispatchMode(TorchDispatchMode):
    """The tracing mode: one call_function node per aten call (see the module docstring)."""

    def __init__(
        self, tracking: _Tracking, decomposition_table: dict[Any, Callable[..., Any]] | None
    ) -> None:
        super().__init__()
        self.tracking = tracking
        self.decomposition_table = decomposition_table or {}
        self.enable_tracing = True

    def __torch_dispatch__(self, func: Any, types: Any, args: Any = (), kwargs: Any = None) -> Any:
        kwargs = kwargs or {}
        decomp = self.decomposition_table.get(func)
        if decomp is not None:
            with self:  # the decomposition's calls are traced in turn
                r = decomp(*args, **kwargs)
                if r is not NotImplemented:
                    return r
        tr = self.tracking
        if tr.lift is not None:
            args, kwargs = tr.lift(args, kwargs)
        if _UNBACKED_INT[0]:
            from ..._dynamo.unbacked import check_no_unbacked_size

            check_no_unbacked_size(func, args, kwargs)
        if func._name == _DATA_DEPENDENT and not tr.real:
            from ..._dynamo import config as dynamo_config

            if dynamo_config.capture_scalar_outputs:
                from ..._dynamo.unbacked import local_scalar_node

                v = local_scalar_node(tr, func, args)
                if isinstance(v, int):
                    _UNBACKED_INT[0] = True
                if v is not None:
                    return v
        if func._name == _DATA_DEPENDENT and tr.real:
            raise RuntimeError(
                f"It appears that you're trying to get value out of a tracing tensor with {func} - erroring out! "  # noqa: E501
                "It's likely that this is caused by data-dependent control flow or similar.  It may be possible to "  # noqa: E501
                "trace this with dynamic shapes; try setting tracing_mode='symbolic' in your make_fx call."  # noqa: E501
            )
        node_args = tr.arg(args)
        node_kwargs = {k: tr.arg(v) for k, v in kwargs.items()} if kwargs else {}
        out = func(*args, **kwargs)
        graph = tr.graph
        node = graph.create_node("call_function", func, node_args, node_kwargs, func._opname)
        if isinstance(out, Tensor):
            node.meta["val"] = tr.meta_val(out)
            tr.bind(out, node)
        elif isinstance(out, (tuple, list)):
            node.meta["val"] = type(out)(tr.meta_val(o) for o in out)
            import operator

            # Tuple outputs are read with getitem nodes made on use (as PyTorch's).
            for i, o in enumerate(out):
                if isinstance(o, Tensor):
                    g = graph.create_node(
                        "call_function", operator.getitem, (node, i), {}, "getitem"
                    )
                    g.meta["val"] = tr.meta_val(o)
                    tr.bind(o, g)
        else:
            node.meta["val"] = out
        return out


def _placeholder_names(f: Callable[..., Any], n: int) -> list[str]:
    code = getattr(inspect.unwrap(f), "__code__", None)
    if code is None:
        return [f"arg{i}" for i in range(n)]
    try:
        params = list(inspect.signature(f).parameters.values())
    except (TypeError, ValueError):
        return [f"arg{i}" for i in range(n)]
    if any(p.kind in (p.VAR_POSITIONAL, p.VAR_KEYWORD) for p in params) or len(params) != n:
        return [f"arg{i}" for i in range(n)]
    return [p.name for p in params]


def _fn_name(f: Any) -> str:
    name = getattr(f, "__name__", None) or type(f).__name__
    return name if name.isidentifier() else "GraphModule"


def dispatch_trace(
    f: Callable[..., Any],
    args: tuple[Any, ...],
    *,
    tracing_mode: str = "real",
    decomposition_table: dict[Any, Callable[..., Any]] | None = None,
    fake_mode: Any = None,
    placeholder_names: list[str] | None = None,
    flat_names: bool = False,
    pre_dispatch: bool = False,
    lift: Any = None,
) -> GraphModule:
    """Trace `f(*args)` (see make_fx). `flat_names`: name placeholders from `placeholder_names`
    one per flat input. `lift`: keyroute.compile's Lifter (see _Tracking.lift)."""
    from ...subclasses.fake_tensor import FakeTensor, FakeTensorMode

    if tracing_mode not in ("real", "fake", "symbolic"):
        raise AssertionError(f"Unexpected tracing type: {tracing_mode}")
    if tracing_mode == "symbolic":
        raise NotImplementedError(
            "make_fx: tracing_mode='symbolic' needs symbolic shapes, which keyroute does not have"
        )
    flat, spec = tree_flatten(list(args))
    if fake_mode is None:
        existing = next((a.fake_mode for a in flat if isinstance(a, FakeTensor)), None)
        fake_mode = existing or FakeTensorMode()
    real = tracing_mode == "real"
    graph = Graph()
    tr = _Tracking(graph, fake_mode, real)
    if lift is not None:
        tr.lift = lift
        lift.tracking = tr
    if tracing_mode == "fake":
        flat = [
            fake_mode.from_tensor(a)
            if isinstance(a, Tensor) and not isinstance(a, FakeTensor)
            else a
            for a in flat
        ]
    if placeholder_names is None:
        names = _placeholder_names(f, len(args))
        if len(flat) != len(args):
            names = [f"arg{i}" for i in range(len(flat))]
    else:
        names = placeholder_names
    for a, name in zip(flat, names):
        ph = graph.create_node("placeholder", f"{name}_1" if not flat_names else name)
        ph.meta["val"] = tr.meta_val(a)
        if isinstance(a, Tensor):
            tr.bind(a, ph)
    call_args = tree_unflatten(flat, spec)
    if pre_dispatch:
        # Record at the PreDispatch key (above autograd and the composite decompositions):
        # `aten.linear`, not `t` + `addmm` (Note [pre-dispatch]).
        _PRE_DISPATCH.append(tr)
        try:
            with contextlib.ExitStack() as stack:
                if tracing_mode == "fake":
                    stack.enter_context(fake_mode)
                stack.enter_context(IncludeDispatchKeyGuard(DispatchKey.PreDispatch))
                out = f(*call_args)
        finally:
            _PRE_DISPATCH.pop()
    else:
        mode = ProxyTorchDispatchMode(tr, decomposition_table)
        if tracing_mode == "fake":
            with fake_mode, mode:
                out = f(*call_args)
        else:
            with mode:
                out = f(*call_args)
    graph.output(tr.arg(out))
    root: dict[str, Any] = dict(tr.constants)
    return GraphModule(root, graph, _fn_name(f))


# Note [pre-dispatch]: make_fx(pre_dispatch=True) puts the PreDispatch key in the TLS include
# set; its fallback records each call and runs it below PreDispatch (the key excluded), so the
# calls the operator makes inside are not recorded. The tracing stack is per process, as the
# tracing itself runs on one thread.
_PRE_DISPATCH: list[_Tracking] = []


def _record(tr: _Tracking, func: Any, args: Any, kwargs: dict[str, Any], out: Any) -> None:
    node_args = tr.arg(args)
    node_kwargs = {k: tr.arg(v) for k, v in kwargs.items()} if kwargs else {}
    graph = tr.graph
    node = graph.create_node("call_function", func, node_args, node_kwargs, func._opname)
    if isinstance(out, Tensor):
        node.meta["val"] = tr.meta_val(out)
        tr.bind(out, node)
    elif isinstance(out, (tuple, list)):
        node.meta["val"] = type(out)(tr.meta_val(o) for o in out)
        for i, o in enumerate(out):
            if isinstance(o, Tensor):
                g = graph.create_node("call_function", operator.getitem, (node, i), {}, "getitem")
                g.meta["val"] = tr.meta_val(o)
                tr.bind(o, g)
    else:
        node.meta["val"] = out


def _pre_dispatch_fallback(keyset: Any, op: Any, *args: Any, **kwargs: Any) -> Any:
    with ExcludeDispatchKeyGuard(DispatchKey.PreDispatch):
        if not _PRE_DISPATCH:
            return op(*args, **kwargs)
        tr = _PRE_DISPATCH[-1]
        node_args = tr.arg(args)  # before the call: an in-place op rebinds its input
        out = op(*args, **kwargs)
        _record(tr, op, node_args, kwargs, out)
        return out


_pre_dispatch_lib = Library._internal("_", "IMPL")
_pre_dispatch_lib.fallback(_pre_dispatch_fallback, "PreDispatch", with_keyset=True)


def make_fx(
    f: Callable[..., Any],
    decomposition_table: dict[Any, Callable[..., Any]] | None = None,
    tracing_mode: str = "real",
    _allow_non_fake_inputs: bool = False,
    *,
    pre_dispatch: bool = False,
    record_module_stack: bool = False,
    _allow_fake_constant: bool = False,
    _error_on_data_dependent_ops: bool = True,
) -> Callable[..., GraphModule]:
    """`make_fx(f, ...)(*args)`: the GraphModule of the aten calls `f(*args)` makes."""

    def wrapped(*args: Any) -> GraphModule:
        return dispatch_trace(
            f,
            args,
            tracing_mode=tracing_mode,
            decomposition_table=decomposition_table,
            pre_dispatch=pre_dispatch,
        )

    return wrapped


def get_isolated_graphmodule(
    func: Callable[..., Any],
    args: tuple[Any, ...],
    kwargs: dict[str, Any],
    tracing_mode: str = "real",
) -> GraphModule:
    return make_fx(lambda *a: func(*a, **kwargs), tracing_mode=tracing_mode)(*args)


from ..._higher_order_ops import _proxy_impls  # noqa: E402, F401  (the HOPs' make_fx kernels)
