"""Derivatives of 3-d pooling and adaptive max pooling (aten/nn/pool3d.py), as
derivatives.yaml's: each forward through PyTorch's dedicated backward operator, and each
backward operator's own formula (double backward): the max forms gather the gradient at the
saved indices (max_pool_double_backward), the average forms pool the gradient again; `self`
gets zeros."""

from __future__ import annotations

from ._registry import aten, derivative


def _zeros_like(t):  # noqa: ANN001, ANN202
    return aten.zeros_like.default(t)


def _gather_at(grad, indices, nd: int):  # noqa: ANN001, ANN202
    # max_pool_double_backward: the gradient gathered at each saved argmax position
    if indices.numel() == 0:
        return aten.empty_like.default(indices, dtype=grad.dtype)
    flat = aten.flatten.using_ints(grad, -nd)
    idx = aten.flatten.using_ints(indices, -nd)
    return aten.view.default(aten.gather.default(flat, -1, idx), list(indices.shape))


@derivative(
    "max_pool3d_with_indices",
    "MaxPool3DWithIndicesBackward0",
    inputs=("self",),
    n_outputs=2,
    save=("self", "kernel_size", "stride", "padding", "dilation", "ceil_mode", "result1"),
)
def _max_pool3d(grads, self, kernel_size, stride, padding, dilation, ceil_mode, result1):
    return (
        aten.max_pool3d_with_indices_backward.default(
            grads[0], self, kernel_size, stride, padding, dilation, ceil_mode, result1
        ),
    )


@derivative(
    "max_pool3d_with_indices_backward",
    "MaxPool3DWithIndicesBackwardBackward0",
    inputs=("grad_output", "self"),
    save=("self", "indices"),
)
def _max_pool3d_backward(grad, self, indices):
    return _gather_at(grad, indices, 3), _zeros_like(self)


_AVG_SAVE = (
    "self", "kernel_size", "stride", "padding", "ceil_mode", "count_include_pad",
    "divisor_override",
)  # fmt: skip


@derivative("avg_pool3d", "AvgPool3DBackward0", save=_AVG_SAVE)
def _avg_pool3d(
    grad, self, kernel_size, stride, padding, ceil_mode, count_include_pad, divisor_override
):
    return (
        aten.avg_pool3d_backward.default(
            grad,
            self,
            kernel_size,
            stride,
            padding,
            ceil_mode,
            count_include_pad,
            divisor_override,
        ),
    )


@derivative(
    "avg_pool3d_backward",
    "AvgPool3DBackwardBackward0",
    inputs=("grad_output", "self"),
    save=_AVG_SAVE,
)
def _avg_pool3d_backward(
    grad, self, kernel_size, stride, padding, ceil_mode, count_include_pad, divisor_override
):
    g = aten.avg_pool3d.default(
        grad, kernel_size, stride, padding, ceil_mode, count_include_pad, divisor_override
    )
    return g, _zeros_like(self)


@derivative("_adaptive_avg_pool3d", "AdaptiveAvgPool3DBackward0", save=("self",))
def _adaptive_avg_pool3d(grad, self):
    return (aten._adaptive_avg_pool3d_backward.default(grad, self),)


@derivative(
    "_adaptive_avg_pool3d_backward",
    "AdaptiveAvgPool3DBackwardBackward0",
    inputs=("grad_output", "self"),
    save=("grad_output", "self"),
)
def _adaptive_avg_pool3d_backward(grad, grad_output, self):
    size = list(grad_output.shape[-3:])
    return aten._adaptive_avg_pool3d.default(grad, size), _zeros_like(self)


def _adaptive_max(nd: int) -> None:
    name = f"adaptive_max_pool{nd}d"
    node = f"AdaptiveMaxPool{nd}D"

    @derivative(name, f"{node}Backward0", n_outputs=2, save=("self", "result1"))
    def forward(grads, self, result1):  # noqa: ANN001, ANN202
        return (getattr(aten, f"{name}_backward").default(grads[0], self, result1),)

    @derivative(
        f"{name}_backward",
        f"{node}BackwardBackward0",
        inputs=("grad_output", "self"),
        save=("self", "indices"),
        no_grad=("indices",),
    )
    def backward(grad, self, indices):  # noqa: ANN001, ANN202
        return _gather_at(grad, indices, nd), _zeros_like(self)


_adaptive_max(2)
_adaptive_max(3)
