"""Derivatives of the activation, loss, layer-norm, embedding and pooling backward operators
(aten/nn_backward_ops.py): double backward, with PyTorch's node names and formulas
(derivatives.yaml: `hardtanh_backward: grad_output: hardtanh_backward(grad, ...), self:
zeros_like(grad)`, `gelu_backward: self: gelu_double_backward(...)`, ...).

native_layer_norm_backward's and binary_cross_entropy_backward's second derivatives are long
closed forms in PyTorch (layer_norm_double_backward, binary_cross_entropy_double_backward*);
here they are the gradients of the first-order composite formulas, taken by the engine on
detached copies (the values are the same; the calls a mode sees inside are not)."""

from __future__ import annotations

import math
from collections.abc import Callable, Sequence
from typing import Any

from ..._ops import ops
from ._registry import derivative

aten = ops.aten

_INV_SQRT_2PI = 1.0 / math.sqrt(2.0 * math.pi)
_SQRT1_2 = 1.0 / math.sqrt(2.0)
_K = math.sqrt(2.0 / math.pi)
_C = 0.044715


def _zeros_like(t: Any) -> Any:
    return aten.zeros_like.default(t)


# ----------------------------------------------------------------------------- activations


def _gelu_second(x: Any, approximate: str) -> Any:
    """d²gelu/dx² at x."""
    if approximate == "tanh":
        x2 = aten.mul.Tensor(x, x)
        u = aten.mul.Scalar(aten.add.Tensor(x, aten.mul.Scalar(aten.mul.Tensor(x2, x), _C)), _K)
        du = aten.mul.Scalar(aten.add.Scalar(aten.mul.Scalar(x2, 3 * _C), 1), _K)
        ddu = aten.mul.Scalar(x, 6 * _C * _K)
        t = aten.tanh.default(u)
        sech2 = aten.rsub.Scalar(aten.mul.Tensor(t, t), 1)
        # (1 - t²) u' + x/2 (1 - t²) (u'' - 2 t u'²)
        inner = aten.sub.Tensor(
            ddu, aten.mul.Scalar(aten.mul.Tensor(t, aten.mul.Tensor(du, du)), 2)
        )
        return aten.add.Tensor(
            aten.mul.Tensor(sech2, du),
            aten.mul.Tensor(aten.mul.Scalar(aten.mul.Tensor(x, sech2), 0.5), inner),
        )
    pdf = aten.mul.Scalar(
        aten.exp.default(aten.mul.Scalar(aten.mul.Tensor(x, x), -0.5)), _INV_SQRT_2PI
    )
    return aten.mul.Tensor(pdf, aten.rsub.Scalar(aten.mul.Tensor(x, x), 2))


@derivative("gelu_backward", "GeluBackwardBackward0", save=("grad_output", "self", "approximate"))
def _gelu_backward(grad, grad_output, self, approximate, needs):
    g_go = aten.gelu_backward.default(grad, self, approximate=approximate) if needs[0] else None
    g_x = None
    if needs[1]:
        g_x = aten.mul.Tensor(aten.mul.Tensor(grad, grad_output), _gelu_second(self, approximate))
    return g_go, g_x


@derivative(
    "softplus_backward",
    "SoftplusBackwardBackward0",
    save=("grad_output", "self", "beta", "threshold"),
)
def _softplus_backward(grad, grad_output, self, beta, threshold, needs):
    g_go = aten.softplus_backward.default(grad, self, beta, threshold) if needs[0] else None
    g_x = None
    if needs[1]:
        # softplus_double_backward: beta s (1 - s) where beta x <= threshold, else 0
        bx = aten.mul.Scalar(self, beta)
        s = aten.sigmoid.default(bx)
        d = aten.mul.Scalar(aten.mul.Tensor(s, aten.rsub.Scalar(s, 1)), beta)
        d = aten.masked_fill.Scalar(d, aten.gt.Scalar(bx, threshold), 0)
        g_x = aten.mul.Tensor(aten.mul.Tensor(grad, grad_output), d)
    return g_go, g_x


@derivative(
    "leaky_relu_backward",
    "LeakyReluBackwardBackward0",
    save=("self", "negative_slope"),
)
def _leaky_relu_backward(grad, self, negative_slope):
    return aten.leaky_relu_backward.default(grad, self, negative_slope, False), _zeros_like(grad)


@derivative("hardtanh_backward", "HardtanhBackwardBackward0", save=("self", "min_val", "max_val"))
def _hardtanh_backward(grad, self, min_val, max_val):
    return aten.hardtanh_backward.default(grad, self, min_val, max_val), _zeros_like(grad)


@derivative("hardswish_backward", "HardswishBackwardBackward0", save=("grad_output", "self"))
def _hardswish_backward(grad, grad_output, self, needs):
    g_go = aten.hardswish_backward.default(grad, self) if needs[0] else None
    g_x = None
    if needs[1]:
        inside = aten.logical_and.default(aten.gt.Scalar(self, -3.0), aten.lt.Scalar(self, 3.0))
        val = aten.div.Scalar(aten.mul.Tensor(grad, grad_output), 3.0)
        g_x = aten.where.self(inside, val, aten.zeros_like.default(val))
    return g_go, g_x


@derivative(
    "elu_backward",
    "EluBackwardBackward0",
    inputs=("grad_output", "self_or_result"),
    save=("grad_output", "alpha", "scale", "input_scale", "is_result", "self_or_result"),
)
def _elu_backward(grad, grad_output, alpha, scale, input_scale, is_result, self_or_result, needs):
    x = self_or_result
    g_go = None
    if needs[0]:
        g_go = aten.elu_backward.default(grad, alpha, scale, input_scale, is_result, x)
    g_x = None
    if needs[1]:
        # elu_double_backward: d/dx of the negative branch (the positive one is constant)
        gg = aten.mul.Tensor(grad, grad_output)
        if is_result:
            d = aten.mul.Scalar(gg, input_scale)
        else:
            e = aten.exp.default(aten.mul.Scalar(x, input_scale))
            d = aten.mul.Tensor(gg, aten.mul.Scalar(e, input_scale * input_scale * alpha * scale))
        g_x = aten.masked_fill.Scalar(d, aten.gt.Scalar(x, 0), 0)
    return g_go, g_x


# ----------------------------------------------------------------------------- losses


@derivative(
    "mse_loss_backward",
    "MseLossBackwardBackward0",
    save=("grad_output", "self", "target", "reduction"),
)
def _mse_loss_backward(grad, grad_output, self, target, reduction, needs):
    g_go = aten.mse_loss_backward.default(grad, self, target, reduction) if needs[0] else None
    g_x = g_t = None
    if needs[1] or needs[2]:
        # mse_loss_double_backward: 2 grad (/ numel for the mean)
        scale = 2.0 / self.numel() if reduction == 1 and self.numel() else 2.0
        d = aten.mul.Scalar(aten.mul.Tensor(grad, grad_output), scale)
        g_x = d if needs[1] else None
        g_t = aten.neg.default(d) if needs[2] else None
    return g_go, g_x, g_t


def _redifferentiate(
    fn: Callable[..., Any], args: Sequence[Any], needs: Sequence[bool], grads: Any
) -> list[Any]:
    """The gradients of fn's outputs (given their gradients) with respect to the tensors of
    args whose `needs` is true, taken by the engine on detached copies."""
    from ..engine import grad as autograd_grad
    from ..grad_mode import enable_grad

    leaves = []
    for a, n in zip(args, needs):
        if a is None or not hasattr(a, "detach"):
            leaves.append(a)
        else:
            leaves.append(
                aten.detach.default(a).requires_grad_(True) if n else aten.detach.default(a)
            )
    with enable_grad():
        outs = fn(*leaves)
    outs = outs if isinstance(outs, (tuple, list)) else (outs,)
    grads = grads if isinstance(grads, (tuple, list)) else (grads,)
    pairs = [(o, g) for o, g in zip(outs, grads) if o is not None and g is not None]
    wanted = [leaf for leaf, n in zip(leaves, needs) if n and leaf is not None]
    got = iter(
        autograd_grad([o for o, _ in pairs], wanted, [g for _, g in pairs], allow_unused=True)
        if pairs and wanted
        else [None] * len(wanted)
    )
    return [next(got) if n and leaf is not None else None for leaf, n in zip(leaves, needs)]


def _bce_first(grad_output: Any, self: Any, target: Any, weight: Any, reduction: int) -> Any:
    r = aten.div.Tensor(
        aten.mul.Tensor(grad_output, aten.sub.Tensor(self, target)),
        aten.clamp_min.default(aten.mul.Tensor(aten.rsub.Scalar(self, 1), self), 1e-12),
    )
    if weight is not None:
        r = aten.mul.Tensor(r, weight)
    return aten.div.Scalar(r, self.numel()) if reduction == 1 else r


@derivative(
    "binary_cross_entropy_backward",
    "BinaryCrossEntropyBackwardBackward0",
    inputs=("grad_output", "self", "target"),
    save=("grad_output", "self", "target", "weight", "reduction"),
    no_grad=("weight",),
)
def _bce_backward(grad, grad_output, self, target, weight, reduction, needs):
    g = _redifferentiate(
        lambda go, x, t: _bce_first(go, x, t, weight, reduction),
        (grad_output, self, target),
        needs,
        grad,
    )
    return tuple(g)


def _layer_norm_first(go, x, w, b, normalized_shape, mean, rstd):  # noqa: ANN001, ANN202
    # The first-order composite, with mean and rstd as functions of x (their values the saved
    # ones: rstd = 1/sqrt(var + eps) varies as -rstd³/2 d var).
    nd = len(normalized_shape)
    axes = list(range(x.dim() - nd, x.dim()))
    n = math.prod(normalized_shape)
    shape = list(x.shape[: x.dim() - nd]) + [1] * nd
    mean = aten.reshape.default(mean, shape)
    rstd = aten.reshape.default(rstd, shape)
    mu = aten.mean.dim(x, axes, True)
    var = aten.var.correction(x, axes, correction=0, keepdim=True)
    mean_x = aten.add.Tensor(mean, aten.sub.Tensor(mu, aten.detach.default(mu)))
    rstd_x = aten.add.Tensor(
        rstd,
        aten.mul.Tensor(
            aten.mul.Scalar(aten.pow.Tensor_Scalar(rstd, 3), -0.5),
            aten.sub.Tensor(var, aten.detach.default(var)),
        ),
    )
    xhat = aten.mul.Tensor(aten.sub.Tensor(x, mean_x), rstd_x)
    dy = go if w is None else aten.mul.Tensor(go, w)
    s1 = aten.sum.dim_IntList(dy, axes, True)
    s2 = aten.sum.dim_IntList(aten.mul.Tensor(dy, xhat), axes, True)
    dx = aten.mul.Tensor(
        aten.mul.Scalar(rstd_x, 1.0 / n),
        aten.sub.Tensor(aten.sub.Tensor(aten.mul.Scalar(dy, n), s1), aten.mul.Tensor(xhat, s2)),
    )
    batch = list(range(x.dim() - nd))
    prod_ = aten.mul.Tensor(go, xhat)
    dw = None if w is None else (aten.sum.dim_IntList(prod_, batch, False) if batch else prod_)
    db = None if b is None else (aten.sum.dim_IntList(go, batch, False) if batch else go)
    return dx, dw, db


@derivative(
    "native_layer_norm_backward",
    "NativeLayerNormBackwardBackward0",
    inputs=("grad_out", "input", "weight"),
    n_outputs=3,
    outputs=(0, 1, 2),
    save=("grad_out", "input", "normalized_shape", "mean", "rstd", "weight", "bias"),
)
def _layer_norm_backward(grads, grad_out, input, normalized_shape, mean, rstd, weight, bias, needs):  # noqa: A002
    g = _redifferentiate(
        lambda go, x, w: _layer_norm_first(go, x, w, bias, normalized_shape, mean, rstd),
        (grad_out, input, weight),
        needs,
        grads,
    )
    return tuple(g)


# ----------------------------------------------------------------------------- embedding


@derivative(
    "embedding_dense_backward",
    "EmbeddingDenseBackwardBackward0",
    inputs=("grad_output",),
    save=("indices", "padding_idx"),
)
def _embedding_dense_backward(grad, indices, padding_idx):
    # embedding_dense_double_backward: the gradient's rows gathered, padding rows zeroed
    g = aten.embedding.default(grad, indices)
    if padding_idx >= 0:
        g = aten.masked_fill.Scalar(
            g, aten.unsqueeze.default(aten.eq.Scalar(indices, padding_idx), -1), 0
        )
    return (g,)


# ----------------------------------------------------------------------------- pooling


@derivative(
    "max_pool2d_with_indices_backward",
    "MaxPool2DWithIndicesBackwardBackward0",
    inputs=("grad_output", "self"),
    save=("self", "indices"),
)
def _max_pool2d_backward(grad, self, indices):
    # max_pool_double_backward: gather the gradient at the saved argmax positions
    flat = aten.flatten.using_ints(grad, -2)
    idx = aten.flatten.using_ints(indices, -2)
    g_go = aten.view.default(aten.gather.default(flat, -1, idx), list(indices.shape))
    return g_go, _zeros_like(self)


@derivative(
    "avg_pool2d_backward",
    "AvgPool2DBackwardBackward0",
    inputs=("grad_output", "self"),
    save=("self", "kernel_size", "stride", "padding", "ceil_mode", "count_include_pad",
          "divisor_override"),
)  # fmt: skip
def _avg_pool2d_backward(
    grad, self, kernel_size, stride, padding, ceil_mode, count_include_pad, divisor_override
):
    g_go = aten.avg_pool2d.default(
        grad, kernel_size, stride, padding, ceil_mode, count_include_pad, divisor_override
    )
    return g_go, _zeros_like(self)


@derivative(
    "_adaptive_avg_pool2d_backward",
    "AdaptiveAvgPool2DBackwardBackward0",
    inputs=("grad_output", "self"),
    save=("grad_output", "self"),
)
def _adaptive_avg_pool2d_backward(grad, grad_output, self):
    size = [grad_output.shape[-2], grad_output.shape[-1]]
    return aten._adaptive_avg_pool2d.default(grad, size), _zeros_like(self)
