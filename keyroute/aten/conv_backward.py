"""aten::convolution_backward: the gradients of aten::convolution (input, weight, bias)."""

from __future__ import annotations

from typing import Any

from ._define import meta
from ._meta_util import new_meta, shape_of


def check_grad_output(
    grad_output: Any,
    input: Any,  # noqa: A002
    weight: Any,
    stride: Any,
    padding: Any,
    dilation: Any,
    transposed: bool,
    output_padding: Any,
    groups: int,
) -> tuple[int, ...]:
    """The forward's checks (check_shape_backward), then grad_output against the forward's
    output shape as the CPU kernels' check_dim_size words it (a 1-d convolution viewed as 2-d).
    Returns that shape."""
    from .nn import conv_output_shape

    shape = conv_output_shape(
        input, weight, None, stride, padding, dilation, transposed, output_padding, groups
    )
    got = shape_of(grad_output)
    lead = 1 if len(shape) == 3 else 0
    ndim = len(shape) + lead
    for d in (1, *range(2, len(shape))):
        if len(got) != len(shape) or got[d] != shape[d]:
            idx = d + lead if d > 1 else d
            size = got[d] if d < len(got) else "?"
            raise RuntimeError(
                f"Expected a tensor of dimension {ndim} and tensor.size[{idx}] == {shape[d]} but "
                f"got: dimension {len(got) + lead} and tensor.size[{idx}] = {size}"
            )
    return shape


@meta(
    "convolution_backward(Tensor grad_output, Tensor input, Tensor weight, SymInt[]? bias_sizes, "
    "SymInt[] stride, SymInt[] padding, SymInt[] dilation, bool transposed, SymInt[] "
    "output_padding, SymInt groups, bool[3] output_mask) -> (Tensor, Tensor, Tensor)"
)
def convolution_backward(
    grad_output: Any,
    input: Any,  # noqa: A002
    weight: Any,
    bias_sizes: Any,
    stride: Any,
    padding: Any,
    dilation: Any,
    transposed: bool,
    output_padding: Any,
    groups: int,
    output_mask: Any,
) -> Any:
    check_grad_output(
        grad_output, input, weight, stride, padding, dilation, transposed, output_padding, groups
    )
    mask = list(output_mask)
    dt = grad_output._dtype
    g_in = new_meta(shape_of(input), dt) if mask[0] else None
    g_w = new_meta(shape_of(weight), dt) if mask[1] else None
    # The CPU kernels sum grad_output over all but the channel dim whatever bias_sizes says.
    g_b = new_meta((shape_of(grad_output)[1],), dt) if mask[2] else None
    return g_in, g_w, g_b
