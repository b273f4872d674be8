"""NumPy kernels of the activation, loss, layer-norm, embedding and pooling backward
operators (keyroute/aten/nn_backward_ops.py): one pass each, the formulas of PyTorch's CPU
kernels (Activation.cpp, Loss.cpp, layer_norm_kernel.cpp, Embedding.cpp, the pooling
kernels), computed in float32 for float16/bfloat16 and rounded once."""

from __future__ import annotations

import math
from typing import Any

import numpy as np

from ...aten import nn as _nn
from ...aten import nn_backward_ops as _m
from ...aten._promotion import result_type
from ...tensor._tensor import Tensor
from ._kernel import kernel
from ._special import erf_array
from .backward_ops import _arr, _comp, _out

_SQRT1_2 = 1.0 / math.sqrt(2.0)
_INV_SQRT_2PI = 1.0 / math.sqrt(2.0 * math.pi)
_SQRT_2_PI = math.sqrt(2.0 / math.pi)


def _pair(grad_output: Tensor, self: Tensor) -> tuple[Any, np.dtype, np.ndarray, np.ndarray]:
    dt = result_type(grad_output, self)
    comp = _comp(dt)
    return dt, comp, _arr(grad_output, comp), _arr(self, comp)


def _select(cond: np.ndarray, a: Any, b: Any, comp: np.dtype) -> np.ndarray:
    return np.where(cond, a, b).astype(comp, copy=False)


@kernel("gelu_backward")
def gelu_backward(grad_output: Tensor, self: Tensor, approximate: str = "none") -> Tensor:
    _m.gelu_backward(grad_output, self, approximate)
    dt, comp, g, x = _pair(grad_output, self)
    if approximate == "tanh":
        x2 = x * x
        inner = _SQRT_2_PI * (x + 0.044715 * x2 * x)
        t = np.tanh(inner)
        left = 0.5 * (1 + t)
        right = 0.5 * x * (1 - t * t) * (_SQRT_2_PI * (1 + 3 * 0.044715 * x2))
        r = g * (left + right)
    else:
        cdf = 0.5 * (1 + erf_array(x * _SQRT1_2))
        pdf = _INV_SQRT_2PI * np.exp(-0.5 * x * x)
        r = g * (cdf + x * pdf)
    return _out(np.asarray(r, comp), dt, grad_output, self)


@kernel("silu_backward")
def silu_backward(grad_output: Tensor, self: Tensor) -> Tensor:
    dt, comp, g, x = _pair(grad_output, self)
    s = 1 / (1 + np.exp(-x))
    return _out(np.asarray(g * s * (1 + x * (1 - s)), comp), dt, grad_output, self)


@kernel("mish_backward")
def mish_backward(grad_output: Tensor, self: Tensor) -> Tensor:
    dt, comp, g, x = _pair(grad_output, self)
    s = 1 / (1 + np.exp(-x))
    t = np.tanh(np.logaddexp(0, x))
    return _out(np.asarray(g * (t + x * s * (1 - t * t)), comp), dt, grad_output, self)


@kernel("softplus_backward")
def softplus_backward(grad_output: Tensor, self: Tensor, beta: Any, threshold: Any) -> Tensor:
    dt, comp, g, x = _pair(grad_output, self)
    bx = x * beta
    z = np.exp(bx)
    r = _select(bx > threshold, g, g * z / (z + 1), comp)
    return _out(r, dt, grad_output, self)


@kernel("leaky_relu_backward")
def leaky_relu_backward(
    grad_output: Tensor, self: Tensor, negative_slope: Any, self_is_result: bool
) -> Tensor:
    _m.leaky_relu_backward(grad_output, self, negative_slope, self_is_result)
    dt, comp, g, x = _pair(grad_output, self)
    return _out(_select(x > 0, g, g * negative_slope, comp), dt, grad_output, self)


@kernel("hardtanh_backward")
def hardtanh_backward(grad_output: Tensor, self: Tensor, min_val: Any, max_val: Any) -> Tensor:
    dt, comp, g, x = _pair(grad_output, self)
    outside = (x <= min_val) | (x >= max_val)
    return _out(_select(outside, np.zeros((), comp), g, comp), dt, grad_output, self)


@kernel("elu_backward")
def elu_backward(
    grad_output: Tensor,
    alpha: Any,
    scale: Any,
    input_scale: Any,
    is_result: bool,
    self_or_result: Tensor,
) -> Tensor:
    _m.elu_backward(grad_output, alpha, scale, input_scale, is_result, self_or_result)
    dt, comp, g, x = _pair(grad_output, self_or_result)
    negcoef = alpha * scale
    if is_result:
        neg = g * input_scale * (x + negcoef)
    else:
        neg = g * input_scale * negcoef * np.exp(x * input_scale)
    return _out(_select(x <= 0, neg, g * scale, comp), dt, grad_output, self_or_result)


@kernel("hardsigmoid_backward")
def hardsigmoid_backward(grad_output: Tensor, self: Tensor) -> Tensor:
    dt, comp, g, x = _pair(grad_output, self)
    inside = (x > -3) & (x < 3)
    return _out(_select(inside, g / 6, np.zeros((), comp), comp), dt, grad_output, self)


@kernel("hardswish_backward")
def hardswish_backward(grad_output: Tensor, self: Tensor) -> Tensor:
    dt, comp, g, x = _pair(grad_output, self)
    mid = g * (x / 3 + 0.5)
    r = np.where(x < -3, np.zeros((), comp), np.where(x <= 3, mid, g)).astype(comp, copy=False)
    return _out(r, dt, grad_output, self)


@kernel("logit_backward")
def logit_backward(grad_output: Tensor, self: Tensor, eps: float | None = None) -> Tensor:
    dt, comp, g, x = _pair(grad_output, self)
    r = g / (x * (1 - x))
    if eps is None:
        r = _select((x < 0) | (x > 1), np.asarray(np.nan, comp), r, comp)
    else:
        r = _select((x < eps) | (x > 1 - eps), np.zeros((), comp), r, comp)
    return _out(r, dt, grad_output, self)


# ----------------------------------------------------------------------------- losses


@kernel("mse_loss_backward")
def mse_loss_backward(grad_output: Tensor, self: Tensor, target: Tensor, reduction: int) -> Tensor:
    _m.mse_loss_backward(grad_output, self, target, reduction)
    dt = result_type(self, target)
    comp = _comp(dt)
    x = _arr(self, comp)
    norm = 2.0 / x.size if reduction == 1 and x.size else 2.0
    if reduction == 1 and not x.size:
        norm = float("nan")
    r = (x - _arr(target, comp)) * norm * _arr(grad_output, comp)
    return _out(np.asarray(r, comp), dt, grad_output, self, target)


@kernel("binary_cross_entropy_backward")
def binary_cross_entropy_backward(
    grad_output: Tensor, self: Tensor, target: Tensor, weight: Any = None, reduction: int = 1
) -> Tensor:
    dt = self._dtype
    comp = _comp(dt)
    x = _arr(self, comp)
    r = _arr(grad_output, comp) * (x - _arr(target, comp))
    r = r / np.maximum((1 - x) * x, 1e-12)
    if weight is not None:
        r = r * _arr(weight, comp)
    if reduction == 1:
        r = r / x.size
    return _out(np.broadcast_to(np.asarray(r, comp), x.shape), dt, self)


# ----------------------------------------------------------------------------- layer norm


@kernel("native_layer_norm_backward")
def native_layer_norm_backward(
    grad_out: Tensor,
    input: Tensor,  # noqa: A002
    normalized_shape: Any,
    mean: Tensor,
    rstd: Tensor,
    weight: Any,
    bias: Any,
    output_mask: Any,
) -> tuple[Any, Any, Any]:
    metas = _m.native_layer_norm_backward(
        grad_out, input, normalized_shape, mean, rstd, weight, bias, output_mask
    )
    dt = input._dtype
    comp = _comp(dt)
    nd = len(normalized_shape)
    x = _arr(input, comp)
    lead = x.shape[: x.ndim - nd]
    n = math.prod(x.shape[x.ndim - nd :])
    m = math.prod(lead)
    x2 = x.reshape(m, n)
    dy = _arr(grad_out, comp).reshape(m, n)
    mu = _arr(mean, comp).reshape(m, 1)
    rs = _arr(rstd, comp).reshape(m, 1)
    xhat = (x2 - mu) * rs
    gx = gw = gb = None
    if metas[0] is not None:
        w = dy if weight is None else dy * _arr(weight, comp).reshape(1, n)
        a = w.sum(axis=1, keepdims=True)
        b = (w * xhat).sum(axis=1, keepdims=True)
        r = (rs / n) * (n * w - a - xhat * b) if n else w
        gx = _out(r.reshape(x.shape), dt)
    if metas[1] is not None:
        gw = _out((dy * xhat).sum(axis=0).reshape(weight._data.shape), weight._dtype)
    if metas[2] is not None:
        gb = _out(dy.sum(axis=0).reshape(bias._data.shape), bias._dtype)
    return gx, gw, gb


# ----------------------------------------------------------------------------- embedding


@kernel("embedding_dense_backward")
def embedding_dense_backward(
    grad_output: Tensor,
    indices: Tensor,
    num_weights: int,
    padding_idx: int,
    scale_grad_by_freq: bool,
) -> Tensor:
    meta = _m.embedding_dense_backward(
        grad_output, indices, num_weights, padding_idx, scale_grad_by_freq
    )
    dt = grad_output._dtype
    comp = _comp(dt)
    dim = meta._data.shape[1]
    idx = indices._data.reshape(-1).astype(np.int64, copy=False)
    g = _arr(grad_output, comp).reshape(-1, dim)
    keep = idx != padding_idx
    if not keep.all():
        idx, g = idx[keep], g[keep]
    if scale_grad_by_freq:
        counts = np.bincount(idx, minlength=num_weights)
        g = g / counts[idx][:, None].astype(comp)
    out = np.zeros((num_weights, dim), comp)
    np.add.at(out, idx, g)
    return _out(out, dt)


# ----------------------------------------------------------------------------- pooling


@kernel("max_pool2d_with_indices_backward")
def max_pool2d_with_indices_backward(
    grad_output: Tensor,
    self: Tensor,
    kernel_size: Any,
    stride: Any,
    padding: Any,
    dilation: Any,
    ceil_mode: bool,
    indices: Tensor,
) -> Tensor:
    _m.max_pool2d_with_indices_backward(
        grad_output, self, kernel_size, stride, padding, dilation, ceil_mode, indices
    )
    dt = self._dtype
    comp = _comp(dt)
    s = self._data.shape
    lead = s[:-2]
    m = math.prod(lead)
    hw = s[-2] * s[-1]
    g = _arr(grad_output, comp).reshape(m, -1)
    idx = indices._data.reshape(m, -1)
    out = np.zeros((m, hw), comp)
    rows = np.broadcast_to(np.arange(m)[:, None], idx.shape)
    np.add.at(out, (rows, idx), g)
    return _out(out.reshape(s), dt)


@kernel("avg_pool2d_backward")
def avg_pool2d_backward(
    grad_output: Tensor,
    self: Tensor,
    kernel_size: Any,
    stride: Any,
    padding: Any,
    ceil_mode: bool,
    count_include_pad: bool,
    divisor_override: Any,
) -> Tensor:
    _m.avg_pool2d_backward(
        grad_output, self, kernel_size, stride, padding, ceil_mode, count_include_pad,
        divisor_override,
    )  # fmt: skip
    kh, kw, dh, dw, ph, pw, _, _ = _nn.pool2d_params("avg_pool2d", kernel_size, stride, padding)
    dt = self._dtype
    comp = _comp(dt)
    s = self._data.shape
    hh, ww = s[-2:]
    g = _arr(grad_output, comp)
    oh, ow = g.shape[-2:]
    if divisor_override is not None:
        div = np.full((oh, ow), divisor_override, comp)
    else:
        div_h = np.array(_nn._avg_divisors(hh, oh, kh, dh, ph, count_include_pad), comp)
        div_w = np.array(_nn._avg_divisors(ww, ow, kw, dw, pw, count_include_pad), comp)
        div = div_h[:, None] * div_w[None, :]
    cell = g / div
    padded = np.zeros((*s[:-2], hh + 2 * ph + kh + dh * oh, ww + 2 * pw + kw + dw * ow), comp)
    for a in range(kh):
        for b in range(kw):
            padded[..., a : a + dh * oh : dh, b : b + dw * ow : dw] += cell
    return _out(np.ascontiguousarray(padded[..., ph : ph + hh, pw : pw + ww]), dt)


@kernel("_adaptive_avg_pool2d_backward")
def _adaptive_avg_pool2d_backward(grad_output: Tensor, self: Tensor) -> Tensor:
    _m._adaptive_avg_pool2d_backward(grad_output, self)
    dt = self._dtype
    comp = _comp(dt)
    s = self._data.shape
    hh, ww = s[-2:]
    g = _arr(grad_output, comp)
    oh, ow = g.shape[-2:]
    out = np.zeros(s, comp)
    for i in range(oh):
        h0, h1 = (i * hh) // oh, -((-(i + 1) * hh) // oh)
        for j in range(ow):
            w0, w1 = (j * ww) // ow, -((-(j + 1) * ww) // ow)
            out[..., h0:h1, w0:w1] += g[..., i : i + 1, j : j + 1] / ((h1 - h0) * (w1 - w0))
    return _out(out, dt)
