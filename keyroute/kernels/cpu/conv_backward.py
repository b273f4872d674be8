"""CPU kernel of aten::convolution_backward, transposed or not (any stride, padding,
output_padding, dilation, groups).

The gradients are convolutions themselves, computed with the forward's NumPy primitives
(kernels/cpu/nn.py): the input gradient of a convolution is the transposed convolution of
grad_output (GEMM then col2im) and that of a transposed convolution the correlation of the
padded grad_output (im2col then GEMM); the weight gradient is a batched GEMM of one operand
against the im2col columns of the other, summed over the batch (a transposed convolution's two
gradients share one im2col).
"""

from __future__ import annotations

from typing import Any

import numpy as np

from ...aten import nn as _nn
from ...aten.conv_backward import check_grad_output
from ._kernel import kernel
from .nn import _comp, conv_cols_gemm, conv_gemm_col2im, conv_im2col, conv_weight_grad, wrap


def _pad(a: np.ndarray, padding: Any) -> np.ndarray:
    if not any(padding):
        return a
    return np.pad(a, [(0, 0), (0, 0), *((p, p) for p in padding)])


@kernel("convolution_backward")
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
    dt = grad_output._dtype
    go, x, w = grad_output._data, input._data, weight._data
    nsp = w.ndim - 2
    stride = _nn._ints(stride, nsp)
    padding = _nn._ints(padding, nsp)
    dilation = _nn._ints(dilation, nsp)
    comp = _comp(dt)  # float16/bfloat16 accumulate in float32, as PyTorch's opmath
    go, x, w = go.astype(comp, copy=False), x.astype(comp, copy=False), w.astype(comp, copy=False)
    ksz, isz, osz = w.shape[2:], x.shape[2:], go.shape[2:]
    mask = list(output_mask)
    g_in = g_w = g_b = None
    if transposed and (mask[0] or mask[1]):
        # The windows of the padded grad_output at the input's positions serve both gradients.
        cols = conv_im2col(_pad(go, padding), groups, ksz, stride, dilation, isz)
        if mask[0]:
            g_in = wrap(conv_cols_gemm(cols, w, groups, isz).astype(dt.np, copy=False), dt)
        if mask[1]:
            # weight (Cin, Cout/G, *K): input channels against grad_output windows.
            gw = conv_weight_grad(x, cols, groups)
            g_w = wrap(gw.reshape(w.shape).astype(dt.np, copy=False), dt)
    if not transposed and mask[0]:
        full = [isz[i] + 2 * padding[i] for i in range(nsp)]
        gi = conv_gemm_col2im(go, w, groups, stride, dilation, full)
        if any(padding):
            crop = tuple(slice(p, p + n) for p, n in zip(padding, isz))
            gi = np.ascontiguousarray(gi[(slice(None), slice(None), *crop)])
        g_in = wrap(gi.astype(dt.np, copy=False), dt)
    if not transposed and mask[1]:
        # weight (Cout, Cin/G, *K): grad_output channels against input windows.
        cols = conv_im2col(_pad(x, padding), groups, ksz, stride, dilation, osz)
        g_w = wrap(
            conv_weight_grad(go, cols, groups).reshape(w.shape).astype(dt.np, copy=False), dt
        )
    if mask[2]:
        axes = (0, *range(2, go.ndim))
        g_b = wrap(np.add.reduce(go, axis=axes).astype(dt.np, copy=False), dt)
    return g_in, g_w, g_b
