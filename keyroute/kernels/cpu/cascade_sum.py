"""PyTorch's CPU summation order for float32/float64 (aten/src/ATen/native/cpu/SumKernel.cpp),
reproduced with vectorised NumPy so sums round as PyTorch's do; with numba (the `compile`
extra) the same order runs as one compiled pass (_numba_kernels.py, same bits).

PyTorch does not sum pairwise as NumPy does. A row of n contiguous elements is read as
vectors of W lanes (W = 32 bytes / itemsize: 8 float32, 4 float64, AVX2); the vectors are
split into 4 interleaved streams (instruction-level parallelism), each stream summed by a
"cascade": blocks of L = 2**max(4, ceil(log2(size)) // 4) rows are summed one after another
into level 0, which is carried into levels 1, 2, 3 every L, L**2, L**3 rows. The 4 streams are
then added in order, the leftover scalars summed, and the W lanes added one by one. A
reduction over an outer (strided) dimension sums each output column with the same cascade
(4W columns at a time) or the stream split (the remaining columns).

Each step is one NumPy operation over all rows (or columns) at once, so the extra cost is a
few dozen array operations per reduction, independent of the number of rows. Inputs this
module does not model (non-dense layouts, several non-adjacent dims, half types, integer
dtypes) keep NumPy's order: `cascade_sum` returns None for them. Full reductions of 32768
elements or more are split across threads by PyTorch (two_pass_reduction); this module models
one thread.
"""

from __future__ import annotations

import math
from typing import Any

import numpy as np

from . import _jit

__all__ = ["cascade_sum"]

_FLOATS = (np.dtype(np.float32), np.dtype(np.float64))


def _seq(x: np.ndarray) -> np.ndarray:
    """Sum over axis -2 one element after another (x[..., 0, :] + x[..., 1, :] + ...).
    NumPy reduces a non-innermost axis in that order (its pairwise sum is only along the
    innermost axis, which a size-1 last axis would make the reduced one: accumulate is
    sequential by definition)."""
    n = x.shape[-2]
    if n == 0:
        return np.zeros(x.shape[:-2] + x.shape[-1:], x.dtype)
    if n == 1:
        return x[..., 0, :].copy()
    if x.shape[-1] >= 2:
        if x.size <= 4096:
            return np.add.reduce(x, axis=-2)
        # large: the summed axis first, contiguous, so NumPy adds whole rows one after
        # another (long inner loops) instead of reducing a middle axis of short rows
        t = np.ascontiguousarray(np.moveaxis(x, -2, 0))
        return np.add.reduce(t.reshape(n, -1), axis=0).reshape(x.shape[:-2] + x.shape[-1:])
    return np.add.accumulate(x, axis=-2)[..., -1, :]


def _ceil_log2(n: int) -> int:
    return 0 if n <= 1 else (n - 1).bit_length()


def _cascade(x: np.ndarray) -> np.ndarray:
    """multi_row_sum: x (R, S, C) summed over S with the 4-level cascade -> (R, C)."""
    r, s, c = x.shape
    p = max(4, _ceil_log2(s) // 4)
    L = 1 << p  # noqa: N806 - the level step
    nb = s // L
    if nb == 0:  # under one block: a plain running sum
        return _seq(x)
    blocks = _seq(x[:, : nb * L].reshape(r, nb, L, c))  # level 0, each full block
    acc0 = _seq(x[:, nb * L :])  # the rows after the last full block
    n1 = nb // L
    acc0 += _seq(blocks[:, n1 * L :])  # level 1: the blocks since its last carry
    if n1:
        g1 = _seq(blocks[:, : n1 * L].reshape(r, n1, L, c))  # carried to level 2 every L
        n2 = n1 // L
        acc0 += _seq(g1[:, n2 * L :])
        if n2:  # level 3: every L**2 blocks, never carried further
            acc0 += _seq(_seq(g1[:, : n2 * L].reshape(r, n2, L, c)))
    return acc0


def _row_sum(x: np.ndarray) -> np.ndarray:
    """row_sum: x (R, n, C) summed over n as 4 interleaved cascaded streams -> (R, C): stream
    0, then the leftover elements, then streams 1, 2, 3, added in that order."""
    r, n, c = x.shape
    k = n // 4
    if k == 0:
        return _seq(x)
    parts = _cascade(x[:, : 4 * k].reshape(r, k, 4 * c)).reshape(r, 4, c)
    order = (parts[:, :1], x[:, 4 * k :], parts[:, 1:])
    return _seq(np.concatenate(order, axis=1))


def _inner(rows: np.ndarray) -> np.ndarray:
    """Each row of rows (R, n), contiguous, summed as vectorized_inner_sum (or, under one
    vector's width, as the scalar row_sum) -> (R,): the vectors' lanes, then the leftover
    scalars followed by the W lanes one by one."""
    r, n = rows.shape
    w = 32 // rows.itemsize
    if n < w:
        return _row_sum(rows.reshape(r, n, 1))[:, 0]
    v = n // w
    lanes = _row_sum(rows[:, : v * w].reshape(r, v, w))
    last = np.concatenate((rows[:, v * w :], lanes), axis=1)
    return np.add.accumulate(last, axis=1)[:, -1]


def _outer(x: np.ndarray) -> np.ndarray:
    """x (P, N, M), reduced over N with M contiguous: vectorized_outer_sum (or scalar_outer_sum
    under one vector's width) -> (P, M)."""
    p, n, m = x.shape
    w = 32 // x.itemsize
    group = 4 * w if m >= w else 4  # columns summed together by one cascade
    split = (m // group) * group
    out = np.empty((p, m), x.dtype)
    if split:
        out[:, :split] = _cascade(x[:, :, :split].reshape(p, n, split))
    if split < m:
        out[:, split:] = _row_sum(x[:, :, split:])
    return out


def _kept(shape: tuple[int, ...], dims: tuple[int, ...]) -> tuple[int, ...]:
    return tuple(1 if i in dims else s for i, s in enumerate(shape))


def _dropped(shape: tuple[int, ...], dims: tuple[int, ...]) -> tuple[int, ...]:
    return tuple(s for i, s in enumerate(shape) if i not in dims)


def cascade_sum(a: np.ndarray, axis: Any, keepdims: bool) -> np.ndarray | None:
    """a summed over axis (None, an int or a tuple) in PyTorch's order; None where this module
    does not model PyTorch's order (the caller then sums with NumPy)."""
    if a.dtype not in _FLOATS or a.size == 0:
        return None
    if axis is None:  # the common full sum: the compiled pass without the general set-up
        k = _jit.kernels(a.size)
        if k is not None and (a.flags.c_contiguous or a.flags.f_contiguous):
            r = np.array(k.cascade_full(a.ravel(order="K"), 32 // a.itemsize), a.dtype)
            return r.reshape((1,) * a.ndim) if keepdims else r
    nd = a.ndim
    if axis is None:
        dims = tuple(range(nd))
    elif isinstance(axis, tuple):
        dims = tuple(sorted(d % nd for d in axis))
    else:
        dims = (axis % nd,) if nd else ()
    shape = a.shape
    if len(dims) == nd:  # a full reduction: the dense tensor in memory order
        if a.flags.c_contiguous:
            flat = a.reshape(1, -1)
        elif a.flags.f_contiguous:
            flat = a.T.reshape(1, -1)
        else:
            return None
        k = _jit.kernels(a.size)
        if k is not None:  # one compiled pass in the same order (_numba_kernels.py)
            out = np.empty(1, a.dtype)
            k.cascade_rows(flat.reshape(-1), 1, flat.shape[1], 32 // a.itemsize, out)
            return out.reshape((1,) * nd if keepdims else ())
        else:
            out = np.asarray(_inner(flat)[0])
    else:
        if not a.flags.c_contiguous or dims != tuple(range(dims[0], dims[-1] + 1)):
            return None
        lead = math.prod(shape[: dims[0]])
        n = math.prod(shape[dims[0] : dims[-1] + 1])
        trail = math.prod(shape[dims[-1] + 1 :])
        k = _jit.kernels(a.size)
        if k is not None:
            out = np.empty(lead * trail, a.dtype)
            if trail == 1:
                k.cascade_rows(a.reshape(-1), lead, n, 32 // a.itemsize, out)
            else:
                k.cascade_outer(a.reshape(-1), lead, n, trail, 32 // a.itemsize, out)
            # a fresh array already: no copy below
            return out.reshape(_kept(shape, dims) if keepdims else _dropped(shape, dims))
        if trail == 1:
            out = _inner(a.reshape(lead, n))
        else:
            out = _outer(a.reshape(lead, n, trail))
        out = out.reshape(_dropped(shape, dims))
    if keepdims:
        out = out.reshape(_kept(shape, dims))
    # a fresh C-ordered array (the steps above may leave a strided view); + 0.0 turns -0.0
    # into +0.0, as PyTorch's accumulators, which start from +0.0, never give -0.0
    out = np.array(out, order="C", copy=True)
    np.add(out, 0.0, out=out)
    return out
