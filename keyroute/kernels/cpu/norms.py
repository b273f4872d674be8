"""CPU (NumPy) kernels of the normalisation operators (keyroute/aten/norms.py).

As PyTorch's CPU batch norm, statistics accumulate in the accumulate type (double for float32,
float32 for float16/bfloat16: at::acc_type<T, false>), the per-channel scale and shift are
formed in the parameters' type, and the output is `x * alpha + beta` in the input's type.
Errors come from the meta functions, called before any computation, so a failing call writes
nothing (the running statistics included).
"""

from __future__ import annotations

from typing import Any

import numpy as np

from ...aten import norms as _norms
from ...tensor._tensor import Tensor
from ._kernel import kernel
from ._kernel import wrap as _wrap
from .linalg import fix_empty

_F32 = np.dtype(np.float32)
_F64 = np.dtype(np.float64)


def wrap(a: Any, dt: Any) -> Tensor:
    if a.__class__ is np.ndarray and not a.size and a.ndim:
        a = fix_empty(a)
    return _wrap(a, dt)


def _comp(dt: Any) -> np.dtype:
    """The type elementwise work computes in (float16/bfloat16: float32)."""
    return _F32 if dt.category == 2 and dt.itemsize == 2 else dt.np


def _acc(dt: Any) -> np.dtype:
    """at::acc_type<T, /*is_cuda=*/false>: double for float32 and float64, float otherwise."""
    return _F64 if dt.category == 2 and dt.itemsize >= 4 else _F32


def _arr(t: Any, np_dtype: Any) -> np.ndarray:
    a = t._data
    return a if a.dtype == np_dtype else a.astype(np_dtype)


def _channel_view(a: np.ndarray) -> np.ndarray:
    """(N, C, *) as (C, N * prod(*)): channel-major rows for per-channel statistics."""
    n, c = a.shape[0], a.shape[1]
    return np.moveaxis(a.reshape(n, c, -1), 1, 0).reshape(c, -1)


def _bshape(a: np.ndarray, ndim: int) -> np.ndarray:
    """A per-channel vector broadcastable against (N, C, *)."""
    return a.reshape((1, -1) + (1,) * (ndim - 2))


def _batch_norm(
    input: Tensor, weight: Any, bias: Any, rm: Any, rv: Any, training: bool, momentum: float,
    eps: float,
) -> tuple[Tensor, Tensor, Tensor]:  # fmt: skip
    _norms.batch_norm_checks(input, weight, bias, rm, rv, training)
    dt = input._dtype
    sdt = _norms.stat_dtype(dt)
    acc = _acc(dt)
    x = input._data
    c = x.shape[1]
    with np.errstate(all="ignore"):
        if training:
            rows = _channel_view(_arr(input, acc))
            count = rows.shape[1]
            mean = rows.mean(axis=1)
            centered = rows - mean[:, None]
            var_sum = np.einsum("ij,ij->i", centered, centered)
            invstd = 1.0 / np.sqrt(var_sum / count + eps)
            if rm is not None:
                # running = (1 - momentum) * running + momentum * batch (unbiased variance)
                rm._data[...] = (momentum * mean + (1 - momentum) * rm._data).astype(rm._data.dtype)
            if rv is not None:
                unbiased = var_sum / (count - 1) if count > 1 else var_sum * np.nan
                rv._data[...] = (momentum * unbiased + (1 - momentum) * rv._data).astype(
                    rv._data.dtype
                )
            use_mean, use_invstd = mean, invstd
        else:
            use_mean = _arr(rm, acc).reshape(c)
            use_invstd = 1.0 / np.sqrt(_arr(rv, acc).reshape(c) + eps)
        pdt = _comp(weight._dtype) if weight is not None else _comp(dt)
        w = _arr(weight, acc).reshape(c) if weight is not None else 1.0
        b = _arr(bias, acc).reshape(c) if bias is not None else 0.0
        alpha = (use_invstd * w).astype(pdt)
        beta = (b - use_mean * use_invstd * w).astype(pdt)
        comp = _comp(dt)
        y = _arr(input, comp) * _bshape(alpha.astype(comp), x.ndim) + _bshape(
            beta.astype(comp), x.ndim
        )
    out = wrap(y.astype(dt.np, copy=False), dt)
    if training:
        return out, wrap(mean.astype(sdt.np), sdt), wrap(invstd.astype(sdt.np), sdt)
    return out, wrap(np.empty(0, sdt.np), sdt), wrap(np.empty(0, sdt.np), sdt)


@kernel("native_batch_norm")
def native_batch_norm(input, weight, bias, running_mean, running_var, training, momentum, eps):
    return _batch_norm(input, weight, bias, running_mean, running_var, training, momentum, eps)


@kernel("_native_batch_norm_legit")
def _native_batch_norm_legit(
    input, weight, bias, running_mean, running_var, training, momentum, eps
):
    return _batch_norm(input, weight, bias, running_mean, running_var, training, momentum, eps)


@kernel("_native_batch_norm_legit.no_stats")
def _native_batch_norm_legit_no_stats(input, weight, bias, training, momentum, eps):
    return _batch_norm(input, weight, bias, None, None, True, momentum, eps)


@kernel("_native_batch_norm_legit_no_training")
def _native_batch_norm_legit_no_training(
    input, weight, bias, running_mean, running_var, momentum, eps
):
    return _batch_norm(input, weight, bias, running_mean, running_var, False, momentum, eps)


@kernel("native_batch_norm_backward")
def native_batch_norm_backward(
    grad_out, input, weight, running_mean, running_var, save_mean, save_invstd, train, eps,
    output_mask,
):  # fmt: skip
    dt = input._dtype
    acc = _acc(dt)
    x = input._data
    c = x.shape[1]
    with np.errstate(all="ignore"):
        if train:
            mean = _arr(save_mean, acc).reshape(c)
            invstd = _arr(save_invstd, acc).reshape(c)
        else:
            mean = _arr(running_mean, acc).reshape(c)
            invstd = 1.0 / np.sqrt(_arr(running_var, acc).reshape(c) + eps)
        g = _channel_view(_arr(grad_out, acc))
        xc = _channel_view(_arr(input, acc)) - mean[:, None]
        count = g.shape[1]
        sum_g = g.sum(axis=1)
        dot = np.einsum("ij,ij->i", g, xc)
        w = _arr(weight, acc).reshape(c) if weight is not None else np.ones(c, acc)
        g_in = g_w = g_b = None
        if output_mask[0]:
            if train:
                # dx = w * invstd * (g - mean(g) - xhat * mean(g * xhat))
                proj = dot * invstd * invstd / count
                gi = (g - sum_g[:, None] / count - xc * proj[:, None]) * (invstd * w)[:, None]
            else:
                gi = g * (invstd * w)[:, None]
            n = x.shape[0]
            gi = np.moveaxis(gi.reshape(c, n, -1), 0, 1).reshape(x.shape)
            g_in = wrap(np.ascontiguousarray(gi.astype(dt.np)), dt)
        pdt = weight._dtype if weight is not None else dt
        if output_mask[1]:
            g_w = wrap((dot * invstd).astype(pdt.np), pdt)
        if output_mask[2]:
            g_b = wrap(sum_g.astype(pdt.np), pdt)
    return g_in, g_w, g_b


# ----------------------------------------------------------------------------- group norm


@kernel("native_group_norm")
def native_group_norm(input, weight, bias, N, C, HxW, group, eps):
    _norms.native_group_norm(input, weight, bias, N, C, HxW, group, eps)
    dt = input._dtype
    acc = _acc(dt)
    x = _arr(input, acc).reshape(N, group, -1)
    with np.errstate(all="ignore"):
        mean = x.mean(axis=2)
        centered = x - mean[:, :, None]
        var = np.einsum("ngk,ngk->ng", centered, centered) / max(centered.shape[2], 1)
        rstd = 1.0 / np.sqrt(var + eps)
        y = (centered * rstd[:, :, None]).reshape(N, C, HxW)
        if weight is not None:
            y = y * _arr(weight, acc).reshape(1, C, 1)
        if bias is not None:
            y = y + _arr(bias, acc).reshape(1, C, 1)
    return (
        wrap(y.reshape(input._data.shape).astype(dt.np), dt),
        wrap(mean.astype(dt.np), dt),
        wrap(rstd.astype(dt.np), dt),
    )


@kernel("native_group_norm_backward")
def native_group_norm_backward(grad_out, input, mean, rstd, weight, N, C, HxW, group, output_mask):
    dt = input._dtype
    acc = _acc(dt)
    cg = C // group
    x = _arr(input, acc).reshape(N, group, cg, HxW)
    g = _arr(grad_out, acc).reshape(N, group, cg, HxW)
    mu = _arr(mean, acc).reshape(N, group, 1, 1)
    rs = _arr(rstd, acc).reshape(N, group, 1, 1)
    xhat = (x - mu) * rs
    g_in = g_w = g_b = None
    with np.errstate(all="ignore"):
        if output_mask[0]:
            w = _arr(weight, acc).reshape(1, group, cg, 1) if weight is not None else 1.0
            dy = g * w
            m = cg * HxW
            s1 = dy.sum(axis=(2, 3), keepdims=True)
            s2 = (dy * xhat).sum(axis=(2, 3), keepdims=True)
            gi = rs * (dy - s1 / m - xhat * s2 / m)
            g_in = wrap(gi.reshape(input._data.shape).astype(dt.np), dt)
        pdt = weight._dtype if weight is not None else dt
        if output_mask[1]:
            g_w = wrap((g * xhat).sum(axis=(0, 3)).reshape(C).astype(pdt.np), pdt)
        if output_mask[2]:
            g_b = wrap(g.sum(axis=(0, 3)).reshape(C).astype(pdt.np), pdt)
    return g_in, g_w, g_b
