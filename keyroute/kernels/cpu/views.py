"""CPU (NumPy) kernels of the view operators.

Each kernel returns a NumPy view of the input's storage with PyTorch's strides and storage
offset (the geometry functions in aten/views.py are the reference, shared with the meta
functions). NumPy's basic indexing, transpose and squeeze give those strides directly; where
NumPy's differ (unsqueeze next to size-1 dims, empty slices, unfold) the view is rebuilt with
`as_strided` from the same data pointer.
"""

from __future__ import annotations

from typing import Any

import numpy as np

from ...aten import views as g
from ...aten._shape import wrap_dim
from ...tensor._tensor import Tensor, _root_array, make_tensor
from ._kernel import kernel

_as_strided = np.lib.stride_tricks.as_strided
_FULL = slice(None)


def _view(self: Tensor, a: np.ndarray) -> Tensor:
    """A tensor over NumPy view `a` of self's storage (ADInplaceOrView records the base)."""
    return make_tensor(a, self._dtype, self._key_set, Tensor)


def _restride(a: np.ndarray, shape: tuple[int, ...], stride: tuple[int, ...]) -> np.ndarray:
    """A view starting at a's first element with element strides `stride`."""
    item = a.itemsize
    return _as_strided(
        a, shape, tuple(s * item for s in stride), writeable=a.flags.writeable, subok=False
    )


def _elem_strides(a: np.ndarray) -> tuple[int, ...]:
    item = a.itemsize
    return tuple(s // item for s in a.strides)


# ----------------------------------------------------------------------------- reorderings


@kernel("permute")
def permute(self, dims):
    a = self._data
    perm = g.permute_dims(a.ndim, dims)
    return _view(self, a.transpose(perm))


@kernel("transpose.int")
def transpose_int(self, dim0, dim1):
    a = self._data
    n = a.ndim
    d0, d1 = wrap_dim(dim0, n), wrap_dim(dim1, n)
    return _view(self, a.swapaxes(d0, d1) if n else a.view())


@kernel("t")
def t(self):
    a = self._data
    g.t_check(a.ndim)
    return _view(self, a.T if a.ndim == 2 else a.view())


@kernel("transpose_")
def transpose_(self, dim0, dim1):
    a = self._data
    n = a.ndim
    d0, d1 = wrap_dim(dim0, n), wrap_dim(dim1, n)
    if n:
        self._data = a.swapaxes(d0, d1)
    return self


@kernel("as_strided_")
def as_strided_(self, size, stride, storage_offset=None):
    # setStrided: the new geometry is bound-checked against the storage (strided_view), so
    # NumPy never sees a stride or offset that leaves the buffer.
    from .core import as_size, strided_view

    shape, strides = as_size(size), as_size(stride)
    offset = self.storage_offset() if storage_offset is None else int(storage_offset)
    self._data = strided_view(self._data, shape, strides, offset)
    return self


@kernel("t_")
def t_(self):
    a = self._data
    g.t_check(a.ndim, "t_")
    if a.ndim == 2:
        self._data = a.T
    return self


# ----------------------------------------------------------------------------- squeeze / unsqueeze


def _squeezed(a: np.ndarray, dims: Any) -> np.ndarray:
    drop = g.squeeze_dims(a.shape, dims)
    return a.squeeze(drop) if drop else a.view()


@kernel("squeeze")
def squeeze(self):
    return _view(self, self._data.squeeze())


@kernel("squeeze.dim")
def squeeze_dim(self, dim):
    return _view(self, _squeezed(self._data, [dim]))


@kernel("squeeze.dims")
def squeeze_dims(self, dim):
    return _view(self, _squeezed(self._data, dim))


@kernel("squeeze_")
def squeeze_(self):
    self._data = self._data.squeeze()
    return self


@kernel("squeeze_.dim")
def squeeze__dim(self, dim):
    self._data = _squeezed(self._data, [dim])
    return self


@kernel("squeeze_.dims")
def squeeze__dims(self, dim):
    self._data = _squeezed(self._data, dim)
    return self


def _unsqueezed(a: np.ndarray, dim: int) -> np.ndarray:
    shape, stride = g.unsqueeze_geometry(a.shape, _elem_strides(a), dim)
    # NumPy's no-copy reshape gives these strides except next to size-1 dims: check.
    v = a.reshape(shape)
    if v.base is None or _elem_strides(v) != stride:
        v = _restride(a, shape, stride)
    return v


@kernel("unsqueeze")
def unsqueeze(self, dim):
    return _view(self, _unsqueezed(self._data, dim))


@kernel("unsqueeze_")
def unsqueeze_(self, dim):
    self._data = _unsqueezed(self._data, dim)
    return self


# ----------------------------------------------------------------------------- select / slice


@kernel("select.int")
def select_int(self, dim, index):
    a = self._data
    d, i = g.select_check(a.shape, dim, int(index))
    # The trailing Ellipsis keeps a 0-d result an array view (not a NumPy scalar).
    if d == 0:
        return _view(self, a[i, ...])
    return _view(self, a[(_FULL,) * d + (i, ...)])


@kernel("slice.Tensor")
def slice_Tensor(self, dim=0, start=None, end=None, step=1):
    a = self._data
    n = a.ndim
    if n == 0:
        raise IndexError("slice() cannot be applied to a 0-dim tensor.")
    d = dim if 0 <= dim < n else wrap_dim(dim, n)
    lo, hi = g.slice_bounds(a.shape[d], start, end, step)
    v = a[lo:hi:step] if d == 0 else a[(_FULL,) * d + (slice(lo, hi, step),)]
    if lo == hi:
        st = list(_elem_strides(v))
        if step != 1:
            # NumPy keeps the old stride on an empty slice; PyTorch multiplies it by step.
            st[d] *= step
        # NumPy does not move an empty slice's start; PyTorch's storage offset does move.
        v = _empty_view_at(a, v.shape, tuple(st), self.storage_offset() + lo * self.stride(d))
    return _view(self, v)


def _empty_view_at(
    a: np.ndarray, shape: tuple[int, ...], stride: tuple[int, ...], offset: int
) -> np.ndarray:
    """A zero-size view of a's storage starting at element `offset` (PyTorch's geometry)."""
    root = _root_array(a)
    item = a.itemsize
    if root.dtype != a.dtype or not root.flags.c_contiguous or offset * item > root.nbytes:
        return _restride(a, shape, stride)
    return np.ndarray(
        shape, a.dtype, buffer=root, offset=offset * item, strides=tuple(s * item for s in stride)
    )


def _split_arrays(a: np.ndarray, d: int, lengths: list[int]) -> list[np.ndarray]:
    out = []
    start = 0
    pre = (_FULL,) * d
    for n in lengths:
        out.append(a[pre + (slice(start, start + n),)])
        start += n
    return out


@kernel("split.Tensor")
def split_Tensor(self, split_size, dim=0):
    a = self._data
    if a.ndim == 0:
        raise RuntimeError("split expects at least a 1-dimensional tensor")
    d = wrap_dim(dim, a.ndim)
    lengths = g.split_sizes(a.shape[d], int(split_size))
    return [_view(self, v) for v in _split_arrays(a, d, lengths)]


@kernel("split_with_sizes")
def split_with_sizes(self, split_sizes, dim=0):
    a = self._data
    if a.ndim == 0:
        raise RuntimeError("split expects at least a 1-dimensional tensor")
    d = wrap_dim(dim, a.ndim)
    sizes = [int(s) for s in split_sizes]
    g.split_with_sizes_check(a.shape[d], d, sizes)
    return [_view(self, v) for v in _split_arrays(a, d, sizes)]


@kernel("unbind.int")
def unbind_int(self, dim=0):
    a = self._data
    d = wrap_dim(dim, a.ndim, wrap_scalar=False)
    if d == 0:
        return [_view(self, a[i, ...]) for i in range(a.shape[0])]
    pre = (_FULL,) * d
    return [_view(self, a[pre + (i, ...)]) for i in range(a.shape[d])]


# ----------------------------------------------------------------------------- diagonal / unfold


@kernel("diagonal")
def diagonal(self, offset=0, dim1=0, dim2=1):
    a = self._data
    shape, stride, _delta = g.diagonal_geometry(a.shape, _elem_strides(a), offset, dim1, dim2)
    if shape[-1] == 0:
        return _view(self, _restride(a, shape, stride))
    d1, d2 = wrap_dim(dim1, a.ndim), wrap_dim(dim2, a.ndim)
    v = np.diagonal(a, offset, d1, d2)
    # NumPy marks diagonal views read-only; PyTorch's are writable views.
    if a.flags.writeable:
        v.flags.writeable = True
    return _view(self, v)


@kernel("unfold")
def unfold(self, dimension, size, step):
    a = self._data
    shape, stride = g.unfold_geometry(a.shape, _elem_strides(a), dimension, size, step)
    return _view(self, _restride(a, shape, stride))
