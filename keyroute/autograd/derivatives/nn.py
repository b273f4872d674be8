"""Derivative formulas of the nn operators (aten/nn/)."""

from __future__ import annotations

import math
from typing import Any

from ..._ops import ops
from ._registry import _shape, _zeros, derivative

A = ops.aten


# ----------------------------------------------------------------------------- nn


def _reduce_factor(reduction: int, n: int) -> float:
    return 1.0 / n if reduction == 1 and n else 1.0


@derivative("mse_loss", "MseLossBackward0", save=("self", "target", "reduction"))
def _mse(grad, self, target, reduction):
    n = self.numel() if reduction == 1 else 1
    scale = 2.0 / n if n else float("nan")  # mean of nothing: the gradient is empty anyway
    g = A.mul.Tensor(A.mul.Scalar(A.sub.Tensor(self, target), scale), grad)
    return g, A.neg.default(g)


@derivative(
    "binary_cross_entropy",
    "BinaryCrossEntropyBackward0",
    save=("self", "target", "weight", "reduction"),
    no_grad=("weight",),
)
def _bce(grad, self, target, weight, reduction):
    n = self.numel() if reduction == 1 else 1
    eps = 1e-12
    denom = A.clamp_min.default(A.mul.Tensor(self, A.rsub.Scalar(self, 1)), eps)
    g_self = A.div.Tensor(A.sub.Tensor(self, target), denom)
    g_target = A.sub.Tensor(A.log.default(A.rsub.Scalar(self, 1)), A.log.default(self))
    if weight is not None:
        g_self = A.mul.Tensor(g_self, weight)
        g_target = A.mul.Tensor(g_target, weight)
    g = A.div.Scalar(grad, n)
    return A.mul.Tensor(g_self, g), A.mul.Tensor(g_target, g), None


@derivative(
    "binary_cross_entropy_with_logits",
    "BinaryCrossEntropyWithLogitsBackward0",
    save=("self", "target", "weight", "pos_weight", "reduction"),
    no_grad=("weight", "pos_weight"),
)
def _bce_logits(grad, self, target, weight, pos_weight, reduction):
    n = self.numel() if reduction == 1 else 1
    sig = A.sigmoid.default(self)
    if pos_weight is None:
        g_self = A.sub.Tensor(sig, target)
        g_target = A.neg.default(self)
    else:
        pt = A.mul.Tensor(pos_weight, target)
        g_self = A.sub.Tensor(A.mul.Tensor(sig, A.add.Tensor(A.rsub.Scalar(target, 1), pt)), pt)
        log_sig = A.log.default(sig)
        log_1m = A.log.default(A.rsub.Scalar(sig, 1))
        g_target = A.sub.Tensor(log_1m, A.mul.Tensor(pos_weight, log_sig))
    if weight is not None:
        g_self = A.mul.Tensor(g_self, weight)
        g_target = A.mul.Tensor(g_target, weight)
    g = A.div.Scalar(grad, n)
    return A.mul.Tensor(g_self, g), A.mul.Tensor(g_target, g), None, None


def _nll_backward(
    grad: Any,
    self: Any,
    target: Any,
    weight: Any,
    reduction: int,
    ignore_index: int,
    total_weight: Any,
    class_dim: int,
) -> Any:
    from ..._api.creation import tensor as _tensor

    valid = A.ne.Scalar(target, ignore_index)
    safe_target = A.where.self(valid, target, A.zeros_like.default(target))
    if weight is not None:
        w = A.index_select.default(weight, 0, A.reshape.default(safe_target, [-1]))
        w = A.reshape.default(w, list(target.shape))
    else:
        w = A.ones_like.default(target, dtype=self._dtype)
    w = A.mul.Tensor(w, valid)
    if reduction == 0:
        g = A.mul.Tensor(A.neg.default(grad), w)
    elif reduction == 1:
        g = A.mul.Tensor(A.neg.default(A.div.Tensor(grad, total_weight)), w)
    else:
        g = A.mul.Tensor(A.neg.default(grad), w)
    del _tensor
    out = A.zeros_like.default(self)
    if self.dim() == 1:
        return A.scatter.src(out, 0, A.reshape.default(safe_target, [1]), A.reshape.default(g, [1]))
    return A.scatter.src(
        out,
        class_dim,
        A.unsqueeze.default(safe_target, class_dim),
        A.unsqueeze.default(g, class_dim),
    )


@derivative(
    "nll_loss_forward",
    "NllLossBackward0",
    inputs=("self",),
    n_outputs=2,
    save=("self", "target", "weight", "reduction", "ignore_index", "result1"),
    no_grad=("weight",),
)
def _nll(grads, self, target, weight, reduction, ignore_index, result1):
    return (
        A.nll_loss_backward.default(
            grads[0], self, target, weight, reduction, ignore_index, result1
        ),
    )


@derivative(
    "nll_loss2d_forward",
    "NllLoss2DBackward0",
    inputs=("self",),
    n_outputs=2,
    save=("self", "target", "weight", "reduction", "ignore_index", "result1"),
    no_grad=("weight",),
)
def _nll2d(grads, self, target, weight, reduction, ignore_index, result1):
    return (_nll_backward(grads[0], self, target, weight, reduction, ignore_index, result1, 1),)


@derivative(
    "native_layer_norm",
    "NativeLayerNormBackward0",
    n_outputs=3,
    save=("input", "normalized_shape", "weight", "bias", "result1", "result2"),
)
def _layer_norm(grads, input, normalized_shape, weight, bias, result1, result2):  # noqa: A002
    grad = grads[0]
    if grad is None:
        return None, None, None
    nd = len(normalized_shape)
    axes = list(range(input.dim() - nd, input.dim()))
    batch_axes = list(range(input.dim() - nd))
    n = math.prod(normalized_shape) if nd else 1
    xhat = A.mul.Tensor(A.sub.Tensor(input, result1), result2)
    dy = A.mul.Tensor(grad, weight) if weight is not None else grad
    sum_dy = A.sum.dim_IntList(dy, axes, True)
    sum_dy_xhat = A.sum.dim_IntList(A.mul.Tensor(dy, xhat), axes, True)
    dx = A.mul.Tensor(
        A.mul.Scalar(result2, 1.0 / n),
        A.sub.Tensor(A.sub.Tensor(A.mul.Scalar(dy, n), sum_dy), A.mul.Tensor(xhat, sum_dy_xhat)),
    )
    dw = db = None
    if weight is not None:
        prod_ = A.mul.Tensor(grad, xhat)
        dw = A.sum.dim_IntList(prod_, batch_axes, False) if batch_axes else prod_
    if bias is not None:
        db = A.sum.dim_IntList(grad, batch_axes, False) if batch_axes else grad
    return dx, dw, db


@derivative(
    "embedding",
    "EmbeddingBackward0",
    inputs=("weight",),
    save=("indices", "padding_idx", "scale_grad_by_freq"),
    computed={"s": _shape("weight")},
)
def _embedding(grad, indices, padding_idx, scale_grad_by_freq, s):
    num, dim = s
    flat_idx = A.reshape.default(indices, [-1])
    flat_grad = A.reshape.default(grad, [-1, dim])
    if padding_idx is not None and padding_idx >= 0:
        keep = A.unsqueeze.default(A.ne.Scalar(flat_idx, padding_idx), 1)
        flat_grad = A.mul.Tensor(flat_grad, keep)
    if scale_grad_by_freq:
        counts = A.index_add.default(
            A.zeros.default([num], dtype=grad._dtype),
            0,
            flat_idx,
            A.ones_like.default(flat_idx, dtype=grad._dtype),
        )
        scale = A.index_select.default(counts, 0, flat_idx)
        flat_grad = A.div.Tensor(flat_grad, A.unsqueeze.default(scale, 1))
    out = A.zeros.default([num, dim], dtype=grad._dtype, device=grad.device)
    return (A.index_add.default(out, 0, flat_idx, flat_grad),)


@derivative(
    "native_dropout",
    "NativeDropoutBackward0",
    inputs=("input",),
    n_outputs=2,
    save=("p", "train", "result1"),
)
def _native_dropout(grads, p, train, result1):
    grad = grads[0]
    if train is False:
        return (grad,)
    scale = 0.0 if p >= 1 else 1.0 / (1.0 - p)
    return (A.mul.Scalar(A.mul.Tensor(grad, result1), scale),)


@derivative(
    "_scaled_dot_product_flash_attention_for_cpu",
    "ScaledDotProductFlashAttentionForCpuBackward0",
    inputs=("query", "key", "value"),
    n_outputs=2,
    no_grad=("attn_mask",),
    save=(
        "query", "key", "value", "dropout_p", "is_causal", "attn_mask", "scale", "result0",
        "result1",
    ),
)  # fmt: skip
def _sdpa_flash(grads, query, key, value, dropout_p, is_causal, attn_mask, scale, result0, result1):
    # PyTorch's formula: the fused CPU backward, one operator for the three gradients (it
    # recomputes the probabilities from the saved logsumexp).
    return A._scaled_dot_product_flash_attention_for_cpu_backward.default(
        grads[0], query, key, value, result0, result1, dropout_p, is_causal,
        attn_mask=attn_mask, scale=scale,
    )  # fmt: skip


@derivative(
    "max_pool2d_with_indices",
    "MaxPool2DWithIndicesBackward0",
    inputs=("self",),
    n_outputs=2,
    save=("result1",),
    computed={"s": _shape("self")},
)
def _max_pool2d(grads, result1, s):
    grad = grads[0]
    lead = list(s[:-2])
    hw = s[-2] * s[-1]
    out = A.zeros.default([*lead, hw], dtype=grad._dtype, device=grad.device)
    g = A.reshape.default(grad, [*lead, -1])
    idx = A.reshape.default(result1, [*lead, -1])
    out = A.scatter_add.default(out, len(lead), idx, g)
    return (A.reshape.default(out, list(s)),)


def _pool_geometry(size: int, k: int, stride: int, pad: int, ceil: bool) -> int:
    num = size + 2 * pad - k
    out = (-(-num // stride) if ceil else num // stride) + 1
    if ceil and (out - 1) * stride >= size + pad:
        out -= 1
    return out


@derivative(
    "avg_pool2d",
    "AvgPool2DBackward0",
    save=("kernel_size", "stride", "padding", "ceil_mode", "count_include_pad", "divisor_override"),
    computed={"s": _shape("self")},
)
def _avg_pool2d(
    grad, kernel_size, stride, padding, ceil_mode, count_include_pad, divisor_override, s
):
    kh, kw = (kernel_size, kernel_size) if isinstance(kernel_size, int) else tuple(kernel_size)
    if not stride:
        sh, sw = kh, kw
    else:
        sh, sw = (stride, stride) if isinstance(stride, int) else tuple(stride)
    ph, pw = (padding, padding) if isinstance(padding, int) else tuple(padding)
    h, w = s[-2], s[-1]
    oh, ow = grad.shape[-2], grad.shape[-1]
    import numpy as np

    # Divisor per output cell (PyTorch's avg_pool2d rules), as a NumPy constant.
    div = np.empty((oh, ow))
    for i in range(oh):
        hs, he = i * sh - ph, min(i * sh - ph + kh, h + ph)
        for j in range(ow):
            ws, we = j * sw - pw, min(j * sw - pw + kw, w + pw)
            if divisor_override:
                div[i, j] = divisor_override
            elif count_include_pad:
                div[i, j] = (he - hs) * (we - ws)
            else:
                div[i, j] = (min(he, h) - max(hs, 0)) * (min(we, w) - max(ws, 0))
    from ..._api.creation import from_numpy

    g = A.div.Tensor(
        grad,
        from_numpy(div.astype(grad._dtype.np if grad._dtype.name != "bfloat16" else np.float32)),
    )
    padded = A.zeros.default(
        [*s[:-2], h + 2 * ph + kh, w + 2 * pw + kw], dtype=grad._dtype, device=grad.device
    )
    for a in range(kh):
        for b in range(kw):
            region = A.slice.Tensor(
                A.slice.Tensor(padded, -2, a, a + sh * (oh - 1) + 1, sh),
                -1,
                b,
                b + sw * (ow - 1) + 1,
                sw,
            )
            A.add_.Tensor(region, g)
    out = A.slice.Tensor(A.slice.Tensor(padded, -2, ph, ph + h, 1), -1, pw, pw + w, 1)
    return (A.clone.default(out, memory_format=0),)


@derivative("_adaptive_avg_pool2d", "AdaptiveAvgPool2DBackward0", computed={"s": _shape("self")})
def _adaptive_avg_pool2d(grad, s):
    for d in range(1 if grad.dim() == 4 else 0, grad.dim()):
        if grad.shape[d] == 0:
            raise RuntimeError(
                f"adaptive_avg_pool2d_backward(): Expected grad_output to have non-zero size "
                f"for non-batch dimensions, but grad_output has sizes {list(grad.shape)} with "
                f"dimension {d} being empty"
            )
    h, w = s[-2], s[-1]
    oh, ow = grad.shape[-2], grad.shape[-1]
    out = _zeros(s, grad)
    for i in range(oh):
        hs, he = (i * h) // oh, -(-((i + 1) * h) // oh)
        for j in range(ow):
            ws, we = (j * w) // ow, -(-((j + 1) * w) // ow)
            cell = A.div.Scalar(
                A.slice.Tensor(A.slice.Tensor(grad, -2, i, i + 1, 1), -1, j, j + 1, 1),
                (he - hs) * (we - ws),
            )
            region = A.slice.Tensor(A.slice.Tensor(out, -2, hs, he, 1), -1, ws, we, 1)
            A.add_.Tensor(region, cell)
    return (out,)


@derivative(
    "convolution",
    "ConvolutionBackward0",
    save=(
        "input",
        "weight",
        "bias",
        "stride",
        "padding",
        "dilation",
        "transposed",
        "output_padding",
        "groups",
    ),
)
def _convolution(
    grad,
    input,
    weight,
    bias,
    stride,
    padding,
    dilation,
    transposed,  # noqa: A002
    output_padding,
    groups,
):
    bias_sizes = None if bias is None else list(bias.shape)
    mask = [input.requires_grad, weight.requires_grad, bias is not None and bias.requires_grad]
    g_in, g_w, g_b = A.convolution_backward.default(
        grad,
        input,
        weight,
        bias_sizes,
        list(stride),
        list(padding),
        list(dilation),
        transposed,
        list(output_padding),
        groups,
        mask,
    )
    return g_in, g_w, g_b
