"""Partitioners of AOT Autograd's joint graph (torch._functorch.partitioners).

`default_partition` (aot_autograd.py) saves every forward value the backward reads.
`min_cut_rematerialization_partition` saves fewer bytes: cheap forward ops (pointwise, views)
may be recomputed in the backward from values that are saved instead, and the choice of what
to save is a minimum cut, as PyTorch's: each forward value is an edge of capacity its size in
bytes between its "in" and "out" halves; inputs hang off the source; every forward value the
backward reads feeds the sink; a value that must not be recomputed (matmuls, reductions,
random ops, anything not known cheap) is tied to the source, so the cut can only save it.
The cut edges are the saved values; the forward values on the sink side that the backward
needs are recomputed there.
"""

from __future__ import annotations

from collections import deque
from typing import Any

from ..fx.graph import Graph
from ..fx.graph_module import GraphModule
from ..fx.node import Node, map_arg
from ..tensor._tensor import Tensor

__all__ = ["min_cut_rematerialization_partition", "default_partition"]

_INF = float("inf")

# Cheap to recompute: pointwise ops and views (PyTorch's default recomputable set is the same
# in spirit: not compute-intensive, not random, not a reduction).
_RECOMPUTABLE = {
    "add", "sub", "mul", "div", "neg", "exp", "log", "sin", "cos", "tanh", "sigmoid", "relu",
    "silu", "gelu", "rsqrt", "sqrt", "pow", "abs", "sign", "clamp", "clamp_min", "clamp_max",
    "where", "eq", "ne", "lt", "le", "gt", "ge", "maximum", "minimum", "reciprocal", "square",
    "logical_not", "masked_fill", "threshold_backward", "_to_copy", "detach", "alias",
    "view", "_unsafe_view", "reshape", "t", "transpose", "permute", "expand", "unsqueeze",
    "squeeze", "slice", "select", "clone", "fill", "zeros_like", "ones_like", "full_like",
    "scalar_tensor", "sgn",
}  # fmt: skip


def default_partition(joint: GraphModule, n_fw_out: int) -> tuple[GraphModule, GraphModule, int]:
    from .aot_autograd import default_partition as dp

    return dp(joint, n_fw_out)


def _bytes(n: Node) -> float:
    v = n.meta.get("val")
    if isinstance(v, Tensor):
        return float(v.numel() * v.dtype.itemsize) or 1.0
    if isinstance(v, (tuple, list)):
        return 1e12  # a tuple value is read through getitem; never the one saved
    return 1.0


def _recomputable(n: Node) -> bool:
    if n.op != "call_function":
        return False
    import operator

    if n.target is operator.getitem:
        return True
    return getattr(n.target, "_opname", None) in _RECOMPUTABLE


def _max_flow_source_side(edges: dict[Any, dict[Any, float]], s: Any, t: Any) -> set[Any]:
    """Edmonds-Karp; the set of vertices reachable from `s` in the final residual graph."""
    res: dict[Any, dict[Any, float]] = {}
    for u, vs in edges.items():
        for v, c in vs.items():
            res.setdefault(u, {})[v] = res.get(u, {}).get(v, 0.0) + c
            res.setdefault(v, {}).setdefault(u, 0.0)
    while True:
        parent = {s: None}
        q = deque([s])
        while q and t not in parent:
            u = q.popleft()
            for v, c in res.get(u, {}).items():
                if c > 0 and v not in parent:
                    parent[v] = u
                    q.append(v)
        if t not in parent:
            return set(parent)
        f = _INF
        v = t
        while parent[v] is not None:
            u = parent[v]
            f = min(f, res[u][v])
            v = u
        if f == _INF:  # an uncuttable path: nothing to save would do; keep everything
            return set(res)
        v = t
        while parent[v] is not None:
            u = parent[v]
            res[u][v] -= f
            res[v][u] += f
            v = u


def min_cut_rematerialization_partition(
    joint: GraphModule, n_fw_out: int, **kwargs: Any
) -> tuple[GraphModule, GraphModule, int]:
    """Split the joint graph saving a minimum cut of bytes (see the module docstring):
    (forward, backward, number of saved values)."""
    g = joint.graph
    nodes = list(g.nodes)
    out_node = nodes[-1]
    outs = list(out_node.args[0])
    fw_outs, grads = outs[:n_fw_out], outs[n_fw_out:]
    placeholders = [n for n in nodes if n.op == "placeholder"]
    primals = [p for p in placeholders if p.name.startswith("primals")]
    tangents = [p for p in placeholders if p.name.startswith("tangents")]
    fw = {
        n for n in nodes if n.meta.get("partitioner_tag") == "is_forward" and n.op != "placeholder"
    }  # noqa: E501
    fw |= set(primals)
    bw = [n for n in nodes if n not in fw and n.op not in ("placeholder", "output")]
    needed = []  # forward values the backward reads
    for n in bw:
        for i in n.all_input_nodes:
            if i in fw and i not in needed and i.op != "get_attr":
                needed.append(i)
    # The flow network over forward values.
    edges: dict[Any, dict[Any, float]] = {}

    def edge(u: Any, v: Any, c: float) -> None:
        edges.setdefault(u, {})[v] = edges.get(u, {}).get(v, 0.0) + c

    for n in fw:
        if n.op == "get_attr":
            continue
        edge((n, "in"), (n, "out"), _bytes(n))
        if n.op == "placeholder" or not _recomputable(n):
            edge("source", (n, "in"), _INF)
        for i in n.all_input_nodes:
            if i in fw and i.op != "get_attr":
                edge((i, "out"), (n, "in"), _INF)
    for n in needed:
        edge((n, "out"), "sink", _INF)
    reach = _max_flow_source_side(edges, "source", "sink")
    saved = [n for n in nodes if n in fw and (n, "in") in reach and (n, "out") not in reach]
    saved = [n for n in saved if n.op != "get_attr"]
    # Forward values the backward recomputes: ancestors of the needed values, up to saved ones.
    saved_set = set(saved)
    recompute: set[Node] = set()
    stack = [n for n in needed if n not in saved_set]
    while stack:
        n = stack.pop()
        if n in recompute or n in saved_set or n.op in ("placeholder", "get_attr"):
            continue
        recompute.add(n)
        stack.extend(n.all_input_nodes)
    # Primals the recomputation reads are saved too (as PyTorch's graphs save them).
    for n in list(recompute):
        for i in n.all_input_nodes:
            if i.op == "placeholder" and i not in saved_set:
                saved_set.add(i)
                saved.append(i)
    order = {n: k for k, n in enumerate(nodes)}
    saved.sort(key=order.__getitem__)
    fwg = Graph()
    env: dict[Node, Node] = {}
    for n in nodes:
        if n in fw:
            env[n] = fwg.node_copy(n, lambda x: env[x])
    fwg.output(tuple(map_arg(list(fw_outs), lambda x: env[x])) + tuple(env[s] for s in saved))
    bwg = Graph()
    benv: dict[Node, Node] = {}
    for s in saved:
        ph = bwg.create_node("placeholder", s.name, name=s.name)
        ph.meta = dict(s.meta)
        benv[s] = ph
    for t in tangents:
        benv[t] = bwg.node_copy(t)
    for n in nodes:
        if n in recompute or (n in bw):
            benv[n] = bwg.node_copy(n, lambda x: benv[x] if x in benv else _const(bwg, x, benv))
    bwg.output(tuple(map_arg(list(grads), lambda x: benv[x])))
    root = {k: getattr(joint, k) for k in dir(joint) if k.startswith("_tensor_constant")}
    fw_gm = GraphModule(root, fwg, "GraphModule")
    bw_gm = GraphModule(root, bwg, "GraphModule")
    bw_gm.graph.eliminate_dead_code()
    bw_gm.recompile()
    return fw_gm, bw_gm, len(saved)


def _const(g: Graph, x: Node, env: dict[Node, Node]) -> Node:
    if x.op != "get_attr":
        raise RuntimeError(f"min-cut partition: {x} is neither saved nor recomputed")
    env[x] = g.node_copy(x)
    return env[x]
