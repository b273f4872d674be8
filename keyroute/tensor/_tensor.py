"""The Tensor: data (a NumPy array view, or a MetaArray), dtype, and its dispatch key set.

A CPU tensor's `_data` is a NumPy array that views its storage: views share the storage, so a
write through a view shows in its base. A meta tensor's `_data` is a MetaArray (layout only).
`_ks` is the tensor's dispatch key set as an int (PyTorch's TensorImpl key_set_), plus
keyroute's private requires-grad bit (see dispatcher/keyset.py).

Every operation is an aten operator call through the dispatcher; the methods and Python
operators are attached in tensor/methods.py.
"""

from __future__ import annotations

from typing import Any

import numpy as np

from ..dispatcher.keys import DispatchKey
from ..dispatcher.keyset import REQUIRES_GRAD_BIT, VISIBLE_MASK, key_bits, keyset_repr
from .device import DEVICE_TYPES, Device
from .dtype import dtype as _dtype_cls
from .dtype import to_dtype
from .meta_array import MetaArray

__all__ = ["Tensor", "Size", "CPU_KEYS", "META_KEYS", "make_tensor", "wrap_cpu", "wrap_meta"]

DK = DispatchKey
ADINPLACE = key_bits(DK.ADInplaceOrView)
CPU_KEYS = key_bits(DK.CPU) | ADINPLACE | key_bits(DK.AutogradCPU) | key_bits(DK.AutocastCPU)
META_KEYS = key_bits(DK.Meta) | ADINPLACE | key_bits(DK.AutogradMeta)
#: Inference tensors carry neither ADInplaceOrView nor the autograd keys.
INFERENCE_DROP = ADINPLACE | key_bits(DK.AutogradFunctionality) | key_bits(DK.AutogradOther)
BACKEND_BITS = 0xFFFF

_DEVICE_BY_BACKEND = {b: Device(t) for t, b in DEVICE_TYPES.items()}
_new = object.__new__
ndarray = np.ndarray


class Size(tuple):
    """A tensor shape (torch.Size): a tuple of ints."""

    __slots__ = ()

    def __repr__(self) -> str:
        return f"keyroute.Size([{', '.join(str(s) for s in self)}])"

    __str__ = __repr__

    def numel(self) -> int:
        n = 1
        for s in self:
            n *= s
        return n

    def __getitem__(self, item: Any) -> Any:
        out = tuple.__getitem__(self, item)
        return Size(out) if isinstance(item, slice) else out

    def __add__(self, other: Any) -> Size:
        return Size(tuple.__add__(self, tuple(other)))

    def __radd__(self, other: Any) -> Size:
        return Size(tuple(other) + tuple(self))

    def __reduce__(self) -> Any:
        return (Size, (tuple(self),))


class Tensor:
    """A multi-dimensional array routed through keyroute's dispatcher (torch.Tensor)."""

    __slots__ = ("_data", "_ks", "_dtype", "_ag", "_base", "_vc", "__weakref__", "__dict__")
    __array_priority__ = 1000  # numpy defers binary operators to us

    # -- construction ---------------------------------------------------------------------
    def __new__(cls, *args: Any, **kwargs: Any) -> Tensor:
        # keyroute.Tensor(data) / Tensor(sizes...) as torch.Tensor's legacy constructor.
        if cls is Tensor or not args or not isinstance(args[0], Tensor):
            from .. import _creation

            return _creation.legacy_tensor_new(cls, *args, **kwargs)
        return _new(cls)

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        pass

    # -- metadata -------------------------------------------------------------------------
    @property
    def shape(self) -> Size:
        return Size(self._data.shape)

    def size(self, dim: int | None = None) -> Any:
        shape = self._data.shape
        if dim is None:
            return Size(shape)
        return shape[_wrap_dim(dim, len(shape))]

    def dim(self) -> int:
        return len(self._data.shape)

    @property
    def ndim(self) -> int:
        return len(self._data.shape)

    ndimension = dim

    def numel(self) -> int:
        return int(self._data.size)

    nelement = numel

    @property
    def dtype(self) -> _dtype_cls:
        return self._dtype

    @property
    def device(self) -> Device:
        return _DEVICE_BY_BACKEND[(self._ks & BACKEND_BITS).bit_length()]

    @property
    def is_meta(self) -> bool:
        return self.device.type == "meta"

    @property
    def is_cpu(self) -> bool:
        return self.device.type == "cpu"

    @property
    def is_cuda(self) -> bool:
        return self.device.type == "cuda"

    @property
    def layout(self) -> Any:
        from .. import strided

        return strided

    @property
    def is_sparse(self) -> bool:
        return False

    @property
    def is_quantized(self) -> bool:
        return False

    @property
    def is_nested(self) -> bool:
        return False

    def is_floating_point(self) -> bool:
        return self._dtype.is_floating_point

    def is_complex(self) -> bool:
        return self._dtype.is_complex

    def is_signed(self) -> bool:
        return self._dtype.is_signed

    def element_size(self) -> int:
        return self._dtype.itemsize

    @property
    def itemsize(self) -> int:
        return self._dtype.itemsize

    @property
    def nbytes(self) -> int:
        return self.numel() * self._dtype.itemsize

    def stride(self, dim: int | None = None) -> Any:
        data = self._data
        if data.__class__ is MetaArray:
            strides = data.stride
        else:
            item = data.itemsize
            strides = tuple(s // item for s in data.strides)
        if dim is None:
            return strides
        return strides[_wrap_dim(dim, len(strides))]

    def storage_offset(self) -> int:
        data = self._data
        if data.__class__ is MetaArray:
            return data.offset
        root = _root_array(data)
        if data.size == 0:
            return 0
        return (_address(data) - _address(root)) // data.itemsize

    def is_contiguous(self, memory_format: Any = None) -> bool:
        from ..aten._shape import is_contiguous_strides

        if memory_format is not None and str(memory_format) == "keyroute.channels_last":
            from ..aten._shape import is_channels_last_strides

            return is_channels_last_strides(self._data.shape, self.stride())
        return is_contiguous_strides(self._data.shape, self.stride())

    def is_inference(self) -> bool:
        return not (self._ks & ADINPLACE) and not self._ks & key_bits(DK.AutogradFunctionality)

    # -- storage --------------------------------------------------------------------------
    def data_ptr(self) -> int:
        data = self._data
        if data.__class__ is MetaArray:
            return 0
        return _address(data)

    def untyped_storage(self) -> Any:
        from .storage import UntypedStorage

        return UntypedStorage._of(self)

    def _is_view(self) -> bool:
        return self._base is not None

    # -- autograd state (kept in the key set and _ag; see autograd/) -----------------------
    @property
    def requires_grad(self) -> bool:
        return bool(self._ks & REQUIRES_GRAD_BIT)

    @requires_grad.setter
    def requires_grad(self, value: bool) -> None:
        self.requires_grad_(value)

    def requires_grad_(self, requires_grad: bool = True) -> Tensor:
        from ..autograd import _meta

        _meta.set_requires_grad(self, bool(requires_grad))
        return self

    # -- conversion -----------------------------------------------------------------------
    def numpy(self, *, force: bool = False) -> np.ndarray:
        """The tensor's data as a NumPy array sharing its memory (as torch.Tensor.numpy)."""
        data = self._data
        if data.__class__ is MetaArray or type(data) is not ndarray:
            from ..backends.errors import data_access_error

            raise data_access_error(self, "numpy()")
        if self.requires_grad and not force:
            raise RuntimeError(
                "Can't call numpy() on Tensor that requires grad. Use tensor.detach().numpy() "
                "instead."
            )
        return data

    def __array__(self, dtype: Any = None, copy: Any = None) -> np.ndarray:
        arr = self.numpy(force=True)
        if dtype is not None:
            arr = arr.astype(dtype, copy=False)
        return arr

    def tolist(self) -> Any:
        data = self._data
        if data.__class__ is MetaArray or type(data) is not ndarray:
            from ..backends.errors import data_access_error

            raise data_access_error(self, "tolist()")
        if self._dtype.name == "bfloat16":
            data = data.astype(np.float32)
        return data.tolist()

    def item(self) -> Any:
        from .._ops import ops

        return ops.aten._local_scalar_dense.default(self)

    def __dlpack__(self, stream: Any = None, **kwargs: Any) -> Any:
        return self.numpy(force=True).__dlpack__(**kwargs)

    def __dlpack_device__(self) -> tuple[int, int]:
        return (1, 0)

    # -- python protocol ------------------------------------------------------------------
    def __len__(self) -> int:
        shape = self._data.shape
        if not shape:
            raise TypeError("len() of a 0-d tensor")
        return shape[0]

    def __iter__(self) -> Any:
        shape = self._data.shape
        if not shape:
            raise TypeError("iteration over a 0-d tensor")
        return iter(self.unbind(0))

    def __bool__(self) -> bool:
        if self.numel() != 1:
            raise RuntimeError(
                f"Boolean value of Tensor with {'no' if self.numel() == 0 else 'more than one'} "
                f"values is ambiguous"
            )
        return bool(self.item())

    def __float__(self) -> float:
        return float(self.item())

    def __int__(self) -> int:
        return int(self.item())

    def __complex__(self) -> complex:
        return complex(self.item())

    def __index__(self) -> int:
        if self._dtype.category != 1 or self.numel() != 1:
            raise TypeError("only integer tensors of a single element can be converted to an index")
        return int(self.item())

    __hash__ = object.__hash__

    def __repr__(self, *, tensor_contents: Any = None) -> str:
        from .repr import tensor_repr

        return tensor_repr(self)

    def __format__(self, spec: str) -> str:
        if self.dim() == 0 and self._data.__class__ is not MetaArray:
            return self.item().__format__(spec)
        return object.__format__(self, spec)

    def __reduce_ex__(self, proto: int) -> Any:
        from .. import _creation

        return (_creation.rebuild_tensor, (self.detach().numpy().copy(), self.requires_grad))

    def __deepcopy__(self, memo: dict[int, Any]) -> Tensor:
        if id(self) in memo:
            return memo[id(self)]
        out = self.detach().clone()
        if self.requires_grad:
            out.requires_grad_(True)
        if type(self) is not Tensor:
            out = (
                type(self).__new__(type(self), out) if hasattr(type(self), "_from_tensor") else out
            )
        memo[id(self)] = out
        return out


def _wrap_dim(dim: int, ndim: int) -> int:
    n = max(ndim, 1)
    if not -n <= dim < n:
        raise IndexError(
            f"Dimension out of range (expected to be in range of [{-n}, {n - 1}], but got {dim})"
        )
    return dim + n if dim < 0 else dim


def _root_array(arr: np.ndarray) -> np.ndarray:
    while isinstance(arr.base, np.ndarray):
        arr = arr.base
    return arr


def _address(arr: np.ndarray) -> int:
    return arr.__array_interface__["data"][0]


def make_tensor(data: Any, dtype: _dtype_cls, ks: int, cls: type = Tensor) -> Tensor:
    t = _new(cls)
    t._data = data
    t._dtype = dtype
    t._ks = ks
    t._ag = None
    t._base = None
    t._vc = None
    return t


def wrap_cpu(arr: np.ndarray, dtype: _dtype_cls | None = None) -> Tensor:
    """A CPU tensor owning/viewing `arr` (no copy)."""
    t = _new(Tensor)
    t._data = arr
    t._dtype = dtype if dtype is not None else to_dtype(arr.dtype)
    t._ks = CPU_KEYS
    t._ag = None
    t._base = None
    t._vc = None
    return t


def wrap_meta(meta: MetaArray, dtype: _dtype_cls) -> Tensor:
    t = _new(Tensor)
    t._data = meta
    t._dtype = dtype
    t._ks = META_KEYS
    t._ag = None
    t._base = None
    t._vc = None
    return t


def dispatch_keys(t: Tensor) -> Any:
    """The tensor's own key set (torch._C._dispatch_keys): TLS is not applied."""
    from ..dispatcher.keyset import DispatchKeySet

    return DispatchKeySet.from_raw(t._ks & VISIBLE_MASK)


def keyset_string(t: Tensor) -> str:
    return keyset_repr(t._ks & VISIBLE_MASK)
