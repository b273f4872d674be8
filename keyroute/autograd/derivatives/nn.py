"""Derivative formulas of the nn operators (aten/nn/)."""

from __future__ import annotations

import math
from typing import Any

from ..._ops import ops
from ..grad_mode import is_grad_enabled
from ._registry import _shape, derivative

aten = ops.aten


# ----------------------------------------------------------------------------- nn


def _reduce_factor(reduction: int, n: int) -> float:
    return 1.0 / n if reduction == 1 and n else 1.0


@derivative("mse_loss", "MseLossBackward0", save=("self", "target", "reduction"))
def _mse(grad, self, target, reduction, needs):
    # PyTorch's: self: mse_loss_backward(grad, self, target); target: the same with the two
    # swapped, each only when needed.
    g_self = aten.mse_loss_backward.default(grad, self, target, reduction) if needs[0] else None
    g_target = aten.mse_loss_backward.default(grad, target, self, reduction) if needs[1] else None
    return g_self, g_target


@derivative(
    "binary_cross_entropy",
    "BinaryCrossEntropyBackward0",
    save=("self", "target", "weight", "reduction"),
    no_grad=("weight",),
)
def _bce(grad, self, target, weight, reduction):
    if not is_grad_enabled() and not target.requires_grad:
        # binary_cross_entropy_backward (its double backward: the composite below)
        return (aten.binary_cross_entropy_backward.default(grad, self, target, weight, reduction),
                None, None)  # fmt: skip
    n = self.numel() if reduction == 1 else 1
    eps = 1e-12
    denom = aten.clamp_min.default(aten.mul.Tensor(self, aten.rsub.Scalar(self, 1)), eps)
    g_self = aten.div.Tensor(aten.sub.Tensor(self, target), denom)
    g_target = aten.sub.Tensor(aten.log.default(aten.rsub.Scalar(self, 1)), aten.log.default(self))
    if weight is not None:
        g_self = aten.mul.Tensor(g_self, weight)
        g_target = aten.mul.Tensor(g_target, weight)
    g = aten.div.Scalar(grad, n)
    return aten.mul.Tensor(g_self, g), aten.mul.Tensor(g_target, g), None


@derivative(
    "binary_cross_entropy_with_logits",
    "BinaryCrossEntropyWithLogitsBackward0",
    save=("self", "target", "weight", "pos_weight", "reduction"),
    no_grad=("weight", "pos_weight"),
)
def _bce_logits(grad, self, target, weight, pos_weight, reduction, needs):
    # PyTorch's binary_cross_entropy_with_logits_backward (FunctionsManual): (sigmoid(x) - t)
    # times grad, scaled in place by weight and 1/numel; the target's gradient only when needed.
    n = self.numel() if reduction == 1 else 1
    g_self = g_target = None
    if needs[0]:
        sig = aten.sigmoid.default(self)
        if pos_weight is None:
            g_self = aten.mul.Tensor(aten.sub.Tensor(sig, target), grad)
        else:
            pt = aten.mul.Tensor(pos_weight, target)
            g_self = aten.sub.Tensor(
                aten.mul.Tensor(sig, aten.add.Tensor(aten.rsub.Scalar(target, 1), pt)), pt
            )
            g_self = aten.mul.Tensor(g_self, grad)
        if weight is not None:
            g_self = aten.mul.Tensor(g_self, weight)
        if reduction == 1:
            g_self = (
                aten.div.Scalar(g_self, n) if is_grad_enabled() else aten.div_.Scalar(g_self, n)
            )
    if needs[1]:
        if pos_weight is None:
            g_target = aten.neg.default(self)
        else:
            sig = aten.sigmoid.default(self)
            log_sig = aten.log.default(sig)
            log_1m = aten.log.default(aten.rsub.Scalar(sig, 1))
            g_target = aten.sub.Tensor(log_1m, aten.mul.Tensor(pos_weight, log_sig))
        if weight is not None:
            g_target = aten.mul.Tensor(g_target, weight)
        g_target = aten.mul.Tensor(g_target, aten.div.Scalar(grad, n))
    return g_self, g_target, None, None


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

    valid = aten.ne.Scalar(target, ignore_index)
    safe_target = aten.where.self(valid, target, aten.zeros_like.default(target))
    if weight is not None:
        w = aten.index_select.default(weight, 0, aten.reshape.default(safe_target, [-1]))
        w = aten.reshape.default(w, list(target.shape))
    else:
        w = aten.ones_like.default(target, dtype=self._dtype)
    w = aten.mul.Tensor(w, valid)
    if reduction == 0:
        g = aten.mul.Tensor(aten.neg.default(grad), w)
    elif reduction == 1:
        g = aten.mul.Tensor(aten.neg.default(aten.div.Tensor(grad, total_weight)), w)
    else:
        g = aten.mul.Tensor(aten.neg.default(grad), w)
    del _tensor
    out = aten.zeros_like.default(self)
    if self.dim() == 1:
        return aten.scatter.src(
            out, 0, aten.reshape.default(safe_target, [1]), aten.reshape.default(g, [1])
        )
    return aten.scatter.src(
        out,
        class_dim,
        aten.unsqueeze.default(safe_target, class_dim),
        aten.unsqueeze.default(g, class_dim),
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
        aten.nll_loss_backward.default(
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
def _layer_norm(grads, input, normalized_shape, weight, bias, result1, result2, needs):  # noqa: A002
    grad = grads[0]
    if grad is None:
        return None, None, None
    if not is_grad_enabled():
        # PyTorch's formula: one native_layer_norm_backward call. Under create_graph keyroute
        # takes the composite below (its graph is the double backward).
        mask = [bool(needs[0]), bool(needs[1]) and weight is not None,
                bool(needs[2]) and bias is not None]  # fmt: skip
        return aten.native_layer_norm_backward.default(
            grad, input, normalized_shape, result1, result2, weight, bias, mask
        )
    nd = len(normalized_shape)
    axes = list(range(input.dim() - nd, input.dim()))
    batch_axes = list(range(input.dim() - nd))
    n = math.prod(normalized_shape) if nd else 1
    xhat = aten.mul.Tensor(aten.sub.Tensor(input, result1), result2)
    dy = aten.mul.Tensor(grad, weight) if weight is not None else grad
    sum_dy = aten.sum.dim_IntList(dy, axes, True)
    sum_dy_xhat = aten.sum.dim_IntList(aten.mul.Tensor(dy, xhat), axes, True)
    dx = aten.mul.Tensor(
        aten.mul.Scalar(result2, 1.0 / n),
        aten.sub.Tensor(
            aten.sub.Tensor(aten.mul.Scalar(dy, n), sum_dy), aten.mul.Tensor(xhat, sum_dy_xhat)
        ),
    )
    dw = db = None
    if weight is not None:
        prod_ = aten.mul.Tensor(grad, xhat)
        dw = aten.sum.dim_IntList(prod_, batch_axes, False) if batch_axes else prod_
    if bias is not None:
        db = aten.sum.dim_IntList(grad, batch_axes, False) if batch_axes else grad
    return dx, dw, db


@derivative(
    "embedding",
    "EmbeddingBackward0",
    inputs=("weight",),
    save=("indices", "padding_idx", "scale_grad_by_freq"),
    computed={"s": _shape("weight")},
)
def _embedding(grad, indices, padding_idx, scale_grad_by_freq, s):
    # PyTorch's embedding_backward (CompositeImplicitAutograd) -> embedding_dense_backward
    return (
        aten.embedding_backward.default(
            grad, indices, s[0], padding_idx, scale_grad_by_freq, False
        ),
    )


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
    return (aten.mul.Scalar(aten.mul.Tensor(grad, result1), scale),)


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
    return aten._scaled_dot_product_flash_attention_for_cpu_backward.default(
        grads[0], query, key, value, result0, result1, dropout_p, is_causal,
        attn_mask=attn_mask, scale=scale,
    )  # fmt: skip


@derivative(
    "max_pool2d_with_indices",
    "MaxPool2DWithIndicesBackward0",
    inputs=("self",),
    n_outputs=2,
    save=("self", "kernel_size", "stride", "padding", "dilation", "ceil_mode", "result1"),
)
def _max_pool2d(grads, self, kernel_size, stride, padding, dilation, ceil_mode, result1):
    return (
        aten.max_pool2d_with_indices_backward.default(
            grads[0], self, kernel_size, stride, padding, dilation, ceil_mode, result1
        ),
    )


@derivative(
    "avg_pool2d",
    "AvgPool2DBackward0",
    save=(
        "self",
        "kernel_size",
        "stride",
        "padding",
        "ceil_mode",
        "count_include_pad",
        "divisor_override",
    ),
)
def _avg_pool2d(
    grad, self, kernel_size, stride, padding, ceil_mode, count_include_pad, divisor_override
):
    return (
        aten.avg_pool2d_backward.default(
            grad, self, kernel_size, stride, padding, ceil_mode, count_include_pad,
            divisor_override,
        ),
    )  # fmt: skip


@derivative("_adaptive_avg_pool2d", "AdaptiveAvgPool2DBackward0", save=("self",))
def _adaptive_avg_pool2d(grad, self):
    return (aten._adaptive_avg_pool2d_backward.default(grad, self),)


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
    g_in, g_w, g_b = aten.convolution_backward.default(
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
