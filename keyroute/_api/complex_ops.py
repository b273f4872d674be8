"""torch.angle, torch.polar, torch.complex, torch.isreal and Tensor.angle / Tensor.isreal
(aten/complex_ops.py)."""

from __future__ import annotations

from .._ops import ops
from ..tensor._tensor import Tensor
from . import function, method

A = ops.aten


@function
@method
def angle(input: Tensor) -> Tensor:  # noqa: A002
    return A.angle.default(input)


@function
def polar(abs: Tensor, angle: Tensor) -> Tensor:  # noqa: A002
    return A.polar.default(abs, angle)


@function
def complex(real: Tensor, imag: Tensor) -> Tensor:  # noqa: A001
    return A.complex.default(real, imag)


@function
@method
def isreal(input: Tensor) -> Tensor:  # noqa: A002
    return A.isreal.default(input)
