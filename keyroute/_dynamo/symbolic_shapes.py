"""Symbolic sizes for keyroute.compile's dynamic shapes (torch.fx.experimental.symbolic_shapes).

A dynamic variant is traced once, on fake tensors whose dynamic sizes are `SymInt`s: ints with
the traced size as their value (PyTorch's "hint") and a symbol or expression as their name
("s77", "2*s77"). The user's code sees them (`x.shape[0]`), so arithmetic on sizes stays
symbolic and every comparison it makes is recorded as a guard (`s77 > 10` evaluated False).
Meta kernels compute their results' sizes on plain ints, so after the trace `symbolize_graph`
gives every node's fake value symbolic sizes again and rewrites the size lists a node takes
(view, expand, ...) by the hint each symbol has (Note [hint matching]). The generated code
then reads the sizes at run time (`s77 = L_x_.shape[0]` in Inductor's kernel).

Note [hint matching]: a size equal to a symbol's hint (or a multiple of it) is taken to be that
symbol (or that multiple). It can be wrong where a static size happens to equal a hint, so each
dynamic variant is checked once at other sizes (eval_frame: `_verify`), and a variant that
fails the check is dropped for static variants, one per size, which are always right.

Symbols are named as PyTorch 2.13 names them: `s` and the SHA-256 of the size's source name
("L['x'].size()[0]") modulo 100, the next free number on a collision. Sizes 0 and 1 are never
symbolic (PyTorch's 0/1 specialization); tensors of equal shape share their symbols (duck
sizing).
"""

from __future__ import annotations

import hashlib
import operator
import sys
from typing import Any

__all__ = ["SymInt", "ShapeEnv", "symbolize_graph", "is_symbolic"]

#: The ShapeEnv recording guards while a dynamic variant is traced (None otherwise).
_ACTIVE: list[Any] = [None]


def _paren(e: str) -> str:
    return e if e.isidentifier() or e.lstrip("-").isdigit() else f"({e})"


class SymInt(int):
    """An int that also has a symbolic name (Note [hint matching]); `int(s)` is its hint."""

    _kr_symint = True
    expr: str

    def __new__(cls, hint: int, expr: str) -> SymInt:
        o = int.__new__(cls, hint)
        o.expr = expr
        return o

    def __repr__(self) -> str:
        return self.expr

    __str__ = __repr__
    __hash__ = int.__hash__

    def __reduce__(self) -> Any:
        return (int, (int(self),))

    # -- arithmetic keeps the expression -----------------------------------------------------
    def _bin(self, other: Any, op: Any, fmt: str, rev: bool = False) -> Any:
        if not isinstance(other, int) or isinstance(other, bool):
            return op(other, int(self)) if rev else op(int(self), other)
        a, b = (other, self) if rev else (self, other)
        value = op(int(a), int(b))
        ea, eb = _paren(_expr(a)), _paren(_expr(b))
        return SymInt(value, fmt.format(ea, eb))

    def __add__(self, o: Any) -> Any:
        return self._bin(o, operator.add, "{} + {}")

    def __radd__(self, o: Any) -> Any:
        return self._bin(o, operator.add, "{} + {}", True)

    def __sub__(self, o: Any) -> Any:
        return self._bin(o, operator.sub, "{} - {}")

    def __rsub__(self, o: Any) -> Any:
        return self._bin(o, operator.sub, "{} - {}", True)

    def __mul__(self, o: Any) -> Any:
        if isinstance(o, int) and not isinstance(o, (bool, SymInt)):
            if o == 1:
                return self
            if o == 0:
                return 0
            return SymInt(int(self) * o, f"{o}*{_paren(self.expr)}")  # sympy's 2*s77
        return self._bin(o, operator.mul, "{}*{}")

    def __rmul__(self, o: Any) -> Any:
        return self.__mul__(o)

    def __floordiv__(self, o: Any) -> Any:
        return self._bin(o, operator.floordiv, "{}//{}")

    def __rfloordiv__(self, o: Any) -> Any:
        return self._bin(o, operator.floordiv, "{}//{}", True)

    def __mod__(self, o: Any) -> Any:
        return self._bin(o, operator.mod, "{} % {}")

    def __neg__(self) -> Any:
        return SymInt(-int(self), f"-{_paren(self.expr)}")

    # -- comparisons are guards while tracing ------------------------------------------------
    def _cmp(self, other: Any, op: Any, sym: str) -> Any:
        if not isinstance(other, int) or isinstance(other, bool):
            return op(int(self), other)
        result = op(int(self), int(other))
        env = _ACTIVE[0]
        # Only the user's comparisons are guards: keyroute's own (meta kernels comparing a
        # size with one computed on plain ints) decide on hints, checked by eval_frame._verify.
        if env is not None and not sys._getframe(2).f_globals.get("__name__", "").startswith(
            "keyroute."
        ):
            env.guard(f"{_paren(self.expr)} {sym} {_paren(_expr(other))}", result)
        return result

    def __eq__(self, o: Any) -> Any:  # type: ignore[override]
        if isinstance(o, SymInt) and o.expr == self.expr:
            return True
        return self._cmp(o, operator.eq, "==")

    def __ne__(self, o: Any) -> Any:  # type: ignore[override]
        if isinstance(o, SymInt) and o.expr == self.expr:
            return False
        return self._cmp(o, operator.ne, "!=")

    def __lt__(self, o: Any) -> Any:
        return self._cmp(o, operator.lt, "<")

    def __le__(self, o: Any) -> Any:
        return self._cmp(o, operator.le, "<=")

    def __gt__(self, o: Any) -> Any:
        return self._cmp(o, operator.gt, ">")

    def __ge__(self, o: Any) -> Any:
        return self._cmp(o, operator.ge, ">=")


def _expr(v: Any) -> str:
    return v.expr if isinstance(v, SymInt) else str(int(v))


def is_symbolic(v: Any) -> bool:
    return isinstance(v, SymInt)


def symbol_id(source: str, taken: set[int]) -> int:
    """PyTorch's symbol number for a size's source name: sha256 modulo 100, then the next free."""
    n = int(hashlib.sha256(source.encode()).hexdigest(), 16) % 100
    while n in taken:
        n += 1
    taken.add(n)
    return n


class ShapeEnv:
    """The symbols of one dynamic variant and the guards its trace recorded."""

    def __init__(self) -> None:
        self.hints: dict[str, int] = {}
        self.taken: set[int] = set()
        #: (expression, the value it had when traced), in Python syntax over the symbols.
        self.guards: list[tuple[str, bool]] = []

    def create_symbol(self, source: str, hint: int) -> SymInt:
        name = f"s{symbol_id(source, self.taken)}"
        self.hints[name] = hint
        return SymInt(hint, name)

    def guard(self, expr: str, result: bool) -> None:
        if (expr, result) not in self.guards:
            self.guards.append((expr, result))

    def guard_fn(self) -> Any:
        """`fn(**sizes) -> bool`: every recorded guard still holds (sizes >= 2 always)."""
        names = sorted(self.hints)
        terms = [f"{n} >= 2" for n in names]
        terms += [f"({e}) == {r}" for e, r in self.guards]
        src = f"lambda {', '.join(names)}: {' and '.join(terms) or 'True'}"
        return eval(src, {})  # noqa: S307 - our own expressions over size names

    def __enter__(self) -> ShapeEnv:
        self._prev = _ACTIVE[0]
        _ACTIVE[0] = self
        return self

    def __exit__(self, *exc: Any) -> None:
        _ACTIVE[0] = self._prev


class Ambiguous(Exception):
    """A size matches the hints of two symbols: the variant stays static."""


# Operators taking a list of sizes (their `size`/`shape` argument) that Note [hint matching]
# rewrites; the position of that list in args.
_SIZE_ARGS = {
    "view": 1, "_unsafe_view": 1, "reshape": 1, "expand": 1, "_reshape_alias": 1,
    "new_empty": 1, "new_zeros": 1, "new_ones": 1, "new_full": 1,
    "zeros": 0, "ones": 0, "empty": 0, "full": 0, "empty_strided": 0,
}  # fmt: skip


def _match(v: Any, syms: dict[int, SymInt]) -> Any:
    """`v` as a symbolic size if it is a symbol's hint or a multiple of one (Note [hint
    matching]), else `v`."""
    if isinstance(v, SymInt) or isinstance(v, bool) or not isinstance(v, int) or v < 2:
        return v
    s = syms.get(v)
    if s is not None:
        return s
    for h, s in syms.items():
        if v % h == 0 and v // h >= 2 and "*" not in s.expr and " " not in s.expr:
            return (v // h) * s
    return v


def _symbols_of(val: Any, out: dict[int, SymInt]) -> None:
    from ..tensor._tensor import Tensor

    if isinstance(val, Tensor):
        for d in val._data.shape:
            if isinstance(d, SymInt) and d.expr.isidentifier():
                if out.get(int(d), d).expr != d.expr:
                    raise Ambiguous(d.expr)
                out[int(d)] = d
    elif isinstance(val, SymInt) and val.expr.isidentifier():
        if out.get(int(val), val).expr != val.expr:
            raise Ambiguous(val.expr)
        out[int(val)] = val
    elif isinstance(val, (list, tuple)):
        for x in val:
            _symbols_of(x, out)


def _set_shape(val: Any, syms: dict[int, SymInt]) -> None:
    from ..tensor._tensor import Tensor

    if isinstance(val, Tensor):
        d = val._data
        shape = tuple(_match(s, syms) for s in d.shape)
        if any(isinstance(s, SymInt) for s in shape):
            d.shape = shape
    elif isinstance(val, (list, tuple)):
        for x in val:
            _set_shape(x, syms)


def symbolize_graph(gm: Any) -> dict[str, int]:
    """Give gm's values symbolic sizes from its placeholders' (Note [hint matching]) and
    rewrite its size-list arguments; returns the symbols used and their hints. Raises
    Ambiguous where two symbols share a hint in one node."""
    from ..fx.node import Node

    every: dict[int, SymInt] = {}
    for n in gm.graph.nodes:
        if n.op == "placeholder":
            _symbols_of(n.meta.get("val"), every)
            continue
        if n.op != "call_function":
            continue
        local: dict[int, SymInt] = {}
        for a in n.all_input_nodes:
            _symbols_of(a.meta.get("val"), local)
        _symbols_of(list(n.args), local)
        if not local:
            continue
        name = getattr(n.target, "_opname", None)
        pos = _SIZE_ARGS.get(name)
        if pos is not None and len(n.args) > pos and isinstance(n.args[pos], (list, tuple)):
            sizes = n.args[pos]
            new = type(sizes)(_match(s, local) for s in sizes)
            args = list(n.args)
            args[pos] = new
            n.args = tuple(args)
        elif name == "slice" and len(n.args) > 3 and not isinstance(n.args[3], Node):
            args = list(n.args)
            args[3] = _match(args[3], local)
            n.args = tuple(args)
        _set_shape(n.meta.get("val"), local)
    gm.recompile()
    return {s.expr: int(s) for s in every.values()}
