"""CPU kernels of the assorted operators in aten/misc_ops.py."""

from __future__ import annotations

from typing import Any

import numpy as np

from ...aten import misc_ops as aten_misc_ops
from ...tensor._tensor import Tensor
from ...tensor.dtype import int32, int64, to_dtype
from ._kernel import check_no_internal_overlap, fix_empty, kernel, wrap

__all__: list[str] = []


def _contig(a: object) -> np.ndarray:
    """A C-contiguous copy or the array itself (0-d stays 0-d, unlike np.ascontiguousarray)."""
    a = np.asarray(a)
    return a if a.flags.c_contiguous else a.copy(order="C")


@kernel("diag_embed")
def diag_embed_k(self: Tensor, offset: int = 0, dim1: int = -2, dim2: int = -1) -> Tensor:
    shape, d1, d2 = aten_misc_ops.diag_embed_shape(self._data.shape, offset, dim1, dim2)
    a = self._data if self._data.ndim else self._data.reshape(1)
    n = shape[d1]
    out = np.zeros((*a.shape[:-1], n, n), dtype=a.dtype)
    k = a.shape[-1]
    i = np.arange(k) + max(0, -offset)
    j = np.arange(k) + max(0, offset)
    out[..., i, j] = a
    # The two new dims sit at the end; move them to dim1 < dim2 (or the other way round).
    lo, hi = sorted((d1, d2))
    src = (-2, -1) if d1 < d2 else (-1, -2)
    out = np.moveaxis(out, src, (lo, hi))
    return wrap(fix_empty(_contig(out)), self._dtype)


def _kth_order(a: np.ndarray, axis: int) -> np.ndarray:
    # NaN sorts last (as the largest value), as PyTorch's kthvalue treats it.
    return np.argsort(a, axis=axis, kind="stable")


@kernel("kthvalue")
def kthvalue_k(self: Tensor, k: int, dim: int = -1, keepdim: bool = False) -> tuple[Tensor, Tensor]:
    vm, im = aten_misc_ops.kthvalue(self, k, dim, keepdim)
    a = self._data
    if a.ndim == 0:
        return wrap(a.copy(), self._dtype), wrap(np.zeros((), np.int64), int64)
    d = dim % a.ndim
    order = _kth_order(a, d)
    idx = np.take(order, [k - 1], axis=d)
    vals = np.take_along_axis(a, idx, axis=d)
    if not keepdim:
        idx, vals = np.squeeze(idx, d), np.squeeze(vals, d)
    return (
        wrap(_contig(vals), self._dtype),
        wrap(_contig(idx.astype(np.int64)), int64),
    )


def _cum(self: Tensor, dim: int, is_max: bool) -> tuple[Tensor, Tensor]:
    a = self._data
    if a.ndim == 0:
        return wrap(a.copy(), self._dtype), wrap(np.zeros((), np.int64), int64)
    d = dim % a.ndim
    x = np.moveaxis(a, d, 0)
    vals = np.empty_like(x)
    idx = np.empty(x.shape, np.int64)
    if x.shape[0]:
        cur = x[0].copy()
        cur_i = np.zeros(x.shape[1:], np.int64)
        vals[0], idx[0] = cur, cur_i
        isf = a.dtype.kind in "fc"
        for i in range(1, x.shape[0]):
            v = x[i]
            # Ties take the later index (PyTorch compares with >= / <=); a NaN, once seen,
            # stays the running value.
            take = v >= cur if is_max else v <= cur
            if isf:
                take = (take & ~np.isnan(cur)) | np.isnan(v)
            cur = np.where(take, v, cur)
            cur_i = np.where(take, i, cur_i)
            vals[i], idx[i] = cur, cur_i
    vals = _contig(np.moveaxis(vals, 0, d))
    idx = _contig(np.moveaxis(idx, 0, d))
    return wrap(fix_empty(vals), self._dtype), wrap(fix_empty(idx), int64)


@kernel("cummax")
def cummax_k(self: Tensor, dim: int) -> tuple[Tensor, Tensor]:
    aten_misc_ops.cummax(self, dim)
    return _cum(self, dim, True)


@kernel("cummin")
def cummin_k(self: Tensor, dim: int) -> tuple[Tensor, Tensor]:
    aten_misc_ops.cummin(self, dim)
    return _cum(self, dim, False)


def _search(seq: np.ndarray, vals: np.ndarray, right: bool, sorter: Any) -> np.ndarray:
    side = "right" if right else "left"
    if seq.ndim == 1:
        s = seq if sorter is None else seq[sorter]
        return np.searchsorted(s, vals, side=side)
    flat_s = seq.reshape(-1, seq.shape[-1])
    flat_v = vals.reshape(-1, vals.shape[-1]) if vals.ndim else vals.reshape(1, 1)
    srt = None if sorter is None else sorter.reshape(-1, seq.shape[-1])
    out = np.empty(flat_v.shape, np.int64)
    for i in range(flat_s.shape[0]):
        s = flat_s[i] if srt is None else flat_s[i][srt[i]]
        out[i] = np.searchsorted(s, flat_v[i], side=side)
    return out.reshape(vals.shape)


def _search_kernel(
    seq: Tensor, values: Any, out_int32: bool, right: bool, side: Any, sorter: Any
) -> Tensor:
    if side is not None:
        right = side == "right"
    v = values._data if isinstance(values, Tensor) else np.asarray(values)
    s = seq._data
    if isinstance(values, Tensor) and values._dtype is not seq._dtype:
        from ...aten._promotion import result_type

        common = result_type(seq, values).np
        s, v = s.astype(common), v.astype(common)
    r = _search(s, v, right, None if sorter is None else sorter._data)
    dt = int32 if out_int32 else int64
    return wrap(fix_empty(_contig(np.asarray(r, dtype=dt.np))), dt)


@kernel("searchsorted.Tensor")
def searchsorted_tensor_k(
    sorted_sequence, self, *, out_int32=False, right=False, side=None, sorter=None
):
    aten_misc_ops.searchsorted_Tensor(
        sorted_sequence, self, out_int32=out_int32, right=right, side=side, sorter=sorter
    )
    return _search_kernel(sorted_sequence, self, out_int32, right, side, sorter)


@kernel("searchsorted.Scalar")
def searchsorted_scalar_k(
    sorted_sequence, self, *, out_int32=False, right=False, side=None, sorter=None
):
    aten_misc_ops.searchsorted_Scalar(
        sorted_sequence, self, out_int32=out_int32, right=right, side=side, sorter=sorter
    )
    return _search_kernel(sorted_sequence, self, out_int32, right, side, sorter)


@kernel("bucketize.Tensor")
def bucketize_tensor_k(self, boundaries, *, out_int32=False, right=False):
    aten_misc_ops.bucketize_Tensor(self, boundaries, out_int32=out_int32, right=right)
    return _search_kernel(boundaries, self, out_int32, right, None, None)


@kernel("bucketize.Scalar")
def bucketize_scalar_k(self, boundaries, *, out_int32=False, right=False):
    aten_misc_ops.bucketize_Scalar(self, boundaries, out_int32=out_int32, right=right)
    return _search_kernel(boundaries, self, out_int32, right, None, None)


@kernel("histc")
def histc_k(self: Tensor, bins: int = 100, min: Any = 0, max: Any = 0) -> Tensor:  # noqa: A002
    m = aten_misc_ops.histc(self, bins, min, max)
    a = self._data.reshape(-1)
    comp = np.float64 if a.dtype == np.float64 else np.float32
    x = a.astype(comp)
    lo, hi = float(min), float(max)
    if lo == hi and x.size:
        finite = x[np.isfinite(x)]
        lo, hi = (float(finite.min()), float(finite.max())) if finite.size else (lo, hi)
    if lo == hi:
        lo, hi = lo - 1, hi + 1
    if not (np.isfinite(lo) and np.isfinite(hi)):
        raise RuntimeError(f"torch.histogram(): range of [{lo}, {hi}] is not finite")
    keep = (x >= lo) & (x <= hi)
    x = x[keep]
    pos = ((x - comp(lo)) * comp(bins) / (comp(hi) - comp(lo))).astype(np.int64)
    pos = np.minimum(pos, bins - 1)
    counts = np.bincount(pos, minlength=bins).astype(m._dtype.np)
    return wrap(counts, m._dtype)


@kernel("_cdist_forward")
def _cdist_forward_k(x1: Tensor, x2: Tensor, p: float, compute_mode: Any) -> Tensor:
    m = aten_misc_ops._cdist_forward(x1, x2, p, compute_mode)
    shape = m.shape
    batch = tuple(shape[:-2])
    a = np.broadcast_to(x1._data, (*batch, *x1._data.shape[-2:]))
    b = np.broadcast_to(x2._data, (*batch, *x2._data.shape[-2:]))
    comp = np.float64 if a.dtype == np.float64 else np.float32
    diff = np.abs(a[..., :, None, :].astype(comp) - b[..., None, :, :].astype(comp))
    if p == 0:
        r = (diff != 0).sum(-1).astype(comp)
    elif p == float("inf"):
        r = diff.max(-1) if diff.shape[-1] else np.zeros(diff.shape[:-1], comp)
    elif p == 1:
        r = diff.sum(-1)
    elif p == 2:
        r = np.sqrt((diff * diff).sum(-1))
    else:
        r = (diff**p).sum(-1) ** (1.0 / p)
    return wrap(fix_empty(_contig(r.astype(m._dtype.np))), m._dtype)


@kernel("_cdist_backward")
def _cdist_backward_k(grad: Tensor, x1: Tensor, x2: Tensor, p: float, cdist: Tensor) -> Tensor:
    m = aten_misc_ops._cdist_backward(grad, x1, x2, p, cdist)
    batch = tuple(cdist._data.shape[:-2])
    a = np.broadcast_to(x1._data, (*batch, *x1._data.shape[-2:]))
    b = np.broadcast_to(x2._data, (*batch, *x2._data.shape[-2:]))
    g = grad._data[..., :, :, None]
    dist = cdist._data[..., :, :, None]
    diff = a[..., :, None, :] - b[..., None, :, :]
    with np.errstate(all="ignore"):
        if p == 0:
            t = np.zeros_like(diff)
        elif p == 1:
            t = np.sign(diff)
        elif p == 2:
            t = np.where(dist == 0, 0.0, diff / dist)
        elif p == float("inf"):
            t = np.sign(diff) * (np.abs(diff) == dist)
        elif p < 1:
            t = np.where(
                (dist == 0) | (diff == 0),
                0.0,
                np.sign(diff) * np.abs(diff) ** (p - 1) / dist ** (p - 1),
            )
        else:
            t = np.where(dist == 0, 0.0, diff * np.abs(diff) ** (p - 2) / dist ** (p - 1))
    r = (g * t).sum(-2)
    return wrap(fix_empty(_contig(r.astype(m._dtype.np))), m._dtype)


@kernel("masked_scatter_")
def masked_scatter__k(self: Tensor, mask: Tensor, source: Tensor) -> Tensor:
    aten_misc_ops.masked_scatter_(self, mask, source)
    a = self._data
    check_no_internal_overlap(a)
    mk = np.broadcast_to(mask._data, a.shape)
    n = int(mk.sum())
    src = source._data.reshape(-1)
    if n > src.size:
        raise RuntimeError("Number of elements of source < number of ones in mask")
    a[mk] = src[:n]
    return self


def _tri(name: str, row: int, col: int, offset: int, dtype: Any) -> Tensor:
    m = aten_misc_ops._tri_meta(name, row, col, offset, dtype)
    if name == "tril_indices":
        r, c = np.tril_indices(row, offset, col)
    else:
        r, c = np.triu_indices(row, offset, col)
    dt = m._dtype
    return wrap(fix_empty(np.stack([r, c]).astype(dt.np).reshape(2, -1)), dt)


@kernel("tril_indices")
def tril_indices_k(row, col, offset=0, *, dtype=None, layout=None, device=None, pin_memory=None):
    return _tri("tril_indices", row, col, offset, dtype)


@kernel("triu_indices")
def triu_indices_k(row, col, offset=0, *, dtype=None, layout=None, device=None, pin_memory=None):
    return _tri("triu_indices", row, col, offset, dtype)


_ = to_dtype
