"""Unary elementwise operators (the float and same-dtype tables, activations, rounding, clamp)."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from ...tensor._tensor import Tensor
from ...tensor.dtype import (
    bool_,
    dtype,
    uint8,
)
from .._define import register_meta
from .._meta_util import shape_of
from .._promotion import result_type
from .._shape import broadcast_shapes
from .checks import _result, check_support, checked_scalar, float_result, not_implemented
from .family import _family

# ----------------------------------------------------------------------------- unary

#: Unary ops computing in floating point (integers and bool -> default dtype).
UNARY_FLOAT = (
    "exp",
    "exp2",
    "expm1",
    "log",
    "log1p",
    "log2",
    "log10",
    "sqrt",
    "rsqrt",
    "reciprocal",
    "sin",
    "cos",
    "tan",
    "tanh",
    "sigmoid",
    "erf",
    "erfc",
    "asin",
    "acos",
    "atan",
    "sinh",
    "cosh",
    "asinh",
    "acosh",
    "atanh",
)
#: Unary ops keeping the input dtype (with per-op dtype support).
UNARY_SAME = (
    "abs",
    "neg",
    "sign",
    "sgn",
    "floor",
    "ceil",
    "round",
    "trunc",
    "frac",
    "bitwise_not",
)


def rule_float(self: Tensor, *args: Any, **kwargs: Any) -> tuple[tuple[int, ...], dtype]:
    return shape_of(self), float_result(self._dtype)


def rule_same(self: Tensor, *args: Any, **kwargs: Any) -> tuple[tuple[int, ...], dtype]:
    return shape_of(self), self._dtype


def rule_abs(self: Tensor) -> tuple[tuple[int, ...], dtype]:
    return shape_of(self), self._dtype.to_real()


def rule_bool(self: Tensor, *args: Any, **kwargs: Any) -> tuple[tuple[int, ...], dtype]:
    return shape_of(self), bool_


def check_unary_same(name: str, dt: dtype) -> None:
    """The dtype checks of the same-dtype unary ops."""
    if name == "neg" and dt is bool_:
        raise RuntimeError(
            "Negation, the `-` operator, on a bool tensor is not supported. If you are trying "
            "to invert a mask, use the `~` or `logical_not()` operator instead."
        )
    if name == "sign" and dt.is_complex:
        raise NotImplementedError(
            "Unlike NumPy, torch.sign is not intended to support complex numbers. Please use "
            "torch.sgn instead."
        )
    if name == "relu" and dt is bool_:
        raise RuntimeError("Boolean inputs not supported for relu")
    check_support(name, dt)


def _unary_check(name: str) -> Callable[..., None]:
    def check(self: Tensor, *args: Any, **kwargs: Any) -> None:
        check_unary_same(name, self._dtype)

    return check


for _name in UNARY_FLOAT:
    _family(_name, "Tensor self", rule_float)
for _name in UNARY_SAME:
    _family(
        _name,
        "Tensor self",
        rule_abs if _name == "abs" else rule_same,
        _unary_check(_name),
        out_check="found",
    )
_family("relu", "Tensor self", rule_same, _unary_check("relu"), out_check="cpp")


def _no_complex(name: str) -> Callable[..., None]:
    def check(self: Tensor) -> None:
        if self._dtype.is_complex:
            raise RuntimeError(f"{name} is not implemented for complex tensors.")

    return check


_family("logical_not", "Tensor self", rule_bool, out_check="any")
_family("isnan", "Tensor self", rule_bool, inplace=False, out_check="cpp")
# isinf of an integral tensor is zeros_like(self, bool): empty_like's layout.
defop_isinf = _family("isinf", "Tensor self", rule_bool, inplace=False, out_check="cpp")
for _name in ("signbit", "isposinf", "isneginf"):
    _family(_name, "Tensor self", rule_bool, _no_complex(_name), inplace=False, out_check="bool")


def _isinf_meta(self: Tensor) -> Tensor:
    layout = "iter" if self._dtype.category >= 2 else "like"
    return _result(shape_of(self), bool_, layout, (self,), {})


register_meta(defop_isinf, _isinf_meta)


def check_activation(name: str, self: Tensor, *args: Any, **kwargs: Any) -> None:
    """Argument and dtype checks of the activation functions."""
    dt = self._dtype
    if name == "gelu":
        approximate = kwargs.get("approximate", args[0] if args else "none")
        if approximate not in ("none", "tanh"):
            raise RuntimeError("approximate argument must be either none or tanh.")
    elif name == "celu":
        alpha = kwargs.get("alpha", args[0] if args else 1.0)
        if alpha == 0:
            raise RuntimeError("ZeroDivisionError: alpha cannot be 0 for CELU")
    elif name == "hardtanh":
        if dt is bool_:
            raise RuntimeError("Bool inputs not supported for hardtanh")
        lo = kwargs.get("min_val", args[0] if args else -1)
        hi = kwargs.get("max_val", args[1] if len(args) > 1 else 1)
        if dt is uint8 and (lo < 0 or hi < 0):
            raise RuntimeError("cannot do hardtanh on an unsigned type with negative limits")
        return
    check_support(name, dt)


def _act_check(name: str) -> Callable[..., None]:
    def check(self: Tensor, *args: Any, **kwargs: Any) -> None:
        check_activation(name, self, *args, **kwargs)

    return check


for _name, _params in (
    ("silu", ""),
    ("mish", ""),
    ("hardsigmoid", ""),
    ("hardswish", ""),
    ("gelu", ', *, str approximate="none"'),
    ("leaky_relu", ", Scalar negative_slope=0.01"),
    ("elu", ", Scalar alpha=1, Scalar scale=1, Scalar input_scale=1"),
):
    _family(_name, f"Tensor self{_params}", rule_same, _act_check(_name), out_check="found")
_family(
    "hardtanh",
    "Tensor self, Scalar min_val=-1, Scalar max_val=1",
    rule_same,
    _act_check("hardtanh"),
    layout="like",
    out_check="found",
)
_family(
    "softplus",
    "Tensor self, Scalar beta=1, Scalar threshold=20",
    rule_same,
    _act_check("softplus"),
    inplace=False,
    out_check="found",
)
_family("celu", "Tensor self, Scalar alpha=1.0", rule_same, _act_check("celu"), out_check="cpp")


def _threshold_check(self: Tensor, threshold: Any, value: Any) -> None:
    check_support("threshold", self._dtype)


_family("threshold", "Tensor self, Scalar threshold, Scalar value", rule_same, _threshold_check)
_family("logit", "Tensor self, float? eps=None", rule_float)


def check_round_decimals(dt: dtype, decimals: int) -> None:
    if dt.category <= 1:
        raise not_implemented("round_cpu", dt)


def _round_decimals_check(self: Tensor, *, decimals: int) -> None:
    check_round_decimals(self._dtype, decimals)


_family(
    "round.decimals",
    "Tensor self, *, int decimals",
    rule_same,
    _round_decimals_check,
    out="decimals_out",
    out_check="found",
)
_family(
    "nan_to_num",
    "Tensor self, float? nan=None, float? posinf=None, float? neginf=None",
    rule_same,
    out_check="nan_to_num",
)


# -- clamp


def _bounds(lo: Any, hi: Any) -> list[Any]:
    bounds = [b for b in (lo, hi) if b is not None]
    if not bounds:
        raise RuntimeError("torch.clamp: At least one of 'min' or 'max' must not be None")
    return bounds


def clamp_dtype(self: Tensor, lo: Any, hi: Any, op: str) -> dtype:
    """clamp's result dtype: promotion over self and the given bounds; checks as PyTorch."""
    dt = result_type(self, *_bounds(lo, hi))
    check_support(op, dt)
    if dt.category == 1:
        for b in (lo, hi):
            if b is not None and not isinstance(b, Tensor):
                checked_scalar(b, dt)
    return dt


def _clamp_rule(self: Tensor, min: Any = None, max: Any = None) -> tuple[Any, dtype]:  # noqa: A002
    bounds = _bounds(min, max)
    shape = broadcast_shapes(*(shape_of(x) for x in (self, *bounds) if isinstance(x, Tensor)))
    return shape, result_type(self, *bounds)


def _clamp_check(op: str) -> Callable[..., None]:
    def check(self: Tensor, min: Any = None, max: Any = None) -> None:  # noqa: A002
        clamp_dtype(self, min, max, op)

    return check


def _clamp_min_rule(self: Tensor, min: Any) -> tuple[Any, dtype]:  # noqa: A002
    return _clamp_rule(self, min, None)


def _clamp_max_rule(self: Tensor, max: Any) -> tuple[Any, dtype]:  # noqa: A002
    return _clamp_rule(self, None, max)


def _clamp_min_check(op: str) -> Callable[..., None]:
    def check(self: Tensor, min: Any) -> None:  # noqa: A002
        clamp_dtype(self, min, None, op)

    return check


def _clamp_max_check(op: str) -> Callable[..., None]:
    def check(self: Tensor, max: Any) -> None:  # noqa: A002
        clamp_dtype(self, None, max, op)

    return check


_family(
    "clamp",
    "Tensor self, Scalar? min=None, Scalar? max=None",
    _clamp_rule,
    _clamp_check("clamp"),
    out_check="found",
    inplace_cpp_names=True,
)
_family(
    "clamp.Tensor",
    "Tensor self, Tensor? min=None, Tensor? max=None",
    _clamp_rule,
    _clamp_check("clamp.Tensor"),
    out="Tensor_out",
)
_family(
    "clamp_min",
    "Tensor self, Scalar min",
    _clamp_min_rule,
    _clamp_min_check("clamp_min"),
    out_check="found",
    inplace_cpp_names=True,
)
_family(
    "clamp_min.Tensor",
    "Tensor self, Tensor min",
    _clamp_min_rule,
    _clamp_min_check("clamp_min.Tensor"),
    out="Tensor_out",
)
_family(
    "clamp_max",
    "Tensor self, Scalar max",
    _clamp_max_rule,
    _clamp_max_check("clamp_max"),
    out_check="found",
    inplace_cpp_names=True,
)
_family(
    "clamp_max.Tensor",
    "Tensor self, Tensor max",
    _clamp_max_rule,
    _clamp_max_check("clamp_max.Tensor"),
    out="Tensor_out",
)
