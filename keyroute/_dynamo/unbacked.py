"""`capture_scalar_outputs=True`: `Tensor.item()` on a floating tensor inside a capture is a
node of the graph (aten._local_scalar_dense) whose value is an unbacked SymFloat, as PyTorch's
`zuf0`: arithmetic on it records operator nodes (item * 2 + 1), and operators take it as a
Scalar argument (y * item). Branching on it (`if item > 0`) cannot be decided while tracing:
a graph break with PyTorch's "Could not guard on data-dependent expression" reason
(fullgraph=True: UserError, as PyTorch 2.13).

Without symbolic shapes (keyroute has no ShapeEnv) the value is a float subclass holding its
node; the float value itself is a placeholder never read by a traced graph. Integer `.item()`
(an unbacked SymInt, which PyTorch can use as a size) is not captured: it still breaks
(tests/compile/known_gaps.txt).

In a segmented eager run (explain, or a function that breaks) `.item()` returns an
`EagerScalar`, a float whose comparisons take the same break, so explain reports PyTorch's
graph and break counts.
"""

from __future__ import annotations

import operator
from typing import Any

from .breaks import HOOKS, GraphBreak

_COUNT = [0]


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
    return v.node if isinstance(v, UnbackedFloat) else v


class UnbackedFloat(float):
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

    def __pow__(self, o: Any) -> Any:  # type: ignore[override]
        return self._op(operator.pow, o)

    def __neg__(self) -> Any:
        g = self.node.graph
        return UnbackedFloat(g.create_node("call_function", operator.neg, (self.node,), {}, "neg"))

    def _guard(self, sym_op: str, other: Any) -> Any:
        right = other.sym if isinstance(other, UnbackedFloat) else repr(float(other))
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


class EagerScalar(float):
    """A segmented run's `.item()` value: its comparisons are the capture's break."""

    def _cmp(self, op: str, o: Any) -> Any:
        fn = getattr(float, op)
        b_expr = f"zuf0 {_CMP[op]} {float(o)!r}"
        return HOOKS.on_break(lambda: guard_break(b_expr), lambda: fn(float(self), o), None)

    def __gt__(self, o: Any) -> Any:
        return self._cmp("__gt__", o)

    def __lt__(self, o: Any) -> Any:
        return self._cmp("__lt__", o)

    def __ge__(self, o: Any) -> Any:
        return self._cmp("__ge__", o)

    def __le__(self, o: Any) -> Any:
        return self._cmp("__le__", o)

    __hash__ = float.__hash__


def local_scalar_node(tracking: Any, func: Any, args: Any) -> Any:
    """The proxy mode's `_local_scalar_dense` under capture_scalar_outputs: a node whose
    value is an UnbackedFloat (floating tensors), else None (the caller raises as before)."""
    t = args[0]
    if not getattr(t, "dtype", None) or not t.dtype.is_floating_point:
        return None
    node = tracking.graph.create_node("call_function", func, tracking.arg(tuple(args)), {}, "item")
    return UnbackedFloat(node)
