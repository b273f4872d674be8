"""Derivatives of angle, polar and complex (aten/complex_ops.py), as PyTorch's
derivatives.yaml and FunctionsManual.cpp (angle_backward, polar_backward)."""

from __future__ import annotations

from ..._ops import ops
from ._registry import derivative

aten = ops.aten


@derivative("angle", "AngleBackward0", save=("self",))
def _angle(grad, self):
    if not self._dtype.is_complex:
        return (aten.zeros_like.default(self),)
    # grad * self / |self|^2 * i, and 0 where self is 0
    step = aten.mul.Scalar(
        aten.div.Tensor(
            aten.mul.Tensor(grad, self), aten.pow.Tensor_Scalar(aten.abs.default(self), 2)
        ),
        1j,
    )
    zero = aten.zeros.default([], dtype=self._dtype)
    return (aten.where.self(aten.eq.Scalar(self, 0.0), zero, step),)


@derivative("polar", "PolarBackward0", save=("result",))
def _polar(grad, result):
    g = aten.conj.default(grad)
    grad_abs = aten.real.default(aten.mul.Tensor(g, aten.sgn.default(result)))
    grad_angle = aten.real.default(aten.mul.Tensor(g, aten.mul.Scalar(result, 1j)))
    return grad_abs, grad_angle


@derivative("complex", "ComplexBackward0")
def _complex(grad):
    return aten.real.default(grad), aten.imag.default(grad)
