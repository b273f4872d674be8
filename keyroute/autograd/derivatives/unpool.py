"""Derivatives of max_unpool2d / max_unpool3d (aten/nn/unpool.py): derivatives.yaml's
max_pool_double_backward, the gradient gathered at each pooling index."""

from __future__ import annotations

from ._registry import aten, derivative


def _max_pool_double_backward(grad, indices, nd: int):  # noqa: ANN001, ANN202
    if indices.numel() == 0:
        return aten.empty_like.default(indices, dtype=grad.dtype)
    size = [*indices.shape[: indices.dim() - nd], -1]
    g = aten.view.default(aten.contiguous.default(grad), size)
    out = aten.gather.default(g, -1, aten.view.default(indices, size))
    return aten.view.default(out, list(indices.shape))


@derivative("max_unpool2d", "MaxUnpool2DBackward0", save=("indices",), inputs=("self",))
def _max_unpool2d(grad, indices):
    return (_max_pool_double_backward(grad, indices, 2),)


@derivative("max_unpool3d", "MaxUnpool3DBackward0", save=("indices",), inputs=("self",))
def _max_unpool3d(grad, indices):
    return (_max_pool_double_backward(grad, indices, 3),)
