"""The operators PyTorch's C++ CPU kernels call through the dispatcher, as profiler events.

In PyTorch, `relu`'s CPU kernel calls `clamp_min`, `ones_like` calls `empty_like` and
`fill_`, `t` calls `transpose` (which calls `as_strided`), a full `sum` makes its result with
`as_strided` and `fill_`, and a binary operator given a Python number casts the wrapped scalar
tensor with `to` > `_to_copy` > `empty_strided` + `copy_` when its dtype is not the result's.
Those calls are profiler events nested in the operator's. keyroute's NumPy kernels call no
operators, so while a profile records, the profiler adds these events itself (children of the
operator's event, timed inside it) from the table below, for the resolutions whose operator is
listed: the un-profiled path never looks at this table. The events are marked as synthesized
(kind "internal") in the trace."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

__all__ = ["INTERNAL", "children"]

Tree = tuple[str, tuple[Any, ...]]

_AS_STRIDED: Tree = ("aten::as_strided", ())
_SCALAR_TO: Tree = (
    "aten::to",
    (("aten::_to_copy", (("aten::empty_strided", ()), ("aten::copy_", ()))),),
)


Rule = Callable[[str, tuple[Any, ...], dict[str, Any]], tuple[Tree, ...]]


def _fixed(*trees: Tree) -> Rule:
    return lambda overload, args, kwargs: trees


def _wrapped_dtype(v: Any) -> str | None:
    """The dtype PyTorch wraps a Python number in (None: not a Python number)."""
    if isinstance(v, bool):
        return "bool"
    if isinstance(v, int):
        return "int64"
    if isinstance(v, float):
        return "float64"
    if isinstance(v, complex):
        return "complex128"
    return None


def _scalar_cast(overload: str, args: tuple[Any, ...], kwargs: dict[str, Any]) -> tuple[Tree, ...]:
    # Only the Tensor overloads wrap a number (add.Scalar, pow.Tensor_Scalar take it as is).
    if overload not in ("Tensor", "default"):
        return ()
    # TensorIterator casts the wrapped scalar operand to the common dtype (the tensor's, as a
    # wrapped number does not promote within its category) when the two differ.
    if len(args) < 2:
        other = kwargs.get("other")
    else:
        other = args[1]
    wrapped = _wrapped_dtype(other)
    if wrapped is None:
        return ()
    t = args[0] if args else kwargs.get("self")
    dt = getattr(getattr(t, "_dtype", None), "name", None)
    if dt is None or dt == wrapped:
        return ()
    cat = {"bool": 0, "int64": 1, "float64": 2, "complex128": 3}[wrapped]
    t_cat = 0 if dt == "bool" else 3 if dt.startswith("complex") else 2 if "float" in dt else 1
    if cat > t_cat:  # the scalar promotes the result: it is computed in the scalar's category
        return ()
    return (_SCALAR_TO,)


_BINARY = (
    "add", "sub", "mul", "div", "rsub", "remainder", "fmod", "pow", "gt", "lt", "ge", "le",
    "eq", "ne", "maximum", "minimum",
)  # fmt: skip

#: "aten::<name>" -> a function of the call's arguments giving the child event trees.
INTERNAL: dict[str, Rule] = {
    "aten::relu": _fixed(("aten::clamp_min", ())),
    "aten::ones_like": _fixed(("aten::empty_like", ()), ("aten::fill_", ())),
    "aten::zeros_like": _fixed(("aten::empty_like", ()), ("aten::zero_", ())),
    "aten::t": _fixed(("aten::transpose", (_AS_STRIDED,))),
    "aten::transpose": _fixed(_AS_STRIDED),
    "aten::unsqueeze": _fixed(_AS_STRIDED),
    "aten::slice": _fixed(_AS_STRIDED),
    **{f"aten::{n}": _scalar_cast for n in _BINARY},
}


def _full_reduction(args: tuple[Any, ...], kwargs: dict[str, Any]) -> bool:
    dim = args[1] if len(args) > 1 else kwargs.get("dim")
    return dim is None or (isinstance(dim, (list, tuple)) and not dim) or not args


def _sum(overload: str, args: tuple[Any, ...], kwargs: dict[str, Any]) -> tuple[Tree, ...]:
    return (_AS_STRIDED, ("aten::fill_", ())) if _full_reduction(args, kwargs) else ()


def _mean(overload: str, args: tuple[Any, ...], kwargs: dict[str, Any]) -> tuple[Tree, ...]:
    if not _full_reduction(args, kwargs):
        return ()
    return (("aten::sum", (_AS_STRIDED, ("aten::fill_", ()))), ("aten::div_", (_SCALAR_TO,)))


INTERNAL["aten::sum"] = _sum
INTERNAL["aten::mean"] = _mean


def children(
    name: str, overload: str, args: tuple[Any, ...], kwargs: dict[str, Any]
) -> tuple[Tree, ...]:
    """The child event trees of one call of operator `name` (`aten::add`), overload `overload`."""
    rule = INTERNAL.get(name)
    return () if rule is None else rule(overload, args, kwargs)
