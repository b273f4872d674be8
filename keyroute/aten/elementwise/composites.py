"""Composite (CompositeImplicitAutograd) elementwise operators: aliases (``absolute`` -> ``abs``),
the dunders, square, isfinite and float_power, decomposed into the aten calls PyTorch's make."""

from __future__ import annotations

import math
from typing import Any

from ...tensor._tensor import Tensor
from ...tensor.dtype import (
    bool_,
    complex128,
    dtype,
    float64,
)
from .._define import aten, aten_lib, composite, defop
from .._meta_util import shape_of
from .family import _params_inplace, _params_out
from .ternary import _to

# ----------------------------------------------------------------------------- composites


def _ops() -> Any:
    from ..._ops import ops

    return ops.aten


def _alias(
    alias: str,
    target: str,
    params: str,
    *,
    inplace: bool = True,
    out: str | None = "out",
    overload: str = "",
) -> None:
    """A CompositeImplicitAutograd alias: each form calls the target's same form."""
    q = f"{alias}.{overload}" if overload else alias
    tq = f"{target}.{overload}" if overload else target

    def functional(*args: Any, **kwargs: Any) -> Any:
        return aten(tq)(*args, **kwargs)

    aten_lib.impl(defop(f"{q}({params}) -> Tensor"), functional, "CompositeImplicitAutograd")
    if inplace:
        iq = f"{alias}_.{overload}" if overload else f"{alias}_"
        itq = f"{target}_.{overload}" if overload else f"{target}_"

        def inplace_fn(*args: Any, **kwargs: Any) -> Any:
            return aten(itq)(*args, **kwargs)

        aten_lib.impl(
            defop(f"{iq}({_params_inplace(params)}) -> Tensor(a!)"),
            inplace_fn,
            "CompositeImplicitAutograd",
        )
    if out:

        def out_fn(*args: Any, **kwargs: Any) -> Any:
            return aten(f"{target}.{out}")(*args, **kwargs)

        aten_lib.impl(
            defop(f"{alias}.{out}({_params_out(params)}) -> Tensor(a!)"),
            out_fn,
            "CompositeImplicitAutograd",
        )


for _alias_name, _target in (
    ("absolute", "abs"),
    ("negative", "neg"),
    ("fix", "trunc"),
    ("arcsin", "asin"),
    ("arccos", "acos"),
    ("arctan", "atan"),
    ("arcsinh", "asinh"),
    ("arccosh", "acosh"),
    ("arctanh", "atanh"),
):
    _alias(_alias_name, _target, "Tensor self")
_alias("arctan2", "atan2", "Tensor self, Tensor other")
_alias("clip", "clamp", "Tensor self, Scalar? min=None, Scalar? max=None")
_alias(
    "clip",
    "clamp",
    "Tensor self, Tensor? min=None, Tensor? max=None",
    overload="Tensor",
    out="Tensor_out",
)
for _alias_name, _target, _a in (("subtract", "sub", True), ("multiply", "mul", False)):
    _alias(
        _alias_name,
        _target,
        f"Tensor self, Tensor other{', *, Scalar alpha=1' if _a else ''}",
        overload="Tensor",
    )
    _alias(
        _alias_name,
        _target,
        f"Tensor self, Scalar other{', Scalar alpha=1' if _a else ''}",
        overload="Scalar",
        out=None,
    )
for _alias_name in ("divide", "true_divide"):
    _alias(_alias_name, "div", "Tensor self, Tensor other", overload="Tensor")
    _alias(_alias_name, "div", "Tensor self, Scalar other", overload="Scalar", out=None)
_alias(
    "divide",
    "div",
    "Tensor self, Tensor other, *, str? rounding_mode",
    overload="Tensor_mode",
    out="out_mode",
)
_alias(
    "divide",
    "div",
    "Tensor self, Scalar other, *, str? rounding_mode",
    overload="Scalar_mode",
    out=None,
)
for _alias_name, _target in (
    ("greater", "gt"),
    ("greater_equal", "ge"),
    ("less", "lt"),
    ("less_equal", "le"),
    ("not_equal", "ne"),
):
    _alias(_alias_name, _target, "Tensor self, Tensor other", overload="Tensor", out="Tensor_out")
    _alias(_alias_name, _target, "Tensor self, Scalar other", overload="Scalar", out="Scalar_out")
for _dunder, _target in (
    ("__and__", "bitwise_and"),
    ("__or__", "bitwise_or"),
    ("__xor__", "bitwise_xor"),
):
    for _ov, _p in (("Tensor", "Tensor other"), ("Scalar", "Scalar other")):
        _tq = f"{_target}.{_ov}"
        aten_lib.impl(
            defop(f"{_dunder}.{_ov}(Tensor self, {_p}) -> Tensor"),
            (lambda q: lambda *a, **k: aten(q)(*a, **k))(_tq),
            "CompositeImplicitAutograd",
        )
        aten_lib.impl(
            defop(f"__i{_dunder[2:]}.{_ov}(Tensor(a!) self, {_p}) -> Tensor(a!)"),
            (lambda q: lambda *a, **k: aten(q)(*a, **k))(f"{_target}_.{_ov}"),
            "CompositeImplicitAutograd",
        )


@composite("square(Tensor self) -> Tensor")
def square(self):
    return _ops().pow.Tensor_Scalar(self, 2)


@composite("square_(Tensor(a!) self) -> Tensor(a!)")
def square_(self):
    return _ops().pow_.Scalar(self, 2)


@composite("square.out(Tensor self, *, Tensor(a!) out) -> Tensor(a!)")
def square_out(self, *, out):
    return _ops().pow.Tensor_Scalar_out(self, 2, out=out)


@composite("isfinite(Tensor self) -> Tensor")
def isfinite(self):
    a = _ops()
    if self._dtype.category <= 1:
        from ...tensor.layout import preserve_format

        return a.ones_like.default(self, dtype=bool_, memory_format=preserve_format)
    if self._dtype.is_complex and _has_op("view_as_real") and _has_op("select"):
        # isfinite(real(self)) &= isfinite(imag(self)); real/imag select the last dim
        d = len(shape_of(self))
        real = a.select.int(a.view_as_real.default(self), d, 0)
        real_ok = _isfinite_real(real)
        imag = a.select.int(a.view_as_real.default(self), d, 1)
        return a.bitwise_and_.Tensor(real_ok, _isfinite_real(imag))
    return _isfinite_real(self)


def _has_op(name: str) -> bool:
    try:
        aten(name if name != "select" else "select.int")
        return True
    except KeyError:
        return False


def _isfinite_real(self: Tensor) -> Tensor:
    a = _ops()
    finite = a.ne.Scalar(a.abs.default(self), math.inf)
    not_nan = a.eq.Tensor(self, self)
    return a.mul.Tensor(not_nan, finite)


# -- float_power: the operands go to float64 (complex128), then pow


def _float_power_dtype(*operands: Any) -> dtype:
    cplx = any(
        (isinstance(x, Tensor) and x._dtype.is_complex) or isinstance(x, complex) for x in operands
    )
    return complex128 if cplx else float64


def _as_double(v: Any, dt: dtype) -> Any:
    return complex(v) if dt is complex128 else float(v)


@composite("float_power.Tensor_Tensor(Tensor self, Tensor exponent) -> Tensor")
def float_power_Tensor_Tensor(self, exponent):
    dt = _float_power_dtype(self, exponent)
    exp_t = _to(exponent, dt)
    return _ops().pow.Tensor_Tensor(_to(self, dt), exp_t)


@composite("float_power.Tensor_Scalar(Tensor self, Scalar exponent) -> Tensor")
def float_power_Tensor_Scalar(self, exponent):
    dt = _float_power_dtype(self, exponent)
    return _ops().pow.Tensor_Scalar(_to(self, dt), _as_double(exponent, dt))


@composite("float_power.Scalar(Scalar self, Tensor exponent) -> Tensor")
def float_power_Scalar(self, exponent):
    dt = _float_power_dtype(self, exponent)
    return _ops().pow.Scalar(_as_double(self, dt), _to(exponent, dt))


def _float_power_out_check(out: Tensor, dt: dtype) -> None:
    if out._dtype is not dt:
        raise RuntimeError(
            f"the output given to float_power has dtype {out._dtype._short} but the operation's "
            f"result requires dtype {dt._short}"
        )


@composite(
    "float_power.Tensor_Tensor_out(Tensor self, Tensor exponent, *, Tensor(a!) out) -> Tensor(a!)"
)
def float_power_Tensor_Tensor_out(self, exponent, *, out):
    dt = _float_power_dtype(self, exponent)
    _float_power_out_check(out, dt)
    exp_t = _to(exponent, dt)
    return _ops().pow.Tensor_Tensor_out(_to(self, dt), exp_t, out=out)


@composite(
    "float_power.Tensor_Scalar_out(Tensor self, Scalar exponent, *, Tensor(a!) out) -> Tensor(a!)"
)
def float_power_Tensor_Scalar_out(self, exponent, *, out):
    dt = _float_power_dtype(self, exponent)
    _float_power_out_check(out, dt)
    return _ops().pow.Tensor_Scalar_out(_to(self, dt), _as_double(exponent, dt), out=out)


@composite("float_power.Scalar_out(Scalar self, Tensor exponent, *, Tensor(a!) out) -> Tensor(a!)")
def float_power_Scalar_out(self, exponent, *, out):
    dt = _float_power_dtype(self, exponent)
    _float_power_out_check(out, dt)
    return _ops().pow.Scalar_out(_as_double(self, dt), _to(exponent, dt), out=out)


def _float_power_inplace_check(self: Tensor, dt: dtype) -> None:
    if self._dtype is not dt:
        raise RuntimeError(
            f"the base given to float_power_ has dtype {self._dtype._short} but the operation's "
            f"result requires dtype {dt._short}"
        )


@composite("float_power_.Scalar(Tensor(a!) self, Scalar exponent) -> Tensor(a!)")
def float_power__Scalar(self, exponent):
    dt = _float_power_dtype(self, exponent)
    _float_power_inplace_check(self, dt)
    return _ops().pow_.Scalar(self, _as_double(exponent, dt))


@composite("float_power_.Tensor(Tensor(a!) self, Tensor exponent) -> Tensor(a!)")
def float_power__Tensor(self, exponent):
    dt = _float_power_dtype(self, exponent)
    _float_power_inplace_check(self, dt)
    return _ops().pow_.Tensor(self, _to(exponent, dt))
