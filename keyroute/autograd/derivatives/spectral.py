"""Derivative of unfold_backward (aten/spectral.py): Tensor.unfold of the gradient, as
derivatives.yaml's UnfoldBackwardBackward0. stft and istft are decompositions (no entry)."""

from __future__ import annotations

from ._registry import aten, derivative


@derivative("unfold_backward", "UnfoldBackwardBackward0", save=("dim", "size", "step"))
def _unfold_backward(grad, dim, size, step):
    return (aten.unfold.default(grad, dim, size, step),)
