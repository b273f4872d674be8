"""`capture_scalar_outputs=True`: `Tensor.item()` on a floating tensor inside a capture is a
node of the graph (aten._local_scalar_dense) whose value is an unbacked SymFloat, as PyTorch's
`zuf0`: arithmetic on it records operator nodes (item * 2 + 1), and operators take it as a
Scalar argument (y * item). Branching on it (`if item > 0`) cannot be decided while tracing:
a graph break with PyTorch's "Could not guard on data-dependent expression" reason
(fullgraph=True: UserError, as PyTorch 2.13).

The value is a float subclass holding its node; the float value itself is a placeholder never
read by a traced graph. An integer `.item()` is an unbacked SymInt (`UnbackedInt`, named `u0`
as PyTorch's): arithmetic and Scalar arguments as for floats; using it as a size (a view's
shape, `int(u0)`) or branching on it breaks, as a guard on it would.

In a segmented eager run (explain, or a function that breaks) `.item()` returns an
`EagerScalar`, a float whose comparisons take the same break, so explain reports PyTorch's
graph and break counts.
"""

from __future__ import annotations

import operator
from typing import Any

from .breaks import HOOKS, GraphBreak

_COUNT = [0]
#: Unbacked SymInts are numbered apart from SymFloats (u0, u1, ... and zuf0, ...).
_COUNT_INT = [0]
#: The placeholder value of an UnbackedInt; a capture with one is traced twice with two
#: values and must give the same code (`leaked`), else the value reached a size.
_PLACEHOLDER = [7]


def guard_break(expr: str) -> GraphBreak:
    text = (
        "Consider annotating your code using torch._check*(). Could not guard on "
        f"data-dependent expression {expr} (unhinted: {expr}).  (Size-like symbols: none)\n\n"
        "consider using data-dependent friendly APIs such as guard_or_false, guard_or_true and "
        "statically_known_true."
    )
    b = GraphBreak(
        "Data-dependent branching",
        text,
        [],
        "generic_jump SymNodeVariable()",
        "gb0170",
    )
    b.explain_reason = f"generic_jump SymNodeVariable()\n{text}"
    b.user_error = text  # type: ignore[attr-defined]
    return b


_CMP = {"__gt__": ">", "__lt__": "<", "__ge__": ">=", "__le__": "<="}


def _node_of(v: Any) -> Any:
    return v.node if isinstance(v, (UnbackedFloat, UnbackedInt)) else v


class _GraphArithmetic:
    """The arithmetic both unbacked scalars record as graph nodes (each class's `_op` says
    what type the result is)."""

    _op: Any

    def __add__(self, o: Any) -> Any:
        return self._op(operator.add, o)

    def __radd__(self, o: Any) -> Any:
        return self._op(operator.add, o, True)

    def __sub__(self, o: Any) -> Any:
        return self._op(operator.sub, o)

    def __rsub__(self, o: Any) -> Any:
        return self._op(operator.sub, o, True)

    def __mul__(self, o: Any) -> Any:
        return self._op(operator.mul, o)

    def __rmul__(self, o: Any) -> Any:
        return self._op(operator.mul, o, True)

    def __truediv__(self, o: Any) -> Any:
        return self._op(operator.truediv, o)

    def __rtruediv__(self, o: Any) -> Any:
        return self._op(operator.truediv, o, True)


class UnbackedFloat(_GraphArithmetic, float):
    """An unbacked SymFloat: a graph node's value, unknown while tracing."""

    node: Any
    sym: str

    def __new__(cls, node: Any, sym: str | None = None) -> UnbackedFloat:
        self = super().__new__(cls, 1.2345678)  # never read: see the module docstring
        self.node = node
        if sym is None:
            sym = f"zuf{_COUNT[0]}"
            _COUNT[0] += 1
        self.sym = sym
        node.meta["val"] = self
        return self

    def _op(self, fn: Any, other: Any, reverse: bool = False) -> Any:
        if not isinstance(other, (int, float)):
            return NotImplemented
        args = (_node_of(other), self.node) if reverse else (self.node, _node_of(other))
        g = self.node.graph
        return UnbackedFloat(g.create_node("call_function", fn, args, {}, fn.__name__))

    def __pow__(self, o: Any) -> Any:  # type: ignore[override]
        return self._op(operator.pow, o)

    def __neg__(self) -> Any:
        g = self.node.graph
        return UnbackedFloat(g.create_node("call_function", operator.neg, (self.node,), {}, "neg"))

    def _guard(self, sym_op: str, other: Any) -> Any:
        if isinstance(other, (UnbackedFloat, UnbackedInt)):
            right = other.sym
        else:
            right = repr(float(other)) if isinstance(self, float) else repr(other)
        b = guard_break(f"{self.sym} {sym_op} {right}")
        from .breaks import user_stack

        b.user_stack = user_stack(3)
        raise b

    def __gt__(self, o: Any) -> Any:
        return self._guard(">", o)

    def __lt__(self, o: Any) -> Any:
        return self._guard("<", o)

    def __ge__(self, o: Any) -> Any:
        return self._guard(">=", o)

    def __le__(self, o: Any) -> Any:
        return self._guard("<=", o)

    def __bool__(self) -> bool:
        return self._guard("!=", 0)

    def __float__(self) -> float:
        # math.sqrt(item), float(item): the value is not known while tracing.
        return self._specialize("float")

    def __int__(self) -> int:
        return self._specialize("int")

    def _specialize(self, how: str) -> Any:
        b = guard_break(f"{how}({self.sym})")
        from .breaks import user_stack

        b.user_stack = user_stack(3)
        raise b

    __hash__ = float.__hash__

    def __repr__(self) -> str:
        return self.sym


class UnbackedInt(_GraphArithmetic, int):
    """An unbacked SymInt (an integer tensor's `.item()`): a graph node's value, unknown while
    tracing; the int value is a placeholder (see the module docstring)."""

    node: Any
    sym: str

    def __new__(cls, node: Any, sym: str | None = None) -> UnbackedInt:
        self = super().__new__(cls, _PLACEHOLDER[0])  # never read (see `leaked`)
        self.node = node
        if sym is None:
            sym = f"u{_COUNT_INT[0]}"
            _COUNT_INT[0] += 1
        self.sym = sym
        node.meta["val"] = self
        return self

    def _op(self, fn: Any, other: Any, reverse: bool = False) -> Any:
        if not isinstance(other, (int, float)) or isinstance(other, bool):
            return NotImplemented
        args = (_node_of(other), self.node) if reverse else (self.node, _node_of(other))
        g = self.node.graph
        node = g.create_node("call_function", fn, args, {}, fn.__name__)
        floating = fn is operator.truediv or isinstance(other, float)
        return UnbackedFloat(node) if floating else UnbackedInt(node)

    def __floordiv__(self, o: Any) -> Any:
        return self._op(operator.floordiv, o)

    def __neg__(self) -> Any:
        g = self.node.graph
        return UnbackedInt(g.create_node("call_function", operator.neg, (self.node,), {}, "neg"))

    _guard = UnbackedFloat._guard
    _specialize = UnbackedFloat._specialize

    def __gt__(self, o: Any) -> Any:
        return self._guard(">", o)

    def __lt__(self, o: Any) -> Any:
        return self._guard("<", o)

    def __ge__(self, o: Any) -> Any:
        return self._guard(">=", o)

    def __le__(self, o: Any) -> Any:
        return self._guard("<=", o)

    def __eq__(self, o: Any) -> Any:  # type: ignore[override]
        return o is self or self._guard("==", o)

    def __ne__(self, o: Any) -> Any:  # type: ignore[override]
        return o is not self and self._guard("!=", o)

    def __bool__(self) -> bool:
        return self._guard("!=", 0)

    def __index__(self) -> int:
        return self._specialize("int")

    def __int__(self) -> int:
        return self._specialize("int")

    def __float__(self) -> float:
        return self._specialize("float")

    __hash__ = int.__hash__

    def __repr__(self) -> str:
        return self.sym


def has_unbacked_int(gm: Any) -> bool:
    """Whether the last capture made an UnbackedInt (its node may since be dead code)."""
    return _COUNT_INT[0] > 0


def leaked(retrace: Any, code: str) -> GraphBreak | None:
    """Python turns an int subclass into a plain int without asking it (`range(u0)`, a size
    list built by the API), so the placeholder value may have been used: trace again with
    another placeholder; different code means it was, and the capture breaks there."""
    _PLACEHOLDER[0] = 11
    try:
        again = retrace()
    finally:
        _PLACEHOLDER[0] = 7
    if again.gm.code == code:
        return None
    return guard_break("size(u0)")


def check_no_unbacked_size(func: Any, args: Any, kwargs: Any) -> None:
    """An unbacked SymInt passed where the operator takes a size (an int, a list of ints) and
    not a Scalar: keyroute cannot carry an unknown size, so it breaks (its placeholder value
    must never reach a kernel)."""
    schema = func._schema
    named = list(zip(schema.arguments, args)) + [
        (a, kwargs[a.name]) for a in schema.arguments if a.name in kwargs
    ]
    for arg, v in named:
        vals = v if isinstance(v, (list, tuple)) else (v,)
        for x in vals:
            if isinstance(x, UnbackedInt) and "int" in str(arg.type).lower():
                x._specialize("size")  # an int / SymInt / int[] argument, not a Scalar


class EagerScalar(float):
    """A segmented run's `.item()` value: its comparisons are the capture's break."""

    _base: Any = float
    _sym = "zuf0"

    def _cmp(self, op: str, o: Any) -> Any:
        base = self._base
        fn = getattr(base, op)
        b_expr = f"{self._sym} {_CMP[op]} {base(o)!r}"
        return HOOKS.on_break(lambda: guard_break(b_expr), lambda: fn(base(self), o), None)

    def __gt__(self, o: Any) -> Any:
        return self._cmp("__gt__", o)

    def __lt__(self, o: Any) -> Any:
        return self._cmp("__lt__", o)

    def __ge__(self, o: Any) -> Any:
        return self._cmp("__ge__", o)

    def __le__(self, o: Any) -> Any:
        return self._cmp("__le__", o)

    __hash__ = float.__hash__


class EagerInt(int):
    """EagerScalar for an integer `.item()` (PyTorch's unbacked u0)."""

    _base: Any = int
    _sym = "u0"
    _cmp = EagerScalar._cmp
    __gt__ = EagerScalar.__gt__
    __lt__ = EagerScalar.__lt__
    __ge__ = EagerScalar.__ge__
    __le__ = EagerScalar.__le__
    __hash__ = int.__hash__


def eager_scalar(v: Any) -> Any:
    """The segmented run's wrapper of an `.item()` value."""
    if isinstance(v, bool):
        return v
    return EagerInt(v) if isinstance(v, int) else EagerScalar(v)


def captures(t: Any) -> bool:
    """Whether `t.item()` is captured (capture_scalar_outputs): floating and integer tensors
    (bool and complex still break)."""
    dt = getattr(t, "dtype", None)
    return dt is not None and not dt.is_complex and dt.name != "bool"


def local_scalar_node(tracking: Any, func: Any, args: Any) -> Any:
    """The proxy mode's `_local_scalar_dense` under capture_scalar_outputs: a node whose
    value is an UnbackedFloat (floating tensors) or UnbackedInt (integer tensors), else None
    (the caller raises as before)."""
    t = args[0]
    if not captures(t):
        return None
    node = tracking.graph.create_node("call_function", func, tracking.arg(tuple(args)), {}, "item")
    return UnbackedFloat(node) if t.dtype.is_floating_point else UnbackedInt(node)
