"""NumPy kernels of the backward operators (keyroute/aten/backward_ops.py): one pass each."""

from __future__ import annotations

import math
from typing import Any

import numpy as np

from ...aten import backward_ops as _bw
from ...aten._promotion import result_type
from ...aten._shape import wrap_dim
from ...aten.views import diagonal_geometry, select_check, slice_bounds
from ...tensor._tensor import Tensor
from ...tensor.dtype import to_dtype
from ._kernel import fix_empty, kernel, wrap

_F32 = np.dtype(np.float32)


def _comp(dt: Any) -> np.dtype:
    """float16/bfloat16 compute in float32 and round once, as PyTorch's CPU kernels do."""
    return _F32 if dt.category == 2 and dt.itemsize == 2 else dt.np


def _arr(t: Tensor, np_dtype: Any) -> np.ndarray:
    a = t._data
    return a if a.dtype == np_dtype else a.astype(np_dtype)


def _out(r: np.ndarray, dt: Any, *like: Tensor) -> Tensor:
    # The meta function gives PyTorch's layout; NumPy's matches it for contiguous inputs.
    out = r if r.dtype == dt.np else r.astype(dt.np)
    for t in like:
        if not t._data.flags.c_contiguous:
            out = np.ascontiguousarray(out)
            break
    return wrap(out, dt)


@kernel("threshold_backward")
def threshold_backward(grad_output: Tensor, self: Tensor, threshold: Any) -> Tensor:
    # (one dtype: result_type's answer without its call, ReLU's backward in every MLP step)
    dt = grad_output._dtype if grad_output._dtype is self._dtype else result_type(grad_output, self)
    if grad_output._data.shape != self._data.shape:
        _bw.threshold_backward(grad_output, self, threshold)  # broadcast errors
    comp = _comp(dt)
    g = _arr(grad_output, comp)
    keep = np.less_equal(self._data, threshold)
    # (NaN in self keeps its gradient, as `self <= t ? 0 : g`; a 0-d result is a NumPy scalar,
    # which takes no out=)
    keep = np.logical_not(keep, out=keep if keep.ndim else None)
    # grad * mask: a multiply is 5x faster than np.where on a random mask (no branches); an
    # inf or NaN gradient where the mask is 0 would give NaN, so those take np.where (the
    # test calls the reduction directly: ndarray.all() adds a Python frame)
    r = np.multiply(g, keep, dtype=comp)
    if not np.logical_and.reduce(np.isfinite(r), None):
        r = np.where(keep, g, np.zeros((), comp))
    return _out(r, dt, grad_output, self)


@kernel("sigmoid_backward")
def sigmoid_backward(grad_output: Tensor, output: Tensor) -> Tensor:
    dt = result_type(grad_output, output)
    comp = _comp(dt)
    y = _arr(output, comp)
    r = np.subtract(1, y, dtype=comp)
    r *= y
    if dt.is_complex:  # PyTorch's kernel: grad * conj((1 - y) * y)
        np.conjugate(r, out=r)
    r *= _arr(grad_output, comp)
    return _out(r, dt, grad_output, output)


@kernel("tanh_backward")
def tanh_backward(grad_output: Tensor, output: Tensor) -> Tensor:
    dt = result_type(grad_output, output)
    comp = _comp(dt)
    y = _arr(output, comp)
    r = np.multiply(y, y)
    r = np.subtract(1, r, out=r if r.ndim else None)  # (0-d: a NumPy scalar, no out=)
    if dt.is_complex:  # PyTorch's kernel: grad * conj(1 - y * y)
        r = np.conjugate(r)
    r *= _arr(grad_output, comp)
    return _out(r, dt, grad_output, output)


@kernel("_log_softmax_backward_data")
def _log_softmax_backward_data(
    grad_output: Tensor, output: Tensor, dim: int, input_dtype: Any
) -> Tensor:
    _bw.softmax_backward_check(grad_output, output)
    dt = to_dtype(input_dtype)
    comp = _comp(grad_output._dtype)
    g = _arr(grad_output, comp)
    total = np.add.reduce(g, axis=dim, keepdims=True)
    r = np.exp(_arr(output, comp))
    r *= total
    r = np.subtract(g, r, out=r if r.ndim else None)  # (0-d: a NumPy scalar, no out=)
    return _out(r, dt, grad_output, output)


@kernel("_softmax_backward_data")
def _softmax_backward_data(
    grad_output: Tensor, output: Tensor, dim: int, input_dtype: Any
) -> Tensor:
    _bw.softmax_backward_check(grad_output, output)
    dt = to_dtype(input_dtype)
    comp = _comp(grad_output._dtype)
    y = _arr(output, comp)
    r = _arr(grad_output, comp) * y
    total = np.add.reduce(r, axis=dim, keepdims=True)
    r -= y * total
    return _out(r, dt, grad_output, output)


@kernel("nll_loss_backward")
def nll_loss_backward(
    grad_output: Tensor,
    self: Tensor,
    target: Tensor,
    weight: Any,
    reduction: int,
    ignore_index: int,
    total_weight: Tensor,
) -> Tensor:
    _bw.nll_loss_backward_check(self, target, total_weight)
    dt = self._dtype
    comp = _comp(dt)
    x = self._data
    n_rows = 1 if x.ndim == 1 else x.shape[0]
    c = x.shape[-1]
    grad = np.zeros((n_rows, c), comp)
    t = target._data.reshape(-1).astype(np.int64, copy=False)
    if weight is None and reduction == 1 and t.size == n_rows and not 0 <= ignore_index < c:
        g = _arr(grad_output, comp).reshape(-1)
        tw = _arr(total_weight, comp).reshape(-1)
        if (
            g.size == 1
            and tw.size == 1
            and 0 < abs(float(tw[0])) < math.inf
            and np.minimum.reduce(t, None) >= 0  # (ndarray.min() adds a Python frame)
            and np.maximum.reduce(t, None) < c
        ):
            # cross_entropy's case (mean, no weight, every target valid): the steps below
            # with the weights all ones; a finite nonzero total weight has no 0/0 to silence
            grad[np.arange(n_rows), t] = np.negative(g / tw)
            return _out(grad.reshape(x.shape), dt)
    valid = t != ignore_index
    valid = t != ignore_index
    safe = np.where(valid, t, 0)
    w = np.ones(n_rows, comp) if weight is None else _arr(weight, comp)[safe]
    g = _arr(grad_output, comp).reshape(-1)
    if reduction == 0:
        scale = g if g.size == n_rows else np.broadcast_to(g, (n_rows,))
    elif reduction == 1:
        with np.errstate(divide="ignore", invalid="ignore"):
            scale = np.broadcast_to(g / _arr(total_weight, comp).reshape(-1), (n_rows,))
    else:
        scale = np.broadcast_to(g, (n_rows,))
    grad[np.arange(n_rows), safe] = np.where(valid, -w * scale, 0)
    return _out(grad.reshape(x.shape), dt)


# ----------------------------------------------------------------------------- view backwards
# zeros of input_sizes with the gradient written into the view: one pass over the view. The meta
# function checks first (sizes, the view's arguments, the broadcast of grad_output into it).


def _view_backward(grad_output: Tensor, grad_input: np.ndarray, view: np.ndarray) -> Tensor:
    view[...] = grad_output._data
    return wrap(fix_empty(grad_input), grad_output._dtype)


@kernel("select_backward")
def select_backward(grad_output: Tensor, input_sizes: Any, dim: int, index: Any) -> Tensor:
    sizes = _bw.select_backward(grad_output, input_sizes, dim, index)._data.shape
    d, i = select_check(sizes, dim, int(index))
    out = np.zeros(sizes, grad_output._dtype.np)
    # (the Ellipsis keeps a 0-d view where a 1-d select would give a NumPy scalar)
    return _view_backward(grad_output, out, out[(slice(None),) * d + (i, ...)])


@kernel("slice_backward")
def slice_backward(
    grad_output: Tensor, input_sizes: Any, dim: int, start: Any, end: Any, step: Any
) -> Tensor:
    sizes = _bw.slice_backward(grad_output, input_sizes, dim, start, end, step)._data.shape
    d = wrap_dim(dim, len(sizes))
    lo, hi = slice_bounds(sizes[d], int(start), int(end), int(step))
    out = np.zeros(sizes, grad_output._dtype.np)
    return _view_backward(grad_output, out, out[(slice(None),) * d + (slice(lo, hi, int(step)),)])


@kernel("diagonal_backward")
def diagonal_backward(
    grad_output: Tensor, input_sizes: Any, offset: int, dim1: int, dim2: int
) -> Tensor:
    sizes = _bw.diagonal_backward(grad_output, input_sizes, offset, dim1, dim2)._data.shape
    out = np.zeros(sizes, grad_output._dtype.np)
    shape, strides, delta = diagonal_geometry(
        sizes, _bw._contiguous_strides(sizes), offset, dim1, dim2
    )
    if out.size and 0 not in shape:  # (an empty diagonal takes nothing; delta may be past the end)
        item = out.itemsize
        view = np.lib.stride_tricks.as_strided(
            out.reshape(-1)[delta:], shape, [s * item for s in strides]
        )
        view[...] = grad_output._data
    return wrap(fix_empty(out), grad_output._dtype)


# ----------------------------------------------------------------------------- flash attention


def _grad_buffer(shape: tuple[int, ...], np_dtype: Any) -> np.ndarray:
    """zeros({B, L, H, E}).transpose(1, 2): PyTorch's layout of the flash backward's gradients."""
    b, h, n, e = shape
    if b * h * n * e == 0:  # NumPy gives empty arrays zero strides; PyTorch's are permuted ones
        itemsize = np.dtype(np_dtype).itemsize
        strides = [s * itemsize for s in _bw._permuted_strides((b, n, h, e))]
        return np.lib.stride_tricks.as_strided(np.zeros(1, np_dtype)[:0], shape, strides)
    return np.zeros((b, n, h, e), np_dtype).transpose(0, 2, 1, 3)


def _check_flash_shapes(
    grad_out: Tensor, query: Tensor, key: Tensor, value: Tensor, out: Tensor, lse: Tensor
) -> None:
    """Shapes PyTorch's kernel assumes without checking (it reads out of bounds otherwise)."""
    name = "_scaled_dot_product_flash_attention_for_cpu_backward"
    q, k, v = query._data.shape, key._data.shape, value._data.shape
    ok = len(q) == len(k) == len(v) == 4 and k[0] == v[0] == q[0] and k[1:3] == v[1:3]
    ok = ok and (q[1] % k[1] == 0 if k[1] else q[1] == 0)
    if not ok:
        raise RuntimeError(
            f"{name}: expected 4-d query (B, H, L, E) and key/value (B, H_kv, S, E) with H a "
            f"multiple of H_kv, got query {list(q)}, key {list(k)}, value {list(v)}"
        )
    for what, t, want in (
        ("grad_out", grad_out, q),
        ("out", out, q),
        ("logsumexp", lse, q[:3]),
    ):
        if t._data.shape != tuple(want):
            raise RuntimeError(
                f"{name}: expected {what} of shape {list(want)}, got {list(t._data.shape)}"
            )


def _flash_mask(attn_mask: Any, b: int, h: int, n_q: int, n_k: int, comp: Any) -> Any:
    """The additive mask as PyTorch's kernel reads it: (B or 1, H or 1, L, S) in comp."""
    if attn_mask is None:
        return None
    geometry = _bw.flash_mask_4d(attn_mask, b, h, n_q, n_k)
    if geometry is None:  # an empty mask is no mask
        return None
    shape = geometry[0]
    view = [shape[0], shape[1], *attn_mask._data.shape[-2:]]
    return np.broadcast_to(attn_mask._data.reshape(view), shape).astype(comp)


def _rows(a: np.ndarray, hk: int) -> np.ndarray:
    """(B, H, L, X) as (B, H_kv, rep * L, X): the query heads sharing a key/value head stacked
    as rows, so one matmul per key/value head serves its whole group."""
    b, h, n = a.shape[:3]
    return a.reshape(b, hk, (h // hk) * n, *a.shape[3:])


_Grads = tuple[np.ndarray, np.ndarray, np.ndarray]


def _flash_backward_exact(
    q: np.ndarray,
    k: np.ndarray,
    v: np.ndarray,
    g: np.ndarray,
    o: np.ndarray,
    lse: np.ndarray,
    mask: np.ndarray | None,
    causal: bool,
    sc: Any,
) -> _Grads:
    """float32/float64: the whole backward as five batched products over (B, H_kv)."""
    b, h, n_q, e = q.shape
    hk, n_k = k.shape[1], k.shape[2]
    rep = h // hk
    q2, g2, o2 = _rows(q, hk), _rows(g, hk), _rows(o, hk)
    p = np.matmul(q2, k.swapaxes(-1, -2))
    p *= sc
    if mask is not None:
        if rep > 1:
            mask = _rows(np.broadcast_to(mask, (mask.shape[0], h, n_q, n_k)), hk)
        p += mask
    p -= _rows(lse[..., None], hk)
    np.exp(p, out=p)  # P, recomputed from the saved logsumexp
    if causal:  # zero above the diagonal (top-left aligned), as PyTorch fills after exp
        np.copyto(p, 0, where=np.tile(np.triu(np.ones((n_q, n_k), np.bool_), 1), (rep, 1)))
    dv = np.matmul(p.swapaxes(-1, -2), g2)
    ds = np.matmul(g2, v.swapaxes(-1, -2))  # dP
    ds -= np.einsum("...i,...i->...", g2, o2)[..., None]  # rowsum(dO * O)
    ds *= p  # dS = P * (dP - rowsum(dO * O))
    dq = np.matmul(ds, k)
    dq *= sc
    dk = np.matmul(ds.swapaxes(-1, -2), q2)
    dk *= sc
    return dq.reshape(b, h, n_q, e), dk, dv


def _flash_backward_blocked(
    q: np.ndarray,
    k: np.ndarray,
    v: np.ndarray,
    g: np.ndarray,
    o: np.ndarray,
    lse: np.ndarray,
    mask: np.ndarray | None,
    causal: bool,
    sc: Any,
    dt: Any,
) -> _Grads:
    """float16/bfloat16, block by block as PyTorch's kernel: P and dS rounded to dt before
    their products, each product added into gradients kept in dt (rounded after each block;
    query blocks of 32/64/256 rows by sequence length, key blocks of 512). The query heads of a
    key/value group add into its gradients one after another, as one thread runs them."""
    b, h, n_q, e = q.shape
    hk, n_k = k.shape[1], k.shape[2]
    rep = h // hk

    def rnd(a: np.ndarray) -> np.ndarray:
        return a.astype(dt.np).astype(np.float32)

    def group(a: np.ndarray) -> np.ndarray:  # (B, H, ...) -> (rep, B, H_kv, ...)
        return np.moveaxis(a.reshape(b, hk, rep, *a.shape[2:]), 2, 0)

    qg, gg, og, lg = group(q), group(g), group(o), group(lse)
    if mask is not None and mask.shape[1] > 1:
        mg = group(np.broadcast_to(mask, (mask.shape[0], h, n_q, n_k)))
    else:
        mg = [mask] * rep
    q_split = 32 if n_q < 192 else 64 if n_q < 768 else 256
    kv_split = 512
    dq = np.zeros((rep, b, hk, n_q, e), np.float32)
    dk = np.zeros((b, hk, n_k, e), np.float32)
    dv = np.zeros((b, hk, n_k, e), np.float32)
    for r in range(rep):
        for m in range(0, n_q, q_split):
            rows = slice(m, min(m + q_split, n_q))
            qb, gb = qg[r][:, :, rows], gg[r][:, :, rows]
            dsum = np.einsum("...i,...i->...", gb, og[r][:, :, rows])[..., None]
            num_keys = min(rows.stop, n_k) if causal else n_k
            for n in range(0, num_keys, kv_split):
                cols = slice(n, min(n + kv_split, n_k))
                kb, vb = k[:, :, cols], v[:, :, cols]
                p = np.matmul(qb, kb.swapaxes(-1, -2))
                p *= sc
                if mg[r] is not None:
                    p += mg[r][:, :, rows, cols]
                p -= lg[r][:, :, rows, None]
                np.exp(p, out=p)
                if causal:
                    i = np.arange(rows.start, rows.stop)[:, None]
                    np.copyto(p, 0, where=np.arange(cols.start, cols.stop)[None, :] > i)
                dv[:, :, cols] = rnd(np.matmul(rnd(p).swapaxes(-1, -2), gb) + dv[:, :, cols])
                ds = np.matmul(gb, vb.swapaxes(-1, -2))
                ds -= dsum
                ds *= p
                ds = rnd(ds)
                dq[r][:, :, rows] = rnd(sc * np.matmul(ds, kb) + dq[r][:, :, rows])
                dk[:, :, cols] = rnd(sc * np.matmul(ds.swapaxes(-1, -2), qb) + dk[:, :, cols])
    return np.moveaxis(dq, 0, 2).reshape(b, h, n_q, e), dk, dv


@kernel("_scaled_dot_product_flash_attention_for_cpu_backward")
def flash_attention_backward(
    grad_out: Tensor,
    query: Tensor,
    key: Tensor,
    value: Tensor,
    out: Tensor,
    logsumexp: Tensor,
    dropout_p: float,
    is_causal: bool,
    *,
    attn_mask: Any = None,
    scale: float | None = None,
) -> tuple[Tensor, Tensor, Tensor]:
    # PyTorch's checks (the meta function), then the shapes its kernel takes for granted.
    _bw._scaled_dot_product_flash_attention_for_cpu_backward(
        grad_out, query, key, value, out, logsumexp, dropout_p, is_causal,
        attn_mask=attn_mask, scale=scale,
    )  # fmt: skip
    _check_flash_shapes(grad_out, query, key, value, out, logsumexp)
    dt = query._dtype
    comp = _comp(dt)
    b, h, n_q, e = query._data.shape
    n_k = key._data.shape[2]
    gq = _grad_buffer(query._data.shape, dt.np)
    gk = _grad_buffer(key._data.shape, dt.np)
    gv = _grad_buffer(value._data.shape, dt.np)
    if gq.size and gk.size:  # otherwise every gradient is empty or a sum over nothing (zeros)
        # dropout_p is not read: PyTorch's CPU backward ignores it (its forward refuses p > 0).
        sc = comp.type(scale if scale is not None else 1.0 / math.sqrt(e))
        arrays = [_arr(t, comp) for t in (query, key, value, grad_out, out)]
        mask = _flash_mask(attn_mask, b, h, n_q, n_k, comp)
        lse = _arr(logsumexp, comp)
        if comp == dt.np:
            dq, dk, dv = _flash_backward_exact(*arrays, lse, mask, is_causal, sc)
        else:
            dq, dk, dv = _flash_backward_blocked(*arrays, lse, mask, is_causal, sc, dt)
        gq[...], gk[...], gv[...] = dq, dk, dv
    return wrap(gq, dt), wrap(gk, key._dtype), wrap(gv, value._dtype)
