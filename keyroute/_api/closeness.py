"""`keyroute.isclose` and `keyroute.allclose`: composites over aten ops, as PyTorch's
(CompositeImplicitAutograd: `|a - b| <= atol + rtol * |b|`, equal values and, with
equal_nan, both-NaN pairs counting as close, infinities close only to themselves)."""

from __future__ import annotations

from ..tensor._tensor import Tensor
from . import function, method


@function
@method
def isclose(
    self: Tensor, other: Tensor, rtol: float = 1e-05, atol: float = 1e-08, equal_nan: bool = False
) -> Tensor:
    if self.dtype != other.dtype:
        raise RuntimeError(f"{self.dtype._short} did not match {other.dtype._short}")
    if self.is_complex() and equal_nan:
        raise RuntimeError("isclose with equal_nan=True is not supported for complex inputs.")
    if rtol < 0:
        raise RuntimeError(f"rtol must be greater than or equal to zero, but got {rtol}")
    if atol < 0:
        raise RuntimeError(f"atol must be greater than or equal to zero, but got {atol}")
    close = self == other
    if equal_nan and self.is_floating_point():
        close = close | (self.isnan() & other.isnan())
    if self.dtype.name == "bool":
        return close
    allowed = (other * rtol).abs() + atol
    actual = (self - other).abs()
    return close | (actual.isfinite() & (actual <= allowed))


@function
@method
def allclose(
    self: Tensor, other: Tensor, rtol: float = 1e-05, atol: float = 1e-08, equal_nan: bool = False
) -> bool:
    return bool(isclose(self, other, rtol, atol, equal_nan).all().item())
