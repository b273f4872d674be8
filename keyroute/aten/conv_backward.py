"""aten::convolution_backward: the gradients of aten::convolution (input, weight, bias)."""

from __future__ import annotations

from typing import Any

from ._define import meta
from ._meta_util import check, new_meta


@meta(
    "convolution_backward(Tensor grad_output, Tensor input, Tensor weight, SymInt[]? bias_sizes, "
    "SymInt[] stride, SymInt[] padding, SymInt[] dilation, bool transposed, SymInt[] "
    "output_padding, SymInt groups, bool[3] output_mask) -> (Tensor, Tensor, Tensor)"
)
def convolution_backward(
    grad_output: Any,
    input: Any,
    weight: Any,
    bias_sizes: Any,
    stride: Any,  # noqa: A002
    padding: Any,
    dilation: Any,
    transposed: bool,
    output_padding: Any,
    groups: int,
    output_mask: Any,
) -> Any:
    check(not transposed, "keyroute's convolution_backward supports non-transposed convolutions")
    mask = list(output_mask)
    g_in = new_meta(input.shape, input._dtype) if mask[0] else None
    g_w = new_meta(weight.shape, weight._dtype) if mask[1] else None
    g_b = (
        new_meta(list(bias_sizes), grad_output._dtype)
        if mask[2] and bias_sizes is not None
        else None
    )
    return g_in, g_w, g_b
