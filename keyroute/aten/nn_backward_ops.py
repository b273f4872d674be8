"""The activation, loss, normalisation, embedding and pooling backward operators PyTorch's
derivative formulas call (derivatives.yaml: `gelu: gelu_backward(grad, self, approximate)`,
`native_layer_norm: native_layer_norm_backward(...)`, `embedding: embedding_dense_backward`
through the CompositeImplicitAutograd `embedding_backward`, ...), with PyTorch's schemas.

A dispatch mode, the profiler and an AOT backward graph therefore see PyTorch's one call per
gradient instead of a chain of elementwise calls; the CPU kernels (kernels/cpu/nn_backward_ops.py)
are one NumPy pass each.
"""

from __future__ import annotations

from typing import Any

from ._define import aten, aten_lib, composite, meta
from ._meta_util import check, elementwise, new_meta, shape_of
from ._promotion import result_type

__all__: list[str] = []


def _pointwise(grad_output: Any, self: Any) -> Any:
    return elementwise(grad_output, self, dt=result_type(grad_output, self))


@meta("gelu_backward(Tensor grad_output, Tensor self, *, str approximate='none') -> Tensor")
def gelu_backward(grad_output, self, approximate="none"):
    check(approximate in ("none", "tanh"), "approximate argument must be either none or tanh.")
    return _pointwise(grad_output, self)


@meta("silu_backward(Tensor grad_output, Tensor self) -> Tensor")
def silu_backward(grad_output, self):
    return _pointwise(grad_output, self)


@meta("mish_backward(Tensor grad_output, Tensor self) -> Tensor")
def mish_backward(grad_output, self):
    return _pointwise(grad_output, self)


@meta("softplus_backward(Tensor grad_output, Tensor self, Scalar beta, Scalar threshold) -> Tensor")
def softplus_backward(grad_output, self, beta, threshold):
    return _pointwise(grad_output, self)


@meta(
    "leaky_relu_backward(Tensor grad_output, Tensor self, Scalar negative_slope, bool "
    "self_is_result) -> Tensor"
)
def leaky_relu_backward(grad_output, self, negative_slope, self_is_result):
    check(
        not (self_is_result and negative_slope < 0),
        "In-place leakyReLu backward calculation is triggered with a negative slope which is "
        "not supported. This is caused by calling in-place forward function with a negative "
        "slope, please call out-of-place version instead. File an issue at "
        "https://github.com/pytorch/pytorch if you do require supporting in-place leakRelu "
        "backward calculation with negative slope",
    )
    return _pointwise(grad_output, self)


@meta(
    "hardtanh_backward(Tensor grad_output, Tensor self, Scalar min_val, Scalar max_val) -> Tensor"
)
def hardtanh_backward(grad_output, self, min_val, max_val):
    return _pointwise(grad_output, self)


@meta(
    "elu_backward(Tensor grad_output, Scalar alpha, Scalar scale, Scalar input_scale, bool "
    "is_result, Tensor self_or_result) -> Tensor"
)
def elu_backward(grad_output, alpha, scale, input_scale, is_result, self_or_result):
    check(
        not (is_result and alpha < 0),
        "In-place elu backward calculation is triggered with a negative slope which is not "
        "supported. This is caused by calling in-place forward function with a negative slope, "
        "please call out-of-place version instead.",
    )
    return _pointwise(grad_output, self_or_result)


@meta("hardsigmoid_backward(Tensor grad_output, Tensor self) -> Tensor")
def hardsigmoid_backward(grad_output, self):
    return _pointwise(grad_output, self)


@meta("hardswish_backward(Tensor grad_output, Tensor self) -> Tensor")
def hardswish_backward(grad_output, self):
    return _pointwise(grad_output, self)


@meta("logit_backward(Tensor grad_output, Tensor self, float? eps=None) -> Tensor")
def logit_backward(grad_output, self, eps=None):
    return _pointwise(grad_output, self)


# ----------------------------------------------------------------------------- losses


@meta("mse_loss_backward(Tensor grad_output, Tensor self, Tensor target, int reduction) -> Tensor")
def mse_loss_backward(grad_output, self, target, reduction):
    return elementwise(grad_output, self, target, dt=result_type(self, target))


@meta(
    "binary_cross_entropy_backward(Tensor grad_output, Tensor self, Tensor target, Tensor? "
    "weight=None, int reduction=Mean) -> Tensor"
)
def binary_cross_entropy_backward(grad_output, self, target, weight=None, reduction=1):
    return new_meta(shape_of(self), self._dtype)


# ----------------------------------------------------------------------------- layer norm


@meta(
    "native_layer_norm_backward(Tensor grad_out, Tensor input, SymInt[] normalized_shape, "
    "Tensor mean, Tensor rstd, Tensor? weight, Tensor? bias, bool[3] output_mask) -> "
    "(Tensor, Tensor, Tensor)"
)
def native_layer_norm_backward(
    grad_out, input, normalized_shape, mean, rstd, weight, bias, output_mask
):  # noqa: A002
    shape = shape_of(input)
    nd = len(normalized_shape)
    check(
        nd >= 1 and tuple(shape[len(shape) - nd :]) == tuple(normalized_shape),
        f"Given normalized_shape={list(normalized_shape)}, expected input with shape "
        f"[*, {', '.join(map(str, normalized_shape))}], but got input of size{list(shape)}",
    )
    want_w = output_mask[1] and weight is not None
    want_b = output_mask[2] and bias is not None
    return (
        new_meta(shape, input._dtype) if output_mask[0] else None,
        new_meta(shape_of(weight), weight._dtype) if want_w else None,
        new_meta(shape_of(bias), bias._dtype) if want_b else None,
    )


# ----------------------------------------------------------------------------- embedding


@meta(
    "embedding_dense_backward(Tensor grad_output, Tensor indices, SymInt num_weights, SymInt "
    "padding_idx, bool scale_grad_by_freq) -> Tensor"
)
def embedding_dense_backward(grad_output, indices, num_weights, padding_idx, scale_grad_by_freq):
    check(
        indices._dtype.name in ("int64", "int32"),
        f"embedding_backward: Expected tensor for argument #1 'indices' to have one of the "
        f"following scalar types: Long, Int; but got {indices._dtype} instead",
    )
    shape = shape_of(grad_output)
    return new_meta((num_weights, shape[-1] if shape else 1), grad_output._dtype)


@composite(
    "embedding_backward(Tensor grad, Tensor indices, SymInt num_weights, SymInt padding_idx, "
    "bool scale_grad_by_freq, bool sparse) -> Tensor"
)
def embedding_backward(grad, indices, num_weights, padding_idx, scale_grad_by_freq, sparse):
    # PyTorch's CompositeImplicitAutograd kernel: the dense path is embedding_dense_backward.
    from .._ops import ops

    if sparse:
        raise NotImplementedError("embedding_backward: sparse gradients are not supported")
    return ops.aten.embedding_dense_backward.default(
        grad, indices, num_weights, padding_idx, scale_grad_by_freq
    )


# ----------------------------------------------------------------------------- pooling


@meta(
    "max_pool2d_with_indices_backward(Tensor grad_output, Tensor self, int[2] kernel_size, int[2] "
    "stride, int[2] padding, int[2] dilation, bool ceil_mode, Tensor indices) -> Tensor"
)
def max_pool2d_with_indices_backward(
    grad_output, self, kernel_size, stride, padding, dilation, ceil_mode, indices
):
    check(
        shape_of(grad_output) == shape_of(indices),
        f"Expected a tensor of dimension {len(shape_of(indices))} and tensor.size[0] == ... "
        "(grad_output and indices must have the same shape)",
    )
    return new_meta(shape_of(self), self._dtype)


@meta(
    "avg_pool2d_backward(Tensor grad_output, Tensor self, int[2] kernel_size, int[2] stride, "
    "int[2] padding, bool ceil_mode, bool count_include_pad, int? divisor_override) -> Tensor"
)
def avg_pool2d_backward(
    grad_output, self, kernel_size, stride, padding, ceil_mode, count_include_pad,
    divisor_override,
):  # fmt: skip
    check(divisor_override is None or divisor_override != 0, "divisor must be not zero")
    return new_meta(shape_of(self), self._dtype)


@meta("_adaptive_avg_pool2d_backward(Tensor grad_output, Tensor self) -> Tensor")
def _adaptive_avg_pool2d_backward(grad_output, self):
    shape = shape_of(grad_output)
    for d in range(1 if len(shape) == 4 else 0, len(shape)):
        check(
            shape[d] > 0,
            f"adaptive_avg_pool2d_backward(): Expected grad_output to have non-zero size for "
            f"non-batch dimensions, but grad_output has sizes {list(shape)} with dimension {d} "
            f"being empty",
        )
    return new_meta(shape_of(self), self._dtype)


# ----------------------------------------------------------------------------- math kernels
# silu_backward and mish_backward have CompositeImplicitAutograd kernels in PyTorch (math_*):
# the Autograd key decomposes them when a backend has no kernel of its own; the CPU kernel
# (kernels/cpu/nn_backward_ops.py) is what a backward pass on CPU runs.


def _math_silu_backward(grad_output: Any, self: Any) -> Any:
    from .._ops import ops

    a = ops.aten
    s = a.sigmoid.default(self)
    return a.mul.Tensor(
        grad_output, a.mul.Tensor(s, a.add.Scalar(a.mul.Tensor(self, a.rsub.Scalar(s, 1)), 1))
    )


def _math_mish_backward(grad_output: Any, self: Any) -> Any:
    from .._ops import ops

    a = ops.aten
    t = a.tanh.default(a.softplus.default(self))
    d = a.add.Tensor(
        t,
        a.mul.Tensor(
            a.mul.Tensor(self, a.sigmoid.default(self)), a.rsub.Scalar(a.mul.Tensor(t, t), 1)
        ),
    )
    return a.mul.Tensor(grad_output, d)


aten_lib.impl(aten("silu_backward"), _math_silu_backward, "CompositeImplicitAutograd")
aten_lib.impl(aten("mish_backward"), _math_mish_backward, "CompositeImplicitAutograd")
