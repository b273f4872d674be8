"""Functionalized training graphs: input mutations in AOT Autograd's joint graph become
functional ops whose results are the forward graph's leading outputs, copied back into the
inputs by the runtime (the epilogue), as PyTorch's AOT training graphs show:

    buf.add_(1)        ->   add = aten.add.Tensor(primals_3, 1)   ...   return (add, out, ...)
                            runtime: primals_3.copy_(add)

Every later read of the mutated input reads the new value (the functional node), so the
graph is pure and a graph compiler (inductor) may reorder or fuse it.

Scope (Note [mutation scope]): mutations written straight into a graph input that does not
require grad (buffers, running statistics, KV caches, outputs written by copy_/index_copy_).
A graph that writes a view of an input, or an input that requires grad, keeps its in-place
nodes (unchanged behaviour: they mutate the input when the graph runs), as does a mutating op
with no functional variant.
"""

from __future__ import annotations

from typing import Any

from ..fx.graph_module import GraphModule
from ..fx.node import Node, map_arg
from ..tensor._tensor import Tensor


def _mutated_arg(n: Node) -> int | None:
    """The position of the argument `n` writes (a `Tensor(a!)` self), or None if pure."""
    schema = getattr(n.target, "_schema", None)
    if n.op != "call_function" or schema is None or not schema.is_mutable:
        return None
    written = [
        i
        for i, a in enumerate(schema.arguments)
        if not a.kwarg_only and getattr(a, "alias_info", None) is not None and a.alias_info.is_write
    ]
    return written[0] if len(written) == 1 and written[0] == 0 else -1


def functionalize_input_mutations(joint: GraphModule, n_out: int) -> tuple[list[int], int]:
    """Rewrite `joint` in place (Note [mutation scope]); returns (indices of the mutated
    primals, in input order; the new number of forward outputs: mutated values first)."""
    from ..layers.functionalize import _functional_variant

    g = joint.graph
    nodes = list(g.nodes)
    primals = [n for n in nodes if n.op == "placeholder" and n.name.startswith("primals")]
    plan: list[tuple[Node, Any]] = []
    for n in nodes:
        pos = _mutated_arg(n)
        if pos is None:
            continue
        target = n.args[0] if n.args else None
        val = target.meta.get("val") if isinstance(target, Node) else None
        if pos != 0 or not isinstance(target, Node) or not isinstance(val, Tensor):
            return [], n_out  # an out= write or an unknown schema: keep the graph as it is
        base, through_view = _base_placeholder(target)
        if base is None:
            continue  # a temporary written in place: pure from the outside
        fn = _functional_variant(n.target)
        if through_view or val.requires_grad or fn is None or base not in primals:
            return [], n_out
        plan.append((n, fn))
    if not plan:
        return [], n_out
    current: dict[Node, Node] = {}
    rewrite = {n: fn for n, fn in plan}
    for n in nodes:
        if n.op == "placeholder":
            continue
        if n.op == "output":
            break
        n.args = map_arg(n.args, lambda a: current.get(a, a))
        n.kwargs = map_arg(n.kwargs, lambda a: current.get(a, a))
        fn = rewrite.get(n)
        if fn is None:
            continue
        src = n.args[0]
        base = src if src.op == "placeholder" else _placeholder_of(src, current)
        with g.inserting_before(n):
            new = g.create_node("call_function", fn, n.args, dict(n.kwargs), _name(fn))
        new.meta = dict(n.meta)
        n.replace_all_uses_with(new)
        g.erase_node(n)
        current[base] = new
    out = nodes[-1]
    outs = list(out.args[0])
    mutated = [i for i, p in enumerate(primals) if p in current]
    fw_outs = [current.get(o, o) if isinstance(o, Node) else o for o in outs[:n_out]]
    new_outs = [current[primals[i]] for i in mutated] + fw_outs + outs[n_out:]
    out.args = (tuple(new_outs),)
    joint.recompile()
    return mutated, n_out + len(mutated)


def _name(fn: Any) -> str:
    return getattr(fn, "_opname", "mutated")


def _base_placeholder(n: Node) -> tuple[Node | None, bool]:
    """(the graph input `n` aliases, whether through a view), following view ops and the
    results of in-place ops (which are their `self`); (None, False) for a temporary."""
    through_view = False
    for _ in range(256):
        if n.op == "placeholder":
            return n, through_view
        name = getattr(n.target, "_opname", "")
        if not n.args or not isinstance(n.args[0], Node):
            return None, False
        if name in _VIEW_OPS:
            through_view = True
        elif _mutated_arg(n) != 0:
            return None, False
        n = n.args[0]
    return None, False


def _placeholder_of(n: Node, current: dict[Node, Node]) -> Node:
    for p, v in current.items():
        if v is n:
            return p
    return n


_VIEW_OPS = {
    "view", "_unsafe_view", "reshape", "t", "transpose", "permute", "expand", "unsqueeze",
    "squeeze", "slice", "select", "alias", "as_strided", "diagonal", "narrow", "unfold",
}  # fmt: skip
