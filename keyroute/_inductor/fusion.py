"""Fusion groups for the numba path: which nodes of a functional graph become one loop nest.

A group is a set of pointwise nodes and last-dimension reductions over one iteration domain
S = (R..., N), run as `for r in rows: for j in range(N)` (Inductor's persistent reduction on a
CPU, in spirit). Every value of a group lives at one of two levels:

- *full*: one value per (r, j), shape S (x, x * x, rsqrt(...) * x * w);
- *row*: one value per row r, shape S[:-1] + (1,) (a keepdim reduction and what is computed
  from reductions alone: mean, mean + eps, rsqrt(mean + eps)).

An input from outside the group is full (shape S), row, col (shape (N,) broadcast: a weight) or
scalar (one element). A full node that reads a row value derived from a reduction must wait
for that reduction's loop: the group runs in passes over j, each pass recomputing the full
values it needs from the inputs (RMSNorm: a pass for the mean of squares, a pass for the
scaled output). Buffers are written only for the group's outputs (values read outside it).

Note [fusion legality]: a group runs as one unit, at its place in a topological order of the
graph with groups contracted; a node joins a group only if none of its other inputs depends on
a member (that would make the contracted graph cyclic).
"""

from __future__ import annotations

import operator
from dataclasses import dataclass, field
from typing import Any

from ..fx.node import Node
from ..tensor._tensor import Tensor

#: Pointwise aten ops the numba path writes as scalar expressions. exp/log/tanh/sigmoid are
#: left out on purpose: PyPI's llvmlite has no SVML, so their numba loops are scalar and slower
#: than NumPy's vectorized ufuncs (the issue's rule: send such groups to the NumPy path).
POINTWISE = {
    "add", "sub", "mul", "div", "neg", "rsqrt", "sqrt", "reciprocal", "square", "pow", "relu",
    "maximum", "minimum", "abs", "clamp", "clamp_min", "clamp_max", "threshold_backward",
    "where", "expand", "detach", "alias", "clone",
}  # fmt: skip
REDUCTIONS = {"sum", "mean", "amax", "amin"}
#: Members that only move or alias values.
_MOVES = {"expand", "detach", "alias", "clone"}
FLOATS = ("float32", "float64")


@dataclass
class Group:
    members: list[Node] = field(default_factory=list)
    shape: tuple[int, ...] = ()
    mask: int = 0
    level: dict[Node, str] = field(default_factory=dict)
    #: External tensor inputs, in first-use order, with their kind (full / row / col / scalar).
    inputs: list[tuple[Node, str]] = field(default_factory=list)
    outputs: list[Node] = field(default_factory=list)

    def has_reduction(self) -> bool:
        return any(_opname(m) in REDUCTIONS for m in self.members)


def _opname(n: Node) -> str:
    return getattr(n.target, "_opname", "") or ""


def _meta(n: Any) -> Any:
    return n.meta.get("val") if isinstance(n, Node) else None


def _shape(n: Any) -> tuple[int, ...] | None:
    v = _meta(n)
    return tuple(v.shape) if isinstance(v, Tensor) else None


def row_shape(s: tuple[int, ...]) -> tuple[int, ...]:
    return s[:-1] + (1,)


def input_kind(shape: tuple[int, ...], s: tuple[int, ...]) -> str | None:
    """How a tensor of `shape` broadcasts into domain `s`, or None when the loop cannot read it."""
    if len(shape) > len(s):
        return None
    p = (1,) * (len(s) - len(shape)) + tuple(shape)
    if p == s:
        return "full"
    if all(d == 1 for d in p):
        return "scalar"
    if p == row_shape(s):
        return "row"
    if p[-1] == s[-1] and all(d == 1 for d in p[:-1]):
        return "col"
    return None


def _reduced_last_dim(n: Node) -> bool:
    """A sum/mean/amax/amin over exactly the input's last dimension (no dtype change)."""
    src = n.args[0] if n.args else None
    s = _shape(src)
    if not s:
        return False
    dim = n.args[1] if len(n.args) > 1 else n.kwargs.get("dim")
    if dim is None or dim == []:
        dims = list(range(len(s)))
    else:
        dims = list(dim) if isinstance(dim, (list, tuple)) else [dim]
    if [d % len(s) for d in dims] != [len(s) - 1]:
        return False
    if n.kwargs.get("dtype") is not None or len(n.args) > 3:
        return False
    return True


def _keepdim(n: Node) -> bool:
    return bool(n.args[2] if len(n.args) > 2 else n.kwargs.get("keepdim", False))


def fusible(n: Node, excluded: set[Node]) -> bool:
    if n.op != "call_function" or n in excluded or n.target is operator.getitem:
        return False
    if getattr(n.target, "namespace", "aten") != "aten":
        return False
    name = _opname(n)
    v = _meta(n)
    if not isinstance(v, Tensor) or v.dtype.name not in FLOATS or not v.shape:
        return False
    for a in n.all_input_nodes:
        av = _meta(a)
        if not isinstance(av, Tensor):
            return False
        if av.dtype != v.dtype and not (name == "where" and a is n.args[0]):
            return False
    if name in REDUCTIONS:
        return _reduced_last_dim(n)
    if name not in POINTWISE:
        return False
    if name == "div" and n.kwargs.get("rounding_mode") is not None:
        return False
    if name == "pow" and not isinstance(n.args[1], (int, float)):
        return False
    if name == "clone" and n.kwargs.get("memory_format") not in (None,):
        return False
    return True


def _domain(n: Node) -> tuple[int, ...]:
    if _opname(n) in REDUCTIONS:
        return _shape(n.args[0]) or ()
    return _shape(n) or ()


def find_groups(nodes: list[Node], excluded: set[Node]) -> list[Group]:
    """Greedy, in graph order: a fusible node joins its fusible producers' groups when the
    domains agree and the join is legal (Note [fusion legality])."""
    index = {n: i for i, n in enumerate(nodes)}
    anc: dict[Node, int] = {}
    for n in nodes:
        m = 0
        for a in n.all_input_nodes:
            m |= anc.get(a, 0) | (1 << index[a])
        anc[n] = m
    group_of: dict[Node, Group] = {}
    groups: list[Group] = []
    for n in nodes:
        if not fusible(n, excluded):
            continue
        d = _domain(n)
        is_red = _opname(n) in REDUCTIONS
        cands: list[Group] = []
        for a in n.all_input_nodes:
            g = group_of.get(a)
            if g is None or g in cands:
                continue
            if _opname(a) in REDUCTIONS and not _keepdim(a):
                continue  # a (R,) result broadcasts along N, not along rows
            cands.append(g)
        joined: Group | None = None
        for g in cands:
            s = g.shape
            if d == s or (not is_red and d == row_shape(s)):
                target = s
            elif not g.has_reduction() and s == row_shape(d):
                target = d  # a row-only group grows into the full domain
            else:
                continue
            if joined is not None and target != joined.shape:
                if joined.has_reduction() or joined.shape != row_shape(target):
                    continue
            members = (joined.members if joined else []) + g.members
            mask = g.mask | (1 << index[n]) | (joined.mask if joined else 0)
            if not _legal(n, mask, anc, index, members):
                continue
            if joined is None:
                g.members.append(n)
                g.shape, g.mask = target, mask
                joined = g
            else:
                joined.members.extend(g.members)
                joined.shape, joined.mask = target, mask
                for m in g.members:
                    group_of[m] = joined
                groups.remove(g)
        if joined is None:
            if is_red and not d:
                continue
            joined = Group([n], d, 1 << index[n])
            groups.append(joined)
        group_of[n] = joined
    out = []
    for g in groups:
        g.members.sort(key=index.__getitem__)
        if _finish(g, index):
            out.append(g)
    return out


def _legal(
    n: Node, mask: int, anc: dict[Node, int], index: dict[Node, int], members: list[Node]
) -> bool:
    for m in [*members, n]:
        for a in m.all_input_nodes:
            if not (mask >> index[a]) & 1 and anc[a] & mask:
                return False
    return True


def _finish(g: Group, index: dict[Node, int]) -> bool:
    """Levels, external inputs and outputs of `g`; False when the group is not worth a loop
    nest or a value does not fit its level."""
    s = g.shape
    if len(g.members) < 2 or not s or s[-1] == 1 or 0 in s:
        return False
    if sum(_opname(m) not in _MOVES for m in g.members) < 2:
        # One computing op (relu and the detach autograd saves): NumPy's ufunc, and the
        # detach a view, cost less than a loop writing a copy.
        return False
    inside = set(g.members)
    for m in g.members:
        name = _opname(m)
        if name in REDUCTIONS:
            g.level[m] = "row"
            src = m.args[0]
            if src in inside:
                if g.level[src] != "full":
                    return False
            elif input_kind(_shape(src) or (), s) != "full":
                return False
            continue
        shape = _shape(m)
        g.level[m] = "full" if shape == s else "row"
        for a in m.all_input_nodes:
            if a in inside:
                if g.level[a] == "full" and g.level[m] == "row":
                    return False
                continue
            kind = input_kind(_shape(a) or (), s)
            if kind is None or (g.level[m] == "row" and kind in ("full", "col")):
                return False
    if not any(lv == "full" for lv in g.level.values()):
        return False
    seen: set[Node] = set()
    for m in g.members:
        for a in m.all_input_nodes:
            if a not in inside and a not in seen:
                seen.add(a)
                g.inputs.append((a, input_kind(_shape(a) or (), s) or "full"))
        if any(u not in inside for u in m.users):
            shape = _shape(m)
            ok = shape == s if g.level[m] == "full" else shape in (row_shape(s), s[:-1])
            if not ok:
                return False
            g.outputs.append(m)
    return bool(g.outputs)


def emission_order(nodes: list[Node], groups: list[Group]) -> list[Any]:
    """The graph's nodes with each group contracted to one item, topologically ordered (a
    group sits where its last input is ready); non-group nodes keep their relative order."""
    group_of = {m: g for g in groups for m in g.members}
    items: list[Any] = []
    placed: set[int] = set()
    done: set[Node] = set()

    def ready(item: Any) -> bool:
        ins = (
            [
                a
                for m in item.members
                for a in m.all_input_nodes
                if a not in group_of or group_of[a] is not item
            ]
            if isinstance(item, Group)
            else item.all_input_nodes
        )
        return all(a in done for a in ins)

    pending: list[Any] = []
    for n in nodes:
        g = group_of.get(n)
        item = g if g is not None else n
        if id(item) in placed:
            continue
        placed.add(id(item))
        pending.append(item)
    # Repeatedly emit the first ready item (graphs are small; groups are few).
    while pending:
        i = next((i for i, item in enumerate(pending) if ready(item)), -1)
        if i < 0:  # pragma: no cover - find_groups keeps the contracted graph acyclic
            raise RuntimeError("inductor fusion: cyclic group order")
        item = pending[i]
        pending.pop(i)
        items.append(item)
        if isinstance(item, Group):
            done.update(item.members)
        else:
            done.add(item)
    return items
