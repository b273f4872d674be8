"""aten operators of complex views and the math bits: conj / _conj / resolve_conj /
conj_physical, _neg_view / resolve_neg, view_as_real / view_as_complex, real / imag.

The conjugate and negative bits are the Conjugate and Negative dispatch keys in a tensor's key
set (keyroute/layers/mathbits.py is their layer): `_conj` and `_neg_view` are views that toggle
a bit, and the composites are PyTorch's: `conj` is `_conj` for complex tensors and the tensor
itself otherwise, `real` / `imag` select from `view_as_real` (through `_neg_view` for the
imaginary part of a conjugate view), `resolve_conj` / `resolve_neg` are a `clone` when the bit
is set.
"""

from __future__ import annotations

from typing import Any

from ..dispatcher.keys import DispatchKey
from ..dispatcher.keyset import key_bits
from ..tensor.meta_array import MetaArray
from . import _shape
from ._define import composite, meta
from ._meta_util import check, meta_view, new_meta, shape_of
from .linalg import op

__all__ = ["CONJ_BIT", "NEG_BIT", "MATH_BITS", "ZERO_BIT"]

CONJ_BIT = key_bits(DispatchKey.Conjugate)
NEG_BIT = key_bits(DispatchKey.Negative)
MATH_BITS = CONJ_BIT | NEG_BIT


def _toggled(self: Any, bit: int) -> Any:
    out = meta_view(self, shape_of(self), self.stride())
    out._key_set = (out._key_set & ~bit) | (~self._key_set & bit)
    return out


@meta("_conj(Tensor(a) self) -> Tensor(a)")
def _conj(self):
    return _toggled(self, CONJ_BIT)


@meta("_neg_view(Tensor(a) self) -> Tensor(a)")
def _neg_view(self):
    return _toggled(self, NEG_BIT)


@composite("conj(Tensor(a) self) -> Tensor(a)")
def conj(self):
    return op("_conj")(self) if self._dtype.is_complex else self


@composite("resolve_conj(Tensor(a) self) -> Tensor(a)")
def resolve_conj(self):
    return op("clone")(self) if self._key_set & CONJ_BIT else self


@composite("resolve_neg(Tensor(a) self) -> Tensor(a)")
def resolve_neg(self):
    return op("clone")(self) if self._key_set & NEG_BIT else self


@meta("_conj_physical(Tensor self) -> Tensor")
def _conj_physical(self):
    # A unary TensorIterator op: the output follows the input's memory order.
    shape = shape_of(self)
    return new_meta(shape, self._dtype, _shape.elementwise_strides(shape, [(shape, self.stride())]))


@composite("conj_physical(Tensor self) -> Tensor")
def conj_physical(self):
    return op("_conj_physical")(self) if self._dtype.is_complex else self


@meta("conj_physical_(Tensor(a!) self) -> Tensor(a!)")
def conj_physical_(self):
    return self


def _as_meta(self: Any, shape: Any, stride: Any, offset: int, dt: Any) -> Any:
    data = self._data
    if isinstance(data, MetaArray):
        nbytes, storage, ks, cls = data.storage_nbytes, data.storage, self._key_set, type(self)
    else:
        from ..tensor._tensor import _root_array
        from ._meta_util import META_KEYS

        nbytes, storage, ks, cls = _root_array(data).nbytes, None, META_KEYS, Tensor
    m = MetaArray(tuple(shape), tuple(stride), dt.np, offset, nbytes, storage)
    from ..tensor._tensor import make_tensor

    return make_tensor(m, dt, ks, cls)


from ..tensor._tensor import Tensor  # noqa: E402


def view_as_real_geometry(self: Any) -> tuple[tuple[int, ...], tuple[int, ...], int]:
    check(
        not self._key_set & CONJ_BIT,
        "view_as_real doesn't work on unresolved conjugated tensors.  To resolve the conjugate "
        "tensor so you can view it as real, use self.resolve_conj(); however, be warned that the "
        "resulting tensor will NOT alias the original.",
    )
    check(self._dtype.is_complex, "view_as_real is only supported for complex tensors")
    shape = shape_of(self) + (2,)
    stride = tuple(2 * s for s in self.stride()) + (1,)
    return shape, stride, 2 * self.storage_offset()


def view_as_complex_geometry(self: Any) -> tuple[tuple[int, ...], tuple[int, ...], int]:
    dt = self._dtype
    check(
        dt.name in ("float16", "float32", "float64"),
        "view_as_complex is only supported for half, float and double tensors, but got a tensor "
        f"of scalar type: {dt._short}",
    )
    shape = shape_of(self)
    check(len(shape) != 0, "Input tensor must have one or more dimensions")
    check(shape[-1] == 2, "Tensor must have a last dimension of size 2")
    stride = self.stride()
    check(stride[-1] == 1, "Tensor must have a last dimension with stride 1")
    check(
        all(s % 2 == 0 for s in stride[:-1]),
        "Tensor must have a stride divisible by 2 for all but last dimension",
    )
    offset = self.storage_offset()
    check(offset % 2 == 0, "Tensor must have a storage_offset divisible by 2")
    return shape[:-1], tuple(s // 2 for s in stride[:-1]), offset // 2


@meta("view_as_real(Tensor(a) self) -> Tensor(a)")
def view_as_real(self):
    shape, stride, offset = view_as_real_geometry(self)
    return _as_meta(self, shape, stride, offset, self._dtype.to_real())


@meta("view_as_complex(Tensor(a) self) -> Tensor(a)")
def view_as_complex(self):
    shape, stride, offset = view_as_complex_geometry(self)
    return _as_meta(self, shape, stride, offset, self._dtype.to_complex())


@composite("real(Tensor(a) self) -> Tensor(a)")
def real(self):
    if not self._dtype.is_complex:
        return self
    base = op("_conj")(self) if self._key_set & CONJ_BIT else self
    ri = op("view_as_real")(base)
    return op("select.int")(ri, -1, 0)


@composite("imag(Tensor(a) self) -> Tensor(a)")
def imag(self):
    check(self._dtype.is_complex, "imag is not implemented for tensors with non-complex dtypes.")
    if self._key_set & CONJ_BIT:
        ri = op("view_as_real")(op("_conj")(self))
        return op("_neg_view")(op("select.int")(ri, -1, 1))
    return op("select.int")(op("view_as_real")(self), -1, 1)


@composite("is_conj(Tensor self) -> bool")
def is_conj(self):
    return bool(self._key_set & CONJ_BIT)


@composite("is_neg(Tensor self) -> bool")
def is_neg(self):
    return bool(self._key_set & NEG_BIT)


# -- ZeroTensor: tensors known to be all zeros (keyroute/layers/zerotensor.py) ---------------

ZERO_BIT = key_bits(DispatchKey.ZeroTensor)


@meta(
    "_efficientzerotensor(SymInt[] size, *, ScalarType? dtype=None, Layout? layout=None, "
    "Device? device=None, bool? pin_memory=None) -> Tensor"
)
def _efficientzerotensor(size, *, dtype=None, layout=None, device=None, pin_memory=None):
    from .core import as_size, factory_dtype

    out = new_meta(as_size(size), factory_dtype(dtype))
    out._key_set |= ZERO_BIT
    return out


@composite("_is_zerotensor(Tensor self) -> bool")
def _is_zerotensor(self):
    return bool(self._key_set & ZERO_BIT)
