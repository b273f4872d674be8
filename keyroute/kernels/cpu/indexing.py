"""CPU (NumPy) kernels of the indexing operators.

Advanced indexing runs NumPy's advanced indexing (same result layout rule: non-adjacent index
dimensions go first) on PyTorch's expanded index list, then lays the result out with the
strides TensorIterator would pick (aten/indexing.py `advanced_index`). Scatter-style writes use
`ufunc.at` (accumulation is exact with repeated indices). Bounds are checked before any write,
with PyTorch's messages, so a failing op leaves its inputs unchanged.
"""

from __future__ import annotations

from typing import Any

import numpy as np

from ...aten import _shape
from ...aten import indexing as ix
from ...aten._meta_util import check
from ...tensor._tensor import Tensor
from ...tensor.dtype import int64
from ._kernel import check_no_internal_overlap, kernel, wrap
from .core import _fill_value, strided_view

_FULL = slice(None)
_contiguous = _shape.contiguous_strides


def _empty(shape: tuple[int, ...], stride: tuple[int, ...], dt: Any) -> np.ndarray:
    """An uninitialised array with element strides `stride` (NumPy gives zero-size arrays
    all-zero strides, so those are built with as_strided too)."""
    n = _shape.numel(shape)
    if n and stride == _contiguous(shape):
        return np.empty(shape, dt)
    extent = 1 + sum((s - 1) * st for s, st in zip(shape, stride)) if n else 1
    return strided_view(np.empty(max(extent, 1), dt), shape, stride, 0)


def _laid_out(r: np.ndarray, shape: tuple[int, ...], stride: tuple[int, ...]) -> np.ndarray:
    """r itself if it has PyTorch's strides, else a copy that does."""
    item = r.itemsize
    if r.shape == shape and tuple(s // item for s in r.strides) == stride:
        return r
    if r.size == 1 and stride == _contiguous(shape):
        return np.ascontiguousarray(r).reshape(shape)
    out = _empty(shape, stride, r.dtype)
    np.copyto(out, r.reshape(shape) if r.shape != shape else r)
    return out


def _contiguous_copy(a: np.ndarray) -> np.ndarray:
    return np.array(a, order="C", copy=True)


def _first_bad(arrays: list[np.ndarray], sizes: list[int], lo_wrap: bool) -> tuple[int, int] | None:
    """(position j, value) of the first out-of-range index in C order, or None.
    With lo_wrap, [-size, size) is valid (negative indices wrap); else [0, size)."""
    bad_any = None
    for v, size in zip(arrays, sizes):
        if v.size == 0:
            continue
        lo = -size if lo_wrap else 0
        if v.min() < lo or v.max() >= size:
            bad = (v < lo) | (v >= size)
            bad_any = bad if bad_any is None else (bad_any | bad)
    if bad_any is None:
        return None
    shape = np.broadcast_shapes(*(v.shape for v in arrays))
    flat = np.broadcast_to(bad_any, shape).reshape(-1)
    p = int(np.argmax(flat))
    for j, (v, size) in enumerate(zip(arrays, sizes)):
        lo = -size if lo_wrap else 0
        value = int(np.broadcast_to(v, shape).reshape(-1)[p]) if v.size else 0
        if v.size and (value < lo or value >= size):
            return j, value
    return None


# ----------------------------------------------------------------------------- advanced indexing


def _advanced(self: Tensor, indices: Any) -> tuple[tuple[Any, ...], Any, tuple[int, ...]]:
    """(NumPy index tuple, out shape, out strides) of an aten index list, bounds checked."""
    a = self._data
    ix.check_index_dtypes(indices)
    entries = ix.expand_masks(a.shape, indices)
    out_shape, out_stride, _bshape, order = ix.advanced_index(a.shape, self.stride(), entries)
    arrays = [e.values for _d, e in order]
    sizes = [a.shape[d] for d, _e in order]
    found = _first_bad(arrays, sizes, True)
    if found is not None:
        j, value = found
        raise IndexError(f"index {value} is out of bounds for dimension {j} with size {sizes[j]}")
    np_idx = tuple(_FULL if e is None else e.values for e in entries)
    return np_idx, out_shape, out_stride


@kernel("index.Tensor")
def index_Tensor(self, indices):
    if not indices:
        raise RuntimeError("at least one index must be provided")
    np_idx, shape, stride = _advanced(self, indices)
    r = self._data[np_idx]
    return wrap(_laid_out(r, shape, stride), self._dtype)


@kernel("_index_put_impl_")
def _index_put_impl_(self, indices, values, accumulate=False, unsafe=False):
    a = self._data
    ix.index_put_checks(self, indices, values)
    if not accumulate:
        mf = ix.masked_fill_mask(a.shape, indices, values)
        if mf is not None:
            mask, n = mf
            m = mask._data
            if m.dtype != np.bool_:
                m = m.astype(np.bool_)
            m = m.reshape(m.shape + (1,) * (a.ndim - n))
            np.copyto(a, _fill_value(a, values.item()), where=m)
            return self
    np_idx, shape, _stride = _advanced(self, indices)
    ix.index_put_value_check(shape, self._dtype, values)
    v = values._data
    if accumulate:
        np.add.at(a, np_idx, v)
    else:
        a[np_idx] = v
    return self


# ----------------------------------------------------------------------------- index_select / take


@kernel("index_select")
def index_select(self, dim, index):
    a = self._data
    shape = ix.index_select_check(a.shape, dim, index)
    idx = index._data.reshape(-1)
    if a.ndim == 0:
        if idx.size and not 0 <= idx[0] < 1:
            raise IndexError("index out of range in self")
        return wrap(a.copy(), self._dtype)
    d = _shape.wrap_dim(dim, a.ndim)
    size = a.shape[d]
    if idx.size and (idx.min() < 0 or idx.max() >= size):
        raise IndexError("index out of range in self")
    r = np.take(a, idx, axis=d)
    return wrap(_laid_out(r, shape, _contiguous(shape)), self._dtype)


@kernel("take")
def take(self, index):
    a = self._data
    ix.take_check(self, index)
    idx = index._data
    n = a.size
    if idx.size:
        found = _first_bad([idx], [n], True)
        if found is not None:
            raise IndexError(
                f"out of range: tried to access index {found[1]} on a tensor of {n} elements."
            )
    flat = a.reshape(-1)
    r = flat[idx] if idx.size else _empty(idx.shape, _contiguous(idx.shape), a.dtype)
    return wrap(_laid_out(np.asarray(r), idx.shape, _contiguous(idx.shape)), self._dtype)


@kernel("put_")
def put_(self, index, source, accumulate=False):
    a = self._data
    check_no_internal_overlap(a)
    ix.put_check(self, index, source)
    idx = index._data.reshape(-1)
    n = a.size
    if idx.size:
        found = _first_bad([idx], [n], True)
        if found is not None:
            raise IndexError(
                f"out of range: tried to access index {found[1]} on a tensor of {n} elements."
            )
        pos = np.unravel_index(np.where(idx < 0, idx + n, idx), a.shape) if a.ndim else ()
        src = source._data.reshape(-1)
        if a.ndim == 0:
            target = a.reshape(1)
            pos = (np.zeros_like(idx),)
        else:
            target = a
        if accumulate:
            np.add.at(target, pos, src)
        else:
            target[pos] = src
    return self


# ----------------------------------------------------------------------------- gather / scatter


def _dim_index(idx: np.ndarray, d: int) -> tuple[Any, ...]:
    """An open-mesh index tuple: aranges on every dim except d, idx on d."""
    nd = idx.ndim
    out: list[Any] = []
    for i in range(nd):
        if i == d:
            out.append(idx)
        else:
            shape = [1] * nd
            shape[i] = idx.shape[i]
            out.append(np.arange(idx.shape[i]).reshape(shape))
    return tuple(out)


def _check_bounds(idx: np.ndarray, size: int, d: int) -> None:
    if idx.size and (idx.min() < 0 or idx.max() >= size):
        bad = (idx < 0) | (idx >= size)
        value = int(idx.reshape(-1)[int(np.argmax(bad.reshape(-1)))])
        raise RuntimeError(f"index {value} is out of bounds for dimension {d} with size {size}")


@kernel("gather")
def gather(self, dim, index, *, sparse_grad=False):
    a = self._data
    d = ix.gather_check(self, dim, index)
    idx = index._data
    if idx.size == 0:
        return wrap(_empty(idx.shape, _contiguous(idx.shape), a.dtype), self._dtype)
    if a.ndim == 0:
        a, idx = a.reshape(1), idx.reshape(1) if idx.ndim == 0 else idx
    _check_bounds(idx, a.shape[d], d)
    src = a[tuple(_FULL if i == d else slice(0, idx.shape[i]) for i in range(a.ndim))]
    r = np.take_along_axis(src, idx.astype(np.intp, copy=False), axis=d)
    shape = index._data.shape
    return wrap(_laid_out(r.reshape(shape), shape, _contiguous(shape)), self._dtype)


def _scatter_into(
    a: np.ndarray, d: int, index: Tensor, src: Any, reduce: str | None, include_self: bool = True
) -> None:
    """Scatter src (a tensor or a scalar) into a along d, in place."""
    idx = index._data
    if idx.size == 0:
        return
    if a.ndim == 0:
        a = a.reshape(1)
    if idx.ndim == 0:
        idx = idx.reshape(1)
    _check_bounds(idx, a.shape[d], d)
    view = a[tuple(_FULL if i == d else slice(0, idx.shape[i]) for i in range(a.ndim))]
    if isinstance(src, Tensor):
        s = src._data
        if s.ndim == 0:
            s = s.reshape(1)
        vals = s[tuple(slice(0, n) for n in idx.shape)]
    else:
        vals = _fill_value(a, src)
    pos = _dim_index(idx, d)
    if reduce is None:
        view[pos] = vals
        return
    if reduce == "mean":
        _scatter_mean(view, pos, vals, include_self)
        return
    ufunc = {"sum": np.add, "prod": np.multiply, "amax": np.maximum, "amin": np.minimum}[reduce]
    if not include_self:
        view[pos] = _identity(reduce, view.dtype)
    ufunc.at(view, pos, vals)


def _identity(reduce: str, dt: np.dtype) -> Any:
    if reduce == "sum":
        return 0
    if reduce == "prod":
        return 1
    if dt.kind == "b":
        return reduce == "amin"
    if dt.kind in "iu":
        info = np.iinfo(dt)
        return info.min if reduce == "amax" else info.max
    return -np.inf if reduce == "amax" else np.inf


def _scatter_mean(view: np.ndarray, pos: tuple[Any, ...], vals: Any, include_self: bool) -> None:
    count = np.full(view.shape, 1 if include_self else 0, np.int64)
    np.add.at(count, pos, 1)
    if not include_self:
        view[pos] = 0
    acc = view.astype(np.float64) if view.dtype.kind == "f" and view.dtype.itemsize < 4 else view
    if acc is not view:
        np.add.at(acc, pos, np.asarray(vals, dtype=np.float64))
    else:
        np.add.at(acc, pos, vals)
    count[count == 0] = 1
    if view.dtype.kind in "iu":
        view[...] = np.floor_divide(acc, count).astype(view.dtype)
    else:
        view[...] = (acc / count).astype(view.dtype)


def _scatter_functional(self, dim, index, src, reduce=None, include_self=True, new=False):
    d = ix.scatter_check(self, dim, index, src if isinstance(src, Tensor) else None, reduce, new)
    out = _contiguous_copy(self._data)
    red = None if reduce is None else ix.reduce_enum(reduce, new)
    _scatter_into(out, d, index, src, red, include_self)
    return wrap(out, self._dtype)


def _scatter_inplace(self, dim, index, src, reduce=None, include_self=True, new=False):
    check_no_internal_overlap(self._data)
    d = ix.scatter_check(self, dim, index, src if isinstance(src, Tensor) else None, reduce, new)
    red = None if reduce is None else ix.reduce_enum(reduce, new)
    _scatter_into(self._data, d, index, src, red, include_self)
    return self


@kernel("scatter.src", "scatter.value")
def scatter(self, dim, index, src):
    return _scatter_functional(self, dim, index, src)


@kernel("scatter.reduce", "scatter.value_reduce")
def scatter_reduce(self, dim, index, src, *, reduce):
    return _scatter_functional(self, dim, index, src, reduce)


@kernel("scatter_add")
def scatter_add(self, dim, index, src):
    return _scatter_functional(self, dim, index, src, "add")


@kernel("scatter_reduce.two")
def scatter_reduce_two(self, dim, index, src, reduce, *, include_self=True):
    return _scatter_functional(self, dim, index, src, reduce, include_self, True)


@kernel("scatter_.src", "scatter_.value")
def scatter_(self, dim, index, src):
    return _scatter_inplace(self, dim, index, src)


@kernel("scatter_.reduce", "scatter_.value_reduce")
def scatter__reduce(self, dim, index, src, *, reduce):
    return _scatter_inplace(self, dim, index, src, reduce)


@kernel("scatter_add_")
def scatter_add_(self, dim, index, src):
    return _scatter_inplace(self, dim, index, src, "add")


@kernel("scatter_reduce_.two")
def scatter_reduce__two(self, dim, index, src, reduce, *, include_self=True):
    return _scatter_inplace(self, dim, index, src, reduce, include_self, True)


# ------------------------------------------------------------------------- masked_select / nonzero


@kernel("masked_select")
def masked_select(self, mask):
    check(mask._dtype.name == "bool", "masked_select: expected BoolTensor for mask")
    a, m = self._data, mask._data
    shape = ix.infer_size(m.shape, a.shape)
    if a.shape != shape:
        a = np.broadcast_to(a, shape)
    if m.shape != shape:
        m = np.broadcast_to(m, shape)
    return wrap(np.ascontiguousarray(a[m]), self._dtype)


@kernel("nonzero")
def nonzero(self):
    a = self._data
    if a.ndim == 0:
        n = int(a != 0)
        return wrap(_empty((n, 0), ix.nonzero_strides(n, 0), np.int64), int64)
    coords = np.nonzero(a)
    n = len(coords[0])
    shape = (n, a.ndim)
    r = np.stack(coords).T if n else np.empty(shape, np.int64)
    return wrap(
        _laid_out(r.astype(np.int64, copy=False), shape, ix.nonzero_strides(n, a.ndim)), int64
    )


# ------------------------------------------------------------------------- index_copy / fill / add


def _dim_idx(nd: int, d: int, idx: np.ndarray) -> tuple[Any, ...]:
    return (_FULL,) * d + (idx,)


def _index_copy_into(a: np.ndarray, d: int, index: Tensor, source: Tensor) -> None:
    idx = index._data.reshape(-1)
    if a.ndim == 0:
        a = a.reshape(1)
    size = a.shape[d]
    if idx.size and (idx.min() < 0 or idx.max() >= size):
        bad = (idx < 0) | (idx >= size)
        value = int(idx[int(np.argmax(bad))])
        raise IndexError(
            f"index_copy_(): index {value} is out of bounds for dimension {d} with size {size}"
        )
    s = source._data
    a[_dim_idx(a.ndim, d, idx)] = s if s.ndim else s.reshape(())


@kernel("index_copy")
def index_copy(self, dim, index, source):
    d = ix.index_copy_check(self, dim, index, source)
    out = _contiguous_copy(self._data)
    _index_copy_into(out, d, index, source)
    return wrap(out, self._dtype)


@kernel("index_copy_")
def index_copy_(self, dim, index, source):
    check_no_internal_overlap(self._data)
    d = ix.index_copy_check(self, dim, index, source)
    _index_copy_into(self._data, d, index, source)
    return self


def _index_fill_into(self: Tensor, dim: int, index: Tensor, value: Any) -> Tensor:
    d = ix.index_fill_check(self, dim, index, value)
    a = self._data
    if a.ndim == 0:
        a = a.reshape(1)
    idx = index._data.reshape(-1)
    size = a.shape[d]
    found = _first_bad([idx], [size], True) if idx.size else None
    if found is not None:
        raise IndexError(f"index {found[1]} is out of bounds for dimension {d} with size {size}")
    v = value.item() if isinstance(value, Tensor) else value
    a[_dim_idx(a.ndim, d, idx)] = _fill_value(a, v)
    return self


@kernel("index_fill_.int_Scalar", "index_fill_.int_Tensor")
def index_fill_(self, dim, index, value):
    return _index_fill_into(self, dim, index, value)


def _index_add_into(a: np.ndarray, d: int, index: Tensor, source: Tensor, alpha: Any) -> None:
    idx = index._data.reshape(-1)
    if a.ndim == 0:
        a = a.reshape(1)
    size = a.shape[d]
    if idx.size and (idx.min() < 0 or idx.max() >= size):
        raise IndexError("index out of range in self")
    s = source._data
    if s.ndim == 0:
        s = s.reshape(1)
    if alpha != 1:
        s = (s * alpha).astype(a.dtype)
    np.add.at(a, _dim_idx(a.ndim, d, idx), s)


@kernel("index_add")
def index_add(self, dim, index, source, *, alpha=1):
    d = ix.index_add_check(self, dim, index, source)
    out = _contiguous_copy(self._data)
    _index_add_into(out, d, index, source, alpha)
    return wrap(out, self._dtype)


@kernel("index_add_")
def index_add_(self, dim, index, source, *, alpha=1):
    check_no_internal_overlap(self._data)
    d = ix.index_add_check(self, dim, index, source)
    _index_add_into(self._data, d, index, source, alpha)
    return self
