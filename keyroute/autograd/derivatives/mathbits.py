"""Derivative formulas of the complex views and math bits (aten/mathbits.py), as PyTorch's
derivatives.yaml: the gradient of a conjugate view is the gradient's conjugate, of a negative
view its negation; view_as_real and view_as_complex swap the gradient's view back."""

from __future__ import annotations

from ..._ops import ops
from ._registry import derivative

aten = ops.aten


@derivative("_conj", "ConjBackward0")
def _conj(grad):
    return (aten._conj.default(grad),)


@derivative("_neg_view", "NegViewBackward0")
def _neg_view(grad):
    return (aten._neg_view.default(grad),)


@derivative("_conj_physical", "ConjPhysicalBackward0")
def _conj_physical(grad):
    return (aten.conj_physical.default(grad),)


@derivative("view_as_real", "ViewAsRealBackward0")
def _view_as_real(grad):
    return (aten.view_as_complex.default(aten.contiguous.default(grad)),)


@derivative("view_as_complex", "ViewAsComplexBackward0")
def _view_as_complex(grad):
    return (aten.view_as_real.default(aten.resolve_conj.default(aten.contiguous.default(grad))),)


@derivative("conj_physical_", "ConjPhysicalBackward1")
def _conj_physical_(grad):
    return (aten.conj_physical.default(grad),)
