"""The make_fx kernels of the higher-order operators (their `py_impl(ProxyTorchDispatchMode)`):
one node for the call, whose operands are the argument nodes and whose subgraphs (cond's
branches) are traced into GraphModules held by the root as get_attr targets."""

from __future__ import annotations

import operator
from typing import Any

from ..fx.experimental.proxy_tensor import ProxyTorchDispatchMode, dispatch_trace
from ..tensor._tensor import Tensor
from .auto_functionalize import auto_functionalized, auto_functionalized_v2
from .cond import _cond_dense, cond_op


def _bind_outputs(mode: ProxyTorchDispatchMode, node: Any, flat: list[Any]) -> None:
    tr = mode.tracking
    node.meta["val"] = tuple(tr.meta_val(o) for o in flat)
    for i, o in enumerate(flat):
        g = tr.graph.create_node("call_function", operator.getitem, (node, i), {}, "getitem")
        g.meta["val"] = tr.meta_val(o)
        if isinstance(o, Tensor):
            tr.bind(o, g)


def _subgraph(
    mode: ProxyTorchDispatchMode, prefix: str, fn: Any, operands: tuple[Any, ...]
) -> tuple[Any, Any]:
    tr = mode.tracking
    i = 0
    while f"{prefix}_{i}" in tr.constants:
        i += 1
    name = f"{prefix}_{i}"
    tracing = "real" if tr.real else "fake"
    gm = dispatch_trace(
        fn,
        operands,
        tracing_mode=tracing,
        fake_mode=tr.fake_mode,
        placeholder_names=[f"arg{j}" for j in range(len(operands))],
    )
    tr.constants[name] = gm
    node = tr.graph.create_node("get_attr", name)
    return gm, node


@cond_op.py_impl(ProxyTorchDispatchMode)
def _cond_proxy(
    mode: ProxyTorchDispatchMode, pred: Any, true_fn: Any, false_fn: Any, operands: tuple[Any, ...]
) -> Any:
    tr = mode.tracking
    true_gm, true_node = _subgraph(mode, "true_graph", true_fn, operands)
    false_gm, false_node = _subgraph(mode, "false_graph", false_fn, operands)
    if tr.real:
        out = _cond_dense(pred, true_fn, false_fn, operands)
    else:
        out = true_gm.graph.find_nodes(op="output")[0].args[0]
        from ..fx.node import map_arg

        out = map_arg(out, lambda n: n.meta["val"])
    flat = list(out)
    node = tr.graph.create_node(
        "call_function",
        cond_op,
        (tr.arg(pred), true_node, false_node, tr.arg(tuple(operands))),
        {},
        "cond",
    )
    _bind_outputs(mode, node, flat)
    return tuple(flat)


def _generic_proxy(hop: Any) -> None:
    @hop.py_impl(ProxyTorchDispatchMode)
    def _impl(mode: ProxyTorchDispatchMode, *args: Any, **kwargs: Any) -> Any:
        tr = mode.tracking
        node_args = tr.arg(args)
        node_kwargs = {k: tr.arg(v) for k, v in kwargs.items()}
        out = hop(*args, **kwargs)  # the mode is popped: the eager kernel, on fakes below
        node = tr.graph.create_node("call_function", hop, node_args, node_kwargs, hop.__name__)
        _bind_outputs(mode, node, list(out))
        return out


_generic_proxy(auto_functionalized)
_generic_proxy(auto_functionalized_v2)
