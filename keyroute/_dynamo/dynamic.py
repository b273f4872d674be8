"""Dynamic variants (PyTorch's automatic dynamic shapes): which sizes become symbols, the
Sym placeholders of the graph, the guard that a call matches, and the one-time check at other
sizes (symbolic_shapes.py, Note [hint matching]).

A function whose tensor sizes changed between two calls (or compiled with `dynamic=True`) is
traced once more with those sizes symbolic; the variant then serves every size its guards
allow (sizes >= 2, equal where the symbols are shared, every comparison the trace made), so a
third size costs no compile. The first call with a new size is matched by `DynamicPlan.match`;
later calls with that size hit the guard dict directly.
"""

from __future__ import annotations

from typing import Any

from numpy import ndarray

from ..tensor._tensor import Tensor
from .guards import leaf_key
from .symbolic_shapes import ShapeEnv, SymInt, symbol_id

#: Exact keys a dynamic variant keeps in the guard dict (a loop over many sizes stays bounded).
EXACT_KEYS_LIMIT = 256


class DynamicPlan:
    """The symbols of one dynamic variant, per flat tensor input (module tensors first)."""

    def __init__(self) -> None:
        self.env = ShapeEnv()
        #: per flat tensor input: its shape with SymInts, or None when it is static.
        self.shapes: list[tuple[Any, ...] | None] = []
        #: (placeholder name, tensor index, dim) in the order their Sym placeholders come.
        self.order: list[tuple[str, int, int]] = []
        #: placeholder name -> the symbol it holds (Note [duck sizing]: they may differ).
        self.ph_expr: dict[str, str] = {}
        self.leaf_keys: list[Any] = []
        self.rest: Any = None
        self.check: Any = None

    # -- the graph's inputs ----------------------------------------------------------------
    def runner(self, run: Any, n_tensors: int) -> Any:
        """`run` takes the graph's inputs (Sym placeholders included); the result takes the
        flat tensors, as a static variant's runner, and reads the sizes from them."""
        placed: list[str] = []
        before: dict[int, list[str]] = {}
        for _name, ti, d in self.order:
            before.setdefault(ti, []).append(f"t{ti}._data.shape[{d}]")
        for i in range(n_tensors):
            placed.extend(before.get(i, []))
            placed.append(f"t{i}")
        params = ", ".join(f"t{i}" for i in range(n_tensors))
        src = f"lambda {params}: run({', '.join(placed)})"
        return eval(src, {"run": run})  # noqa: S307 - generated from our own names

    def graph_inputs(self, tensors: list[Tensor]) -> list[Any]:
        """The example inputs a backend gets: the Sym values (SymInts) before their tensors."""
        out: list[Any] = []
        for i, t in enumerate(tensors):
            for name, ti, _d in self.order:
                if ti == i:
                    expr = self.ph_expr.get(name, name)
                    out.append(SymInt(self.env.hints[expr], expr))
            out.append(t)
        return out

    # -- the guard ----------------------------------------------------------------------------
    def match(self, leaves: list[Any], rest: Any, n_mod: int) -> bool:
        """Whether a call's flat leaves (and grad mode, module and globals state) fit."""
        if rest != self.rest or len(leaves) != len(self.leaf_keys):
            return False
        sizes: dict[str, int] = {}
        ti = n_mod
        for a, want in zip(leaves, self.leaf_keys):
            if not isinstance(a, Tensor):
                if leaf_key(a) != want:
                    return False
                continue
            sym = self.shapes[ti]
            ti += 1
            if sym is None:
                if leaf_key(a) != want:
                    return False
                continue
            d = a._data
            if type(d) is not ndarray or not d.flags.c_contiguous:
                return False
            if a._dtype is not want[2] or a._key_set != want[3] or d.ndim != len(sym):
                return False
            for s, v in zip(sym, d.shape):
                if isinstance(s, SymInt):
                    if sizes.setdefault(s.expr, v) != v:
                        return False
                elif s != v:
                    return False
        return bool(self.check(**sizes))


def plan(
    tensors: list[Tensor],
    leaves: list[Any],
    leaf_dims: dict[int, set[int]],
    sources: list[str],
    n_mod: int,
    rest: Any,
    duck: bool = False,
) -> DynamicPlan | None:
    """The symbols for the dims `leaf_dims` names (leaf index -> dims), or None when no dim
    can be dynamic (sizes 0 and 1 stay static, as PyTorch specializes them).

    Note [duck sizing]: with `duck` (dynamic=True: PyTorch's DimDynamic.DUCK) a size equal to
    one already seen reuses that size's symbol, named after its first source. Automatic
    dynamic shapes (DimDynamic.DYNAMIC) give every source its own symbol; PyTorch then unifies
    the sizes a broadcast makes equal, keeping the lexicographically lowest name, while the
    Sym placeholder keeps the first source's name ("s77: Sym(s17)"). keyroute takes tensors of
    the same shape and dims for that broadcast (the case an elementwise op makes)."""
    p = DynamicPlan()
    p.rest = rest
    p.shapes = [None] * len(tensors)
    groups: dict[Any, list[tuple[int, int, str]]] = {}  # key -> [(tensor index, dim, name)]
    keys: dict[int, Any] = {}  # tensor index -> (its group key or None per dim)
    ti = n_mod
    for li, a in enumerate(leaves):
        p.leaf_keys.append(leaf_key(a))
        if not isinstance(a, Tensor):
            continue
        dims = {d for d in leaf_dims.get(li, ()) if a._data.shape[d] >= 2}
        d = a._data
        if dims and type(d) is ndarray and d.flags.c_contiguous:
            per = []
            for j, v in enumerate(d.shape):
                if j not in dims:
                    per.append(None)
                    continue
                k = ("v", v) if duck else (tuple(d.shape), frozenset(dims), j)
                members = groups.setdefault(k, [])
                if not duck or not members:
                    # each source takes its symbol number (PyTorch's _generate_unique_id)
                    name = f"s{symbol_id(f'{sources[li]}.size()[{j}]', p.env.taken)}"
                    members.append((ti, j, name))
                per.append(k)
            keys[ti] = (tuple(d.shape), per)
        ti += 1
    if not keys:
        return None
    syms: dict[Any, SymInt] = {}
    for k, members in groups.items():
        expr = min(m[2] for m in members)  # sympy's order of the names: the lowest stays
        hint = k[1] if duck else k[0][k[2]]
        p.env.hints[expr] = hint
        syms[k] = SymInt(hint, expr)
        first = members[0]
        p.order.append((first[2], first[0], first[1]))
        p.ph_expr[first[2]] = expr
    p.order.sort(key=lambda e: (e[1], e[2]))
    for ti, (shape, per) in keys.items():
        p.shapes[ti] = tuple(s if k is None else syms[k] for s, k in zip(shape, per))
    return p


def expected_shape(shape: tuple[Any, ...], sizes: dict[str, int]) -> tuple[int, ...]:
    return tuple(
        eval(s.expr, {}, sizes) if isinstance(s, SymInt) else int(s)  # noqa: S307
        for s in shape
    )


def other_sizes(p: DynamicPlan) -> dict[str, int] | None:
    """Sizes other than the traced ones that satisfy the variant's guards (for the check)."""
    names = sorted(p.env.hints)
    for k in (1, 3, 7, 2, 5):
        sizes = {n: p.env.hints[n] + k * (i + 1) for i, n in enumerate(names)}
        if len(set(sizes.values())) == len(sizes) and p.check(**sizes):
            return sizes
    return None
