"""Derivatives of angle, polar and complex (aten/complex_ops.py), as PyTorch's
derivatives.yaml and FunctionsManual.cpp (angle_backward, polar_backward)."""

from __future__ import annotations

from ..._ops import ops
from ._registry import derivative

A = ops.aten


@derivative("angle", "AngleBackward0", save=("self",))
def _angle(grad, self):
    if not self._dtype.is_complex:
        return (A.zeros_like.default(self),)
    # grad * self / |self|^2 * i, and 0 where self is 0
    step = A.mul.Scalar(
        A.div.Tensor(A.mul.Tensor(grad, self), A.pow.Tensor_Scalar(A.abs.default(self), 2)), 1j
    )
    zero = A.zeros.default([], dtype=self._dtype)
    return (A.where.self(A.eq.Scalar(self, 0.0), zero, step),)


@derivative("polar", "PolarBackward0", save=("result",))
def _polar(grad, result):
    g = A.conj.default(grad)
    grad_abs = A.real.default(A.mul.Tensor(g, A.sgn.default(result)))
    grad_angle = A.real.default(A.mul.Tensor(g, A.mul.Scalar(result, 1j)))
    return grad_abs, grad_angle


@derivative("complex", "ComplexBackward0")
def _complex(grad):
    return A.real.default(grad), A.imag.default(grad)
