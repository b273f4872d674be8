"""Binary elementwise operators: arithmetic, comparisons, bitwise and logical ops, div with a
rounding mode, rsub, pow, maximum/minimum, copysign, xlogy."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from ...tensor._tensor import Tensor
from ...tensor.dtype import (
    bool_,
    complex64,
    dtype,
    float32,
)
from .._define import register_meta
from .._meta_util import shape_of
from .._promotion import result_type
from .._shape import broadcast_shapes
from .checks import (
    SUPPORT,
    _result,
    check_alpha,
    check_sub,
    check_support,
    checked_scalar,
    float_result,
    not_implemented,
)
from .family import Rule, _family, _inplace

# ----------------------------------------------------------------------------- binary

#: name -> dtype rule of the binary ops: "same" (promoted dtype), "float" (integers ->
#: default float), "bool" (comparisons, logical).
BINARY_RULE = {
    "add": "same",
    "sub": "same",
    "mul": "same",
    "div": "float",
    "remainder": "same",
    "fmod": "same",
    "floor_divide": "same",
    "div_floor": "same",
    "div_trunc": "same",
    "eq": "bool",
    "ne": "bool",
    "lt": "bool",
    "le": "bool",
    "gt": "bool",
    "ge": "bool",
    "logical_and": "bool",
    "logical_or": "bool",
    "logical_xor": "bool",
    "bitwise_and": "same",
    "bitwise_or": "same",
    "bitwise_xor": "same",
    "lshift": "same",
    "rshift": "same",
    "maximum": "same",
    "minimum": "same",
    "fmax": "same",
    "fmin": "same",
    "atan2": "float",
    "hypot": "same",
    "copysign": "float",
    "xlogy": "float",
    "pow": "same",
}


def binary_result(op: str, self: Any, other: Any) -> dtype:
    """The result dtype of a binary op: PyTorch's promotion, then the op's rule."""
    dt = result_type(self, other)
    rule = BINARY_RULE[op]
    if rule == "float":
        return float_result(dt)
    if rule == "bool":
        return bool_
    return dt


def binary_dtype(op: str, self: Any, other: Any) -> dtype:
    """binary_result with the op's dtype checks (on the computation dtype)."""
    common = result_type(self, other)
    dt = float_result(common) if BINARY_RULE[op] == "float" else common
    check_support(op, dt)
    if op in ("bitwise_and", "bitwise_or", "bitwise_xor", "lshift", "rshift"):
        _check_scalar_kind(op, self, other, dt)
    return bool_ if BINARY_RULE[op] == "bool" else dt


def _binary_rule(op: str) -> Rule:
    def rule(self: Any, other: Any, *args: Any, **kwargs: Any) -> tuple[Any, dtype]:
        return broadcast_shapes(shape_of(self), shape_of(other)), binary_result(op, self, other)

    return rule


def _binary_check(op: str, alpha: bool = False) -> Callable[..., None]:
    def check(self: Any, other: Any, *args: Any, **kwargs: Any) -> None:
        dt = binary_dtype(op, self, other)
        if op == "sub":
            check_sub(self, other)
        if alpha:
            a = kwargs.get("alpha", args[0] if args else 1)
            if a is not None and (a != 1 or isinstance(a, bool)):
                check_alpha(dt, a)

    return check


def _check_scalar_kind(op: str, self: Any, other: Any, dt: dtype) -> None:
    """Bitwise ops reject a floating Python scalar even with an integral tensor."""
    for x in (self, other):
        if isinstance(x, (float, complex)) and not isinstance(x, bool):
            kind = complex64 if isinstance(x, complex) else float32
            raise not_implemented(SUPPORT[op][0], kind if dt.category <= 1 else dt)


def _bin(qual: str, params: str, op: str, **kw: Any) -> Any:
    return _family(qual, params, _binary_rule(op), _binary_check(op, "alpha" in params), **kw)


for _name in ("add", "sub", "mul", "div"):
    _a = _name in ("add", "sub")
    _bin(
        f"{_name}.Tensor", f"Tensor self, Tensor other{', *, Scalar alpha=1' if _a else ''}", _name
    )
    _bin(
        f"{_name}.Scalar",
        f"Tensor self, Scalar other{', Scalar alpha=1' if _a else ''}",
        _name,
        out="Scalar_out",
        out_check="cpp" if _name == "div" else "cast",
    )

for _name in (
    "remainder",
    "fmod",
    "eq",
    "ne",
    "lt",
    "le",
    "gt",
    "ge",
    "bitwise_and",
    "bitwise_or",
    "bitwise_xor",
):
    _oc = "any" if BINARY_RULE[_name] == "bool" else "cast"
    _bin(f"{_name}.Tensor", "Tensor self, Tensor other", _name, out="Tensor_out", out_check=_oc)
    _bin(f"{_name}.Scalar", "Tensor self, Scalar other", _name, out="Scalar_out", out_check=_oc)

for _name, _k in (("bitwise_left_shift", "lshift"), ("bitwise_right_shift", "rshift")):
    _bin(f"{_name}.Tensor", "Tensor self, Tensor other", _k, out="Tensor_out")
    _bin(f"{_name}.Tensor_Scalar", "Tensor self, Scalar other", _k, out="Tensor_Scalar_out")
    _bin(
        f"{_name}.Scalar_Tensor",
        "Scalar self, Tensor other",
        _k,
        inplace=False,
        out="Scalar_Tensor_out",
    )
for _name, _k in (("__lshift__", "lshift"), ("__rshift__", "rshift")):
    for _ov, _p in (("Tensor", "Tensor other"), ("Scalar", "Scalar other")):
        _op = _bin(
            f"{_name}.{_ov}",
            f"Tensor self, {_p}",
            _k,
            inplace=False,
            out=f"{_ov}_out",
            out_check="cpp",
        )
        _inplace(
            f"__i{_name[2:]}.{_ov}(Tensor(a!) self, {_p}) -> Tensor(a!)", _op, _binary_rule(_k)
        )

for _name in ("bitwise_and", "bitwise_or", "bitwise_xor"):
    _bin(
        f"{_name}.Scalar_Tensor",
        "Scalar self, Tensor other",
        _name,
        inplace=False,
        out="Scalar_Tensor_out",
    )
_bin(
    "remainder.Scalar_Tensor",
    "Scalar self, Tensor other",
    "remainder",
    inplace=False,
    out="Scalar_Tensor_out",
)
_bin("floor_divide", "Tensor self, Tensor other", "floor_divide", inplace="Tensor")
_bin("floor_divide.Scalar", "Tensor self, Scalar other", "floor_divide", out="Scalar_out")


def div_mode_dtype(self: Any, other: Any, rounding_mode: str | None) -> dtype:
    if rounding_mode is None:
        return binary_dtype("div", self, other)
    if rounding_mode == "trunc":
        return binary_dtype("div_trunc", self, other)
    if rounding_mode == "floor":
        return binary_dtype("div_floor", self, other)
    raise RuntimeError(
        f"div expected rounding_mode to be one of None, 'trunc', or 'floor' but found "
        f"'{rounding_mode}'"
    )


def _div_mode_rule(self: Any, other: Any, *, rounding_mode: str | None) -> tuple[Any, dtype]:
    op = "div" if rounding_mode is None else "div_floor"
    return broadcast_shapes(shape_of(self), shape_of(other)), binary_result(op, self, other)


def _div_mode_check(self: Any, other: Any, *, rounding_mode: str | None) -> None:
    div_mode_dtype(self, other, rounding_mode)


_family(
    "div.Tensor_mode",
    "Tensor self, Tensor other, *, str? rounding_mode",
    _div_mode_rule,
    _div_mode_check,
    out="out_mode",
)
_family(
    "div.Scalar_mode",
    "Tensor self, Scalar other, *, str? rounding_mode",
    _div_mode_rule,
    _div_mode_check,
    out="Scalar_mode_out",
    out_check="cpp",
)


def _rsub_check(self: Any, other: Any, alpha: Any = 1) -> None:
    dt = binary_dtype("sub", self, other)
    check_sub(self, other)
    if alpha != 1 or isinstance(alpha, bool):
        check_alpha(dt, alpha)


def _rsub_rule(self: Any, other: Any, alpha: Any = 1) -> tuple[Any, dtype]:
    return broadcast_shapes(shape_of(other), shape_of(self)), binary_result("sub", self, other)


def _rsub_meta_args(self: Any, other: Any, alpha: Any = 1) -> Tensor:
    shape, dt = _rsub_rule(self, other, alpha)
    _rsub_check(self, other, alpha)
    # computed as other - alpha * self: TensorIterator sees `other` first
    return _result(shape, dt, "iter", (other, self), {})


for _ov, _p in (
    ("Tensor", "Tensor other, *, Scalar alpha=1"),
    ("Scalar", "Scalar other, Scalar alpha=1"),
):
    _op = _family(
        f"rsub.{_ov}",
        f"Tensor self, {_p}",
        _rsub_rule,
        _rsub_check,
        inplace=False,
        out=f"{_ov}_out",
        out_check="cpp",
    )
    register_meta(_op, _rsub_meta_args)


def pow_dtype(self: Any, exponent: Any) -> dtype:
    """pow's result dtype and checks (integers to negative integer powers)."""
    dt = result_type(self, exponent)
    if isinstance(self, Tensor) and not isinstance(exponent, Tensor):
        if isinstance(exponent, (bool, int, float, complex)) and exponent in (0, 1):
            return dt  # pow(x, 0) fills ones, pow(x, 1) copies: no kernel, no dtype check
    check_support("pow", dt)
    if dt.category == 1 and not isinstance(exponent, Tensor):
        if isinstance(exponent, int) and not isinstance(exponent, bool) and exponent < 0:
            raise RuntimeError("Integers to negative integer powers are not allowed.")
        if isinstance(self, Tensor):
            checked_scalar(exponent, dt)
    return dt


def _pow_rule(self: Any, exponent: Any) -> tuple[Any, dtype]:
    return broadcast_shapes(shape_of(self), shape_of(exponent)), result_type(self, exponent)


def _pow_check(self: Any, exponent: Any) -> None:
    pow_dtype(self, exponent)


_family(
    "pow.Tensor_Tensor",
    "Tensor self, Tensor exponent",
    _pow_rule,
    _pow_check,
    inplace="Tensor",
    out="Tensor_Tensor_out",
)
_family(
    "pow.Tensor_Scalar",
    "Tensor self, Scalar exponent",
    _pow_rule,
    _pow_check,
    inplace="Scalar",
    out="Tensor_Scalar_out",
)
# pow.Scalar's output is laid out contiguously (its meta function passes no strides).
_family(
    "pow.Scalar",
    "Scalar self, Tensor exponent",
    _pow_rule,
    _pow_check,
    layout="contig",
    inplace=False,
    out="Scalar_out",
)

for _name in ("maximum", "minimum", "fmax", "fmin"):
    _bin(_name, "Tensor self, Tensor other", _name, inplace=False)
for _name in ("atan2", "hypot", "logical_and", "logical_or", "logical_xor"):
    _bin(
        _name,
        "Tensor self, Tensor other",
        _name,
        out_check="any" if _name.startswith("logical") else "cast",
    )
_bin("copysign.Tensor", "Tensor self, Tensor other", "copysign")
_bin("copysign.Scalar", "Tensor self, Scalar other", "copysign", out="Scalar_out")
_bin("xlogy.Tensor", "Tensor self, Tensor other", "xlogy", out="OutTensor")
_bin("xlogy.Scalar_Other", "Tensor self, Scalar other", "xlogy", out="OutScalar_Other")
_bin("xlogy.Scalar_Self", "Scalar self, Tensor other", "xlogy", inplace=False, out="OutScalar_Self")
