"""CPU (NumPy) kernels of the nn operators.

Reduced-precision inputs (float16, bfloat16) compute in float32 and round once, as PyTorch's
CPU kernels accumulate in their opmath type. Errors come from the operators' meta functions
(aten/nn/), called before any computation, so a failing call writes nothing.
"""

from __future__ import annotations

import math
from typing import Any

import numpy as np

from ...aten import nn as _nn
from ...aten._meta_util import check
from ...random import get_generator
from ...tensor._tensor import Tensor
from ...tensor.dtype import bool_, int64, to_dtype
from ._kernel import kernel
from ._kernel import wrap as _wrap
from .cascade_sum import cascade_sum
from .linalg import fix_empty

_sliding = np.lib.stride_tricks.sliding_window_view
_F32 = np.dtype(np.float32)


def wrap(a: Any, dt: Any) -> Tensor:
    """A CPU tensor over a (zero-size results get PyTorch's contiguous strides)."""
    if a.__class__ is np.ndarray and not a.size and a.ndim:
        a = fix_empty(a)
    return _wrap(a, dt)


def _comp(dt: Any) -> np.dtype:
    """The NumPy dtype dt computes in (float16/bfloat16: float32)."""
    return _F32 if dt.category == 2 and dt.itemsize == 2 else dt.np


def _as(a: np.ndarray, np_dtype: Any) -> np.ndarray:
    return a if a.dtype == np_dtype else a.astype(np_dtype)


def _round(a: np.ndarray, dt: Any) -> np.ndarray:
    return a if a.dtype == dt.np else a.astype(dt.np)


def _like_layout(ref: np.ndarray, shape: tuple[int, ...], np_dtype: Any) -> np.ndarray:
    """An empty array of `shape` laid out in ref's memory order (empty_like's preserve format)."""
    if ref.flags.c_contiguous or ref.ndim != len(shape):
        return np.empty(shape, np_dtype)
    order = sorted(range(ref.ndim), key=lambda d: -abs(ref.strides[d]))
    base = np.empty(tuple(shape[d] for d in order), np_dtype)
    inverse = [order.index(d) for d in range(ref.ndim)]
    return base.transpose(inverse)


def _strided_like(a: np.ndarray, meta: Tensor) -> np.ndarray:
    """a laid out with the meta tensor's strides (TensorIterator's output layout)."""
    strides = meta.stride()
    if a.ndim < 2 or tuple(s // a.itemsize for s in a.strides) == tuple(strides):
        return a
    order = sorted(range(a.ndim), key=lambda d: -strides[d])
    base = np.empty(tuple(a.shape[d] for d in order), a.dtype)
    out = base.transpose([order.index(d) for d in range(a.ndim)])
    out[...] = a
    return out


# ----------------------------------------------------------------------------- layer norm


@kernel("native_layer_norm")
def native_layer_norm(
    input: Tensor, normalized_shape: Any, weight: Any, bias: Any, eps: float
) -> tuple[Tensor, Tensor, Tensor]:
    m, n = _nn.layer_norm_checks(input, normalized_shape, weight, bias)
    stat_dt = _nn.layer_norm_stat_dtype(input, weight, bias)
    dt = input._dtype
    comp = _comp(dt)
    shape = input._data.shape
    axis = len(shape) - len(normalized_shape)
    stat_shape = (*shape[:axis], *([1] * len(normalized_shape)))
    x = _as(input._data, comp).reshape(m, n)
    with np.errstate(all="ignore"):
        mean = x.mean(axis=1, keepdims=True)
        y = x - mean
        var = np.einsum("ij,ij->i", y, y)[:, None] / n if n else mean * np.nan
        rstd = 1.0 / np.sqrt(var + eps)
        y *= rstd
        if weight is not None:
            y *= _as(weight._data, comp).reshape(1, n)
        if bias is not None:
            y += _as(bias._data, comp).reshape(1, n)
    return (
        wrap(_round(y.reshape(shape), dt), dt),
        wrap(_round(mean.reshape(stat_shape), stat_dt), stat_dt),
        wrap(_round(rstd.reshape(stat_shape), stat_dt), stat_dt),
    )


# ----------------------------------------------------------------------------- embedding


@kernel("embedding")
def embedding(
    weight: Tensor,
    indices: Tensor,
    padding_idx: int = -1,
    scale_grad_by_freq: bool = False,
    sparse: bool = False,
) -> Tensor:
    w, idx = weight._data, indices._data
    if w.ndim != 2 or indices._dtype not in (int64, _INT32):
        _nn.embedding(weight, indices)
    if idx.size and (idx.min() < 0 or idx.max() >= w.shape[0]):
        raise IndexError("index out of range in self")
    return wrap(w.take(idx, axis=0), weight._dtype)


_INT32 = to_dtype("int32")


@kernel("embedding_renorm_")
def embedding_renorm_(self: Tensor, indices: Tensor, max_norm: float, norm_type: float) -> Tensor:
    _nn.embedding_renorm_(self, indices, max_norm, norm_type)
    w = self._data
    rows = np.unique(indices._data.reshape(-1))
    comp = _comp(self._dtype)
    sel = _as(w[rows], comp)
    norms = np.linalg.norm(sel, ord=norm_type, axis=1)
    big = norms > max_norm
    if big.any():
        scale = (max_norm / (norms[big] + 1e-7)).astype(comp)
        w[rows[big]] = _round(sel[big] * scale[:, None], self._dtype)
    return self


# ----------------------------------------------------------------------------- dropout


@kernel("native_dropout")
def native_dropout(input: Tensor, p: float, train: bool | None) -> tuple[Tensor, Tensor]:
    a = input._data
    dt = input._dtype
    if a.size == 0:
        return input, _wrap(np.empty_like(a), dt)  # empty_like keeps self's strides
    _nn.native_dropout(input, p, train)  # p and dtype checks
    if train is None or train:
        p1m = 1.0 - p
        scale = 0.0 if p1m == 0 else 1.0 / p1m
        # mask = empty_like(input, contiguous).bernoulli_(1 - p): one double uniform per
        # element, in row-major order (see kernels/cpu/random.py)
        from .random import bernoulli_scalar_values

        n = a.size
        mask = bernoulli_scalar_values(get_generator(None), n, p1m).reshape(a.shape)
        out = np.multiply(a, mask)
        with np.errstate(all="ignore"):
            out = _round(np.multiply(_as(out, _comp(dt)), scale), dt)
        return wrap(out, dt), wrap(mask, bool_)
    mask = np.ones_like(a, dtype=np.bool_)
    return wrap(a.copy(order="K"), dt), wrap(mask, bool_)


# ----------------------------------------------------------------------------- softmax


def _softmax_rows(x: np.ndarray, axis: int) -> np.ndarray:
    """softmax of x along axis, rows that are entirely -inf giving 0 (x is written)."""
    m = x.max(axis=axis, keepdims=True)
    if not np.isfinite(m).all():
        m = np.where(np.isneginf(m), 0, m)
    np.subtract(x, m, out=x)
    np.exp(x, out=x)
    s = x.sum(axis=axis, keepdims=True)
    with np.errstate(invalid="ignore", divide="ignore"):
        np.divide(x, s, out=x)
    return x


@kernel("_safe_softmax")
def _safe_softmax(self: Tensor, dim: int, dtype: Any = None) -> Tensor:
    out_meta = _nn._safe_softmax(self, dim, dtype)
    dt = out_meta._dtype
    a = self._data
    if a.ndim == 0:
        a = a.reshape(1)
    axis = dim % a.ndim if a.ndim else 0
    x = np.array(a, dtype=_comp(dt), order="C")  # a fresh copy to compute in
    all_masked = np.isneginf(x).all(axis=axis, keepdims=True)
    x = _softmax_rows(x, axis)
    if all_masked.any():
        x = np.where(all_masked, 0, x)
    return wrap(_round(x.reshape(self._data.shape), dt), dt)


# ----------------------------------------------------------------------------- attention


def _normalised_product(p: np.ndarray, v: np.ndarray, total: np.ndarray) -> np.ndarray:
    """(p / total) @ v, dividing the smaller of the probabilities and the output."""
    if p.shape[-1] <= v.shape[-1]:
        p /= total
        return np.matmul(p, v)
    out = np.matmul(p, v)
    out /= total
    return out


@kernel("_scaled_dot_product_flash_attention_for_cpu")
def flash_attention(
    query: Tensor,
    key: Tensor,
    value: Tensor,
    dropout_p: float = 0.0,
    is_causal: bool = False,
    *,
    attn_mask: Any = None,
    scale: float | None = None,
) -> tuple[Tensor, Tensor]:
    _nn._flash_check(query, key, value, dropout_p, attn_mask)
    dt = query._dtype
    comp = _comp(dt)
    q, k, v = _as(query._data, comp), _as(key._data, comp), _as(value._data, comp)
    b, h, L, e = q.shape
    hk = k.shape[1]
    if hk != h and hk:
        k = np.repeat(k, h // hk, axis=1)
        v = np.repeat(v, h // v.shape[1], axis=1)
    s_len = k.shape[2]
    sc = scale if scale is not None else 1.0 / math.sqrt(e)
    s = np.matmul(q, k.swapaxes(-1, -2))
    s *= sc
    if attn_mask is not None:
        s += _as(attn_mask._data, comp)
    if is_causal:
        s[..., np.triu(np.ones((L, s_len), dtype=np.bool_), 1)] = -np.inf
    # (the ufuncs' reduce, not the ndarray methods: those go through NumPy's Python wrappers)
    m = np.maximum.reduce(s, -1, keepdims=True) if s_len else np.full((b, h, L, 1), -np.inf, comp)
    masked = None
    if not np.logical_and.reduce(np.isfinite(m), None):
        masked = np.isneginf(m)
        m = np.where(masked, 0, m)
    np.subtract(s, m, out=s)
    np.exp(s, out=s)
    total = np.add.reduce(s, -1, keepdims=True)
    if masked is None:
        # Every row's maximum is finite, so its exp is 1 and total >= 1: no 0/0 and no log(0)
        # to silence (np.errstate costs more than the arithmetic on a decode step).
        out = _normalised_product(s, v, total)
        lse = m + np.log(total)
    else:
        with np.errstate(divide="ignore", invalid="ignore"):
            out = _normalised_product(s, v, total)
            lse = m + np.log(total)
        out = np.where(masked, 0, out)
        lse = np.where(masked, 0, lse)
    if query._data.flags.c_contiguous:
        result = _round(out, dt)
    else:  # empty_like(query): the output keeps the query's memory order
        result = _like_layout(query._data, out.shape, dt.np)
        result[...] = out
    lse_t = np.empty((b, L, h), comp).transpose(0, 2, 1)
    lse_t[...] = lse[..., 0]
    return wrap(result, dt), wrap(lse_t, to_dtype(comp))


# ----------------------------------------------------------------------------- losses


_EXACT_COUNT = 2**24  # below it a float32 sum of ones is the count exactly
_MIN, _MAX = np.minimum.reduce, np.maximum.reduce


def _nll(
    x: np.ndarray,
    t: np.ndarray,
    w: Any,
    reduction: int,
    ignore_index: int,
    dt: Any,
    single: bool = False,
) -> tuple[np.ndarray, np.ndarray]:
    """NLL over rows of x (N, C) with targets t (N,): (losses or reduced loss, total weight)."""
    comp = _comp(dt)
    x = _as(x, comp)
    n, c = x.shape
    t = t.astype(np.int64, copy=False)
    if (
        w is None
        and reduction == 1
        and 0 < n < _EXACT_COUNT
        and not 0 <= ignore_index < c
        and _MIN(t, None) >= 0  # (the ufuncs' reduce: ndarray.min() adds a Python frame)
        and _MAX(t, None) < c
    ):
        # cross_entropy's case (mean, no weight, every target valid): the steps below with
        # the weights all ones, the same sum and the same quotient (n > 0: no 0/0 to silence)
        total = np.asarray(n, comp)
        loss = np.negative(x[np.arange(n), t]).sum(dtype=comp) / total
        return np.asarray(loss, comp), total
    valid = t != ignore_index
    bad = valid & ((t < 0) | (t >= c))
    if bad.any():
        raise IndexError(f"Target {int(t[bad][0])} is out of bounds.")
    safe = np.where(valid, t, 0)
    picked = x[np.arange(n), safe]
    weights = _as(w, comp)[safe] if w is not None else np.ones(n, comp)
    weights = np.where(valid, weights, 0).astype(comp, copy=False)
    losses = np.where(valid, -picked * weights, 0).astype(comp, copy=False)
    total = weights.sum(dtype=comp)
    if reduction == 0:
        # total_weight is only computed for a single (unbatched) sample
        return losses, np.asarray(total if n == 1 and single else 0, comp)
    loss = losses.sum(dtype=comp)
    if reduction == 1:
        with np.errstate(all="ignore"):
            loss = loss / total
    return np.asarray(loss, comp), np.asarray(total, comp)


@kernel("nll_loss_forward")
def nll_loss_forward(
    self: Tensor, target: Tensor, weight: Any, reduction: int, ignore_index: int
) -> tuple[Tensor, Tensor]:
    _nn.nll_loss_forward_check(self, target, weight)
    dt = self._dtype
    x = self._data
    if x.ndim == 1:
        out, total = _nll(
            x[None, :],
            target._data.reshape(-1)[:1],
            _w(weight),
            reduction,
            ignore_index,
            dt,
            single=True,
        )
        if reduction == 0:
            out = out.reshape(())
    else:
        out, total = _nll(x, target._data, _w(weight), reduction, ignore_index, dt)
    return wrap(_round(out, dt), dt), wrap(_round(total, dt), dt)


def _w(weight: Any) -> Any:
    return None if weight is None else weight._data


@kernel("nll_loss2d_forward")
def nll_loss2d_forward(
    self: Tensor, target: Tensor, weight: Any, reduction: int, ignore_index: int
) -> tuple[Tensor, Tensor]:
    _nn.nll_loss2d_forward_meta(self, target, weight, reduction, ignore_index)
    dt = self._dtype
    x = self._data
    n, c, hh, ww = x.shape
    rows = x.transpose(0, 2, 3, 1).reshape(-1, c)
    out, total = _nll(rows, target._data.reshape(-1), _w(weight), reduction, ignore_index, dt)
    if reduction == 0:
        out = out.reshape(n, hh, ww)
    return wrap(_round(out, dt), dt), wrap(_round(total, dt), dt)


@kernel("mse_loss")
def mse_loss(self: Tensor, target: Tensor, reduction: int = 1) -> Tensor:
    out_meta = _nn.mse_loss(self, target, reduction)
    dt = out_meta._dtype
    comp = _comp(dt)
    d = np.subtract(_as(self._data, comp), _as(target._data, comp))
    np.multiply(d, d, out=d)
    if reduction == 0:
        return wrap(_strided_like(_round(d, dt), out_meta), dt)
    # PyTorch reduces the elementwise loss with loss.sum() / loss.mean() (a sum, then a
    # division): its cascade order, so a float32 loss rounds as PyTorch's does.
    r = cascade_sum(d, None, False) if d.dtype == dt.np else None
    if r is None:
        r = d.sum(dtype=comp)
    if reduction == 1:
        with np.errstate(all="ignore"):
            r = r / comp.type(d.size) if d.size else np.asarray(np.nan, comp)
    return wrap(_round(np.asarray(r, comp), dt), dt)


@kernel("binary_cross_entropy")
def binary_cross_entropy(
    self: Tensor, target: Tensor, weight: Any = None, reduction: int = 1
) -> Tensor:
    dt = _nn.binary_cross_entropy(self, target, weight, reduction)._dtype
    comp = _comp(dt)
    x, t = _as(self._data, comp), _as(target._data, comp)
    check(not ((x < 0) | (x > 1)).any(), "all elements of input should be between 0 and 1")
    with np.errstate(divide="ignore"):
        log_x = np.maximum(np.log(x), -100)
        log_1x = np.maximum(np.log1p(-x), -100)
    loss = (t - 1) * log_1x - t * log_x
    if weight is not None:
        loss = loss * _as(weight._data, comp)
    if reduction == 0:
        return wrap(_round(loss, dt), dt)
    r = loss.sum(dtype=comp)
    if reduction == 1:
        with np.errstate(all="ignore"):
            r = r / loss.size if loss.size else np.asarray(np.nan, comp)
    return wrap(_round(np.asarray(r, comp), dt), dt)


@kernel("binary_cross_entropy_with_logits")
def binary_cross_entropy_with_logits(
    self: Tensor, target: Tensor, weight: Any = None, pos_weight: Any = None, reduction: int = 1
) -> Tensor:
    out_meta = _nn.binary_cross_entropy_with_logits(self, target, weight, pos_weight, reduction)
    dt = out_meta._dtype
    comp = _comp(dt)
    x, t = _as(self._data, comp), _as(target._data, comp)
    with np.errstate(over="ignore"):
        log_sig = np.minimum(x, 0) - np.log1p(np.exp(-np.abs(x)))
    if pos_weight is not None:
        log_sig = log_sig * ((_as(pos_weight._data, comp) - 1) * t + 1)
    loss = (1 - t) * x - log_sig
    if weight is not None:
        loss = loss * _as(weight._data, comp)
    if reduction == 0:
        return wrap(_round(np.asarray(loss, comp), dt), dt)
    r = loss.sum(dtype=comp)
    if reduction == 1:
        with np.errstate(all="ignore"):
            r = r / loss.size if loss.size else np.asarray(np.nan, comp)
    return wrap(_round(np.asarray(r, comp), dt), dt)


# ----------------------------------------------------------------------------- convolution
# Three NumPy primitives serve the convolution and its backward, transposed or not. Spatial
# parameters are tuples of one entry per spatial dim; a Python loop runs at most over the
# kernel's offsets, never over the data.


def _prod(v: Any) -> int:
    return int(math.prod(v))


def conv_windows(x: np.ndarray, ksz: Any, stride: Any, dilation: Any, osz: Any) -> np.ndarray:
    """The (N, C, *osz, *ksz) strided view of x: window o, offset k reads x[..., o*s + k*d]."""
    nsp = len(ksz)
    eff = [dilation[i] * (ksz[i] - 1) + 1 for i in range(nsp)]
    win = _sliding(x, eff, axis=tuple(range(2, 2 + nsp)))
    idx = (slice(None), slice(None))
    idx += tuple(slice(None, (osz[i] - 1) * stride[i] + 1, stride[i]) for i in range(nsp))
    idx += tuple(slice(None, None, dilation[i]) for i in range(nsp))
    return win[idx]


def conv_im2col(
    x: np.ndarray, groups: int, ksz: Any, stride: Any, dilation: Any, osz: Any
) -> np.ndarray:
    """im2col of the (already padded) x: (N, G, C/G * Kp, L), rows (channel, kernel offset)
    channel-major, columns the output positions osz."""
    n, c = x.shape[:2]
    nsp = len(ksz)
    win = conv_windows(x, ksz, stride, dilation, osz)
    perm = (0, 1, *range(2 + nsp, 2 + 2 * nsp), *range(2, 2 + nsp))
    cols = np.ascontiguousarray(win.transpose(perm))
    return cols.reshape(n, groups, (c // groups) * _prod(ksz), _prod(osz))


def conv_cols_gemm(cols: np.ndarray, w: np.ndarray, groups: int, osz: Any) -> np.ndarray:
    """The correlation from im2col columns: weight (G, Cout/G, C/G * Kp) @ cols -> (N, Cout,
    *osz)."""
    cout = w.shape[0]
    wm = w.reshape(groups, cout // groups, cols.shape[2])
    return np.matmul(wm, cols).reshape((cols.shape[0], cout, *osz))


def conv_im2col_gemm(
    x: np.ndarray, w: np.ndarray, groups: int, stride: Any, dilation: Any, osz: Any
) -> np.ndarray:
    """The correlation of the (already padded) x with w (Cout, C/G, *K) at the output positions
    osz: im2col then one batched GEMM, (N, Cout, *osz)."""
    cols = conv_im2col(x, groups, w.shape[2:], stride, dilation, osz)
    return conv_cols_gemm(cols, w, groups, osz)


def conv_gemm_col2im(
    x: np.ndarray, w: np.ndarray, groups: int, stride: Any, dilation: Any, full: Any
) -> np.ndarray:
    """The transposed convolution of x (N, C, *I) with w (C, Cout/G, *K) before cropping the
    padding: one batched GEMM gives every kernel offset's contribution, which is added onto the
    strided output positions i*s + k*d (col2im), one slice per offset. (N, Cout, *full)."""
    n, c = x.shape[:2]
    cout_g = w.shape[1]
    ksz, isz = w.shape[2:], x.shape[2:]
    nsp = len(ksz)
    kp, cg = _prod(ksz), c // groups
    # weight (G, C/G, Cout/G, Kp) -> (G, Kp * Cout/G, C/G): each offset's rows are one block
    wm = w.reshape(groups, cg, cout_g, kp).transpose(0, 3, 2, 1).reshape(groups, kp * cout_g, cg)
    cols = np.matmul(wm, x.reshape(n, groups, cg, _prod(isz)))
    cols = cols.reshape((n, groups, kp, cout_g, *isz))
    y = np.zeros((n, groups, cout_g, *full), cols.dtype)
    lead = (slice(None), slice(None), slice(None))
    for j, off in enumerate(np.ndindex(*ksz)):
        start = [off[i] * dilation[i] for i in range(nsp)]
        sl = tuple(
            slice(start[i], start[i] + (isz[i] - 1) * stride[i] + 1, stride[i]) for i in range(nsp)
        )
        y[lead + sl] += cols[:, :, j]
    return y.reshape((n, groups * cout_g, *full))


def conv_weight_grad(a: np.ndarray, cols: np.ndarray, groups: int) -> np.ndarray:
    """sum over batch and positions of a (N, Ca, *O) times the im2col columns of the other
    operand (N, G, Cb/G * Kp, L): the weight gradient (G, Ca/G, Cb/G * Kp). One batched GEMM
    and a sum over the batch (the im2col is shared with the input gradient)."""
    n, ca = a.shape[:2]
    am = a.reshape(n, groups, ca // groups, cols.shape[3])
    return np.add.reduce(np.matmul(am, cols.transpose(0, 1, 3, 2)), axis=0)


@kernel("convolution")
def convolution(
    input: Tensor,
    weight: Tensor,
    bias: Any,
    stride: Any,
    padding: Any,
    dilation: Any,
    transposed: bool,
    output_padding: Any,
    groups: int,
) -> Tensor:
    out_meta = _nn.convolution(
        input, weight, bias, stride, padding, dilation, transposed, output_padding, groups
    )
    dt = input._dtype
    comp = _comp(dt)
    x, w = _as(input._data, comp), _as(weight._data, comp)
    nsp = w.ndim - 2
    stride = _nn._ints(stride, nsp)
    padding = _nn._ints(padding, nsp)
    dilation = _nn._ints(dilation, nsp)
    out_shape = out_meta._data.shape
    osz = out_shape[2:]
    if transposed:
        full = [osz[i] + 2 * padding[i] for i in range(nsp)]
        out = conv_gemm_col2im(x, w, groups, stride, dilation, full)
        if any(padding):
            crop = tuple(slice(p, p + o) for p, o in zip(padding, osz))
            out = np.ascontiguousarray(out[(slice(None), slice(None), *crop)])
    else:
        if any(padding):
            x = np.pad(x, [(0, 0), (0, 0), *((p, p) for p in padding)])
        out = conv_im2col_gemm(x, w, groups, stride, dilation, osz)
    if bias is not None:
        out += _as(bias._data, comp).reshape((1, out_shape[1]) + (1,) * nsp)
    return wrap(_round(out, dt), dt)


# ----------------------------------------------------------------------------- pooling


def _pool_windows(
    x: np.ndarray,
    kh: int,
    kw: int,
    dh: int,
    dw: int,
    ph: int,
    pw: int,
    dilh: int,
    dilw: int,
    oh: int,
    ow: int,
    fill: Any,
) -> np.ndarray:
    """(..., oh, ow, kh, kw) windows of x padded with `fill` (enough for ceil mode)."""
    hh, ww = x.shape[-2:]
    need_h = (oh - 1) * dh + (kh - 1) * dilh + 1
    need_w = (ow - 1) * dw + (kw - 1) * dilw + 1
    bottom = max(0, need_h - hh - ph)
    right = max(0, need_w - ww - pw)
    if ph or pw or bottom or right:
        xp = np.full((*x.shape[:-2], hh + ph + bottom, ww + pw + right), fill, x.dtype)
        xp[..., ph : ph + hh, pw : pw + ww] = x
    else:
        xp = x
    eff = ((kh - 1) * dilh + 1, (kw - 1) * dilw + 1)
    win = _sliding(xp, eff, axis=(-2, -1))
    return win[..., : (oh - 1) * dh + 1 : dh, : (ow - 1) * dw + 1 : dw, ::dilh, ::dilw]


@kernel("max_pool2d_with_indices")
def max_pool2d_with_indices(
    self: Tensor,
    kernel_size: Any,
    stride: Any = (),
    padding: Any = 0,
    dilation: Any = 1,
    ceil_mode: bool = False,
) -> tuple[Tensor, Tensor]:
    out_meta, _ = _nn.max_pool2d_with_indices(
        self, kernel_size, stride, padding, dilation, ceil_mode
    )
    kh, kw, dh, dw, ph, pw, dilh, dilw = _nn.pool2d_params(
        "max_pool2d", kernel_size, stride, padding, dilation
    )
    dt = self._dtype
    x = self._data
    oh, ow = out_meta._data.shape[-2:]
    fill = -np.inf if x.dtype.kind == "f" or dt.category == 2 else np.iinfo(x.dtype).min
    win = _pool_windows(x, kh, kw, dh, dw, ph, pw, dilh, dilw, oh, ow, fill)
    flat = win.reshape(*win.shape[:-2], kh * kw)
    nan = np.isnan(flat) if flat.dtype.kind == "f" or dt.category == 2 else None
    if nan is not None and nan.any():
        arg = np.where(nan.any(-1), nan.argmax(-1), flat.argmax(-1))
    else:
        arg = flat.argmax(-1)
    vals = np.take_along_axis(flat, arg[..., None], -1)[..., 0]
    rows = (np.arange(oh) * dh - ph)[:, None] + (arg // kw) * dilh
    cols = (np.arange(ow) * dw - pw)[None, :] + (arg % kw) * dilw
    indices = (rows * x.shape[-1] + cols).astype(np.int64)
    return wrap(np.ascontiguousarray(vals), dt), wrap(np.ascontiguousarray(indices), int64)


@kernel("avg_pool2d")
def avg_pool2d(
    self: Tensor,
    kernel_size: Any,
    stride: Any = (),
    padding: Any = 0,
    ceil_mode: bool = False,
    count_include_pad: bool = True,
    divisor_override: int | None = None,
) -> Tensor:
    out_meta = _nn.avg_pool2d(
        self, kernel_size, stride, padding, ceil_mode, count_include_pad, divisor_override
    )
    kh, kw, dh, dw, ph, pw, _, _ = _nn.pool2d_params("avg_pool2d", kernel_size, stride, padding)
    dt = self._dtype
    comp = _comp(dt) if dt.category == 2 else np.dtype(np.float64)
    x = _as(self._data, comp)
    oh, ow = out_meta._data.shape[-2:]
    win = _pool_windows(x, kh, kw, dh, dw, ph, pw, 1, 1, oh, ow, 0)
    sums = win.sum(axis=(-2, -1))
    if divisor_override is not None:
        out = sums / divisor_override
    else:
        hh, ww = x.shape[-2:]
        div_h = np.array(_nn._avg_divisors(hh, oh, kh, dh, ph, count_include_pad), comp)
        div_w = np.array(_nn._avg_divisors(ww, ow, kw, dw, pw, count_include_pad), comp)
        with np.errstate(all="ignore"):
            out = sums / (div_h[:, None] * div_w[None, :])
        out = np.nan_to_num(out, nan=0.0) if not count_include_pad else out
    if dt.category < 2:
        out = np.trunc(out)
    return wrap(np.ascontiguousarray(_round(out, dt)), dt)


@kernel("_adaptive_avg_pool2d")
def _adaptive_avg_pool2d(self: Tensor, output_size: Any) -> Tensor:
    out_meta = _nn._adaptive_avg_pool2d(self, output_size)
    dt = self._dtype
    comp = _comp(dt)
    x = _as(self._data, comp)
    hh, ww = x.shape[-2:]
    oh, ow = out_meta._data.shape[-2:]
    out = np.empty(out_meta._data.shape, comp)
    for i in range(oh):
        h0, h1 = (i * hh) // oh, -((-(i + 1) * hh) // oh)
        band = x[..., h0:h1, :].mean(axis=-2)
        for j in range(ow):
            w0, w1 = (j * ww) // ow, -((-(j + 1) * ww) // ow)
            out[..., i, j] = band[..., w0:w1].mean(axis=-1)
    return wrap(_round(out, dt), dt)


# ----------------------------------------------------------------------------- padding


@kernel("constant_pad_nd")
def constant_pad_nd(self: Tensor, pad: Any, value: Any = 0) -> Tensor:
    shape = _nn.constant_pad_shape(self, pad)
    pad = [int(p) for p in pad]
    a = self._data
    dt = self._dtype
    l_diff = a.ndim - len(pad) // 2
    src: list[slice] = [slice(None)] * a.ndim
    dst: list[slice] = [slice(None)] * a.ndim
    for i in range(l_diff, a.ndim):
        k = 2 * (a.ndim - i - 1)
        lo, hi = pad[k], pad[k + 1]
        size = a.shape[i]
        s0, s1 = max(-lo, 0), size - max(-hi, 0)
        src[i] = slice(s0, max(s1, s0))
        d0 = max(lo, 0)
        dst[i] = slice(d0, d0 + max(s1 - s0, 0))
    if all(p <= 0 for p in pad):
        return wrap(a[tuple(src)].copy(order="K"), dt)
    if isinstance(value, float) and dt.category <= 1 and dt is not bool_:
        value = int(value)
    out = np.full(shape, value, dtype=dt.np)
    out[tuple(dst)] = a[tuple(src)]
    return wrap(out, dt)


def _index_pad_kernel(name: str, nd: int) -> None:
    reflect = name.startswith("reflection")

    def k(self: Tensor, padding: Any) -> Tensor:
        _nn.index_pad_shape(name, self, padding, nd)
        a = self._data
        pad = [int(p) for p in padding]
        for i in range(nd):
            axis = a.ndim - 1 - i
            size = a.shape[axis]
            lo, hi = pad[2 * i], pad[2 * i + 1]
            idx = np.arange(-lo, size + hi)
            if reflect:
                idx = np.abs(idx)
                idx = np.where(idx >= size, 2 * (size - 1) - idx, idx)
            else:
                idx = np.clip(idx, 0, size - 1)
            a = np.take(a, idx, axis=axis)
        return wrap(np.ascontiguousarray(a), self._dtype)

    k.__name__ = name
    kernel(name)(k)


for _nd in (1, 2, 3):
    _index_pad_kernel(f"reflection_pad{_nd}d", _nd)
    _index_pad_kernel(f"replication_pad{_nd}d", _nd)
