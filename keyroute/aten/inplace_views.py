"""The in-place view operators (PyTorch's ``inplace_view`` tag): self keeps its storage and
takes a new geometry (transpose_, t_, squeeze_, unsqueeze_, as_strided_; swapaxes_ and swapdims_
decompose to transpose_). Their meta functions; the geometry rules are the out-of-place views'
(aten/views.py)."""

from __future__ import annotations

from ..tensor.geometry import check_in_bounds
from ..tensor.meta_array import MetaArray
from ._define import aten, composite, meta
from ._meta_util import shape_of
from .core import as_size
from .views import squeeze_geometry, t_check, transpose_geometry, unsqueeze_geometry


def _restride_meta(self, shape, stride):
    """In-place view ops: self's layout becomes (shape, stride) (same storage and offset)."""
    data = self._data
    self._data = MetaArray(shape, stride, data.dtype, data.offset, data.storage_nbytes)
    return self


@meta(
    "as_strided_(Tensor(a!) self, SymInt[] size, SymInt[] stride, SymInt? storage_offset=None) "
    "-> Tensor(a!)"
)
def as_strided_(self, size, stride, storage_offset=None):
    """setStrided: self's geometry becomes the given one, checked against self's storage."""
    shape, strides, data = as_size(size), as_size(stride), self._data
    offset = self.storage_offset() if storage_offset is None else int(storage_offset)
    check_in_bounds(shape, strides, offset, self._dtype.itemsize, data.storage_nbytes)
    self._data = MetaArray(shape, strides, data.dtype, offset, data.storage_nbytes)
    return self


@meta("transpose_(Tensor(a!) self, int dim0, int dim1) -> Tensor(a!)")
def transpose_(self, dim0, dim1):
    shape, stride = transpose_geometry(shape_of(self), self.stride(), dim0, dim1)
    return _restride_meta(self, shape, stride)


@meta("t_(Tensor(a!) self) -> Tensor(a!)")
def t_(self):
    shape = shape_of(self)
    t_check(len(shape), "t_")
    shape, stride = transpose_geometry(shape, self.stride(), 0, 1 if len(shape) == 2 else 0)
    return _restride_meta(self, shape, stride)


@meta("squeeze_(Tensor(a!) self) -> Tensor(a!)")
def squeeze__(self):
    return _restride_meta(self, *squeeze_geometry(shape_of(self), self.stride(), None))


@meta("squeeze_.dim(Tensor(a!) self, int dim) -> Tensor(a!)")
def squeeze__dim(self, dim):
    return _restride_meta(self, *squeeze_geometry(shape_of(self), self.stride(), [dim]))


@meta("squeeze_.dims(Tensor(a!) self, int[] dim) -> Tensor(a!)")
def squeeze__dims(self, dim):
    return _restride_meta(self, *squeeze_geometry(shape_of(self), self.stride(), dim))


@meta("unsqueeze_(Tensor(a!) self, int dim) -> Tensor(a!)")
def unsqueeze_(self, dim):
    return _restride_meta(self, *unsqueeze_geometry(shape_of(self), self.stride(), dim))


_transpose_ = aten("transpose_")


@composite("swapaxes_(Tensor(a!) self, int axis0, int axis1) -> Tensor(a!)")
def swapaxes_(self, axis0, axis1):
    return _transpose_(self, axis0, axis1)


@composite("swapdims_(Tensor(a!) self, int dim0, int dim1) -> Tensor(a!)")
def swapdims_(self, dim0, dim1):
    return _transpose_(self, dim0, dim1)
