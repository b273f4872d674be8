"""torch.angle, torch.polar, torch.complex, torch.isreal and Tensor.angle / Tensor.isreal
(aten/complex_ops.py)."""

from __future__ import annotations

from .._ops import ops
from ..tensor._tensor import Tensor
from . import function, method
from ._out import write_out

A = ops.aten


@function
@method
def angle(input: Tensor, *, out: Tensor | None = None) -> Tensor:  # noqa: A002
    return write_out(A.angle.default(input), out)


@function
def polar(abs: Tensor, angle: Tensor, *, out: Tensor | None = None) -> Tensor:  # noqa: A002
    return write_out(A.polar.default(abs, angle), out)


@function
def complex(real: Tensor, imag: Tensor, *, out: Tensor | None = None) -> Tensor:  # noqa: A001
    return write_out(A.complex.default(real, imag), out)


@function
@method
def isreal(input: Tensor) -> Tensor:  # noqa: A002
    return A.isreal.default(input)
