"""The Tensor: data (a NumPy array view, or a MetaArray), dtype, and its dispatch key set.

A CPU tensor's `_data` is a NumPy array that views its storage: views share the storage, so a
write through a view shows in its base. A meta tensor's `_data` is a MetaArray (layout only).
`_key_set` is the tensor's dispatch key set as an int (PyTorch's TensorImpl key_set_), plus
keyroute's private requires-grad bit (see dispatcher/keyset.py).

Every operation is an aten operator call through the dispatcher; the methods and Python
operators are attached from the API modules (keyroute/_api/<family>.py).
"""

from __future__ import annotations

import enum
import math
from typing import Any

import numpy as np

from .. import _naming
from ..dispatcher.keys import DispatchKey
from ..dispatcher.keyset import BACKEND_MASK, REQUIRES_GRAD_BIT, VISIBLE_MASK, key_bits
from .device import DEVICE_TYPES, Device
from .dtype import dtype as _dtype_cls
from .dtype import to_dtype
from .layout import memory_format as memory_format_cls
from .layout import to_memory_format
from .meta_array import MetaArray, is_channels_last_strides, is_contiguous_strides

__all__ = ["Tensor", "Size", "CPU_KEYS", "META_KEYS", "make_tensor", "wrap_cpu"]

DK = DispatchKey
ADINPLACE = key_bits(DK.ADInplaceOrView)
_CONJ_BIT = key_bits(DK.Conjugate)
_NEG_BIT = key_bits(DK.Negative)
_MATH_BITS = _CONJ_BIT | _NEG_BIT  # lazy conjugate / negative views (layers/mathbits.py)
_ZERO_BIT = key_bits(DK.ZeroTensor)  # _efficientzerotensor (layers/zerotensor.py)
CPU_KEYS = key_bits(DK.CPU) | ADINPLACE | key_bits(DK.AutogradCPU) | key_bits(DK.AutocastCPU)
META_KEYS = key_bits(DK.Meta) | ADINPLACE | key_bits(DK.AutogradMeta)
#: Inference tensors carry neither ADInplaceOrView nor the autograd keys.
INFERENCE_DROP = ADINPLACE | key_bits(DK.AutogradFunctionality) | key_bits(DK.AutogradOther)
BACKEND_BITS = BACKEND_MASK  # builtin backends' bits 0..15 and the run-time backends' range

#: The highest backend bit's bit_length -> the device (run-time backends: open_keys.py adds).
_DEVICE_BY_BACKEND = {b: Device(t) for t, b in DEVICE_TYPES.items()}
_new = object.__new__
ndarray = np.ndarray


class Size(tuple):
    """A tensor shape (torch.Size): a tuple of ints."""

    __slots__ = ()

    def __new__(cls, sizes: Any = ()) -> Size:
        items = tuple(sizes)
        for s in items:
            if s.__class__ is not int:
                items = tuple(_size_item(v, j) for j, v in enumerate(items))
                break
        return tuple.__new__(cls, items)

    def __repr__(self) -> str:
        return f"{_naming.NAME}.Size([{', '.join(str(s) for s in self)}])"

    __str__ = __repr__

    def numel(self) -> int:
        """The number of elements a tensor of this shape holds."""
        n = 1
        for s in self:
            n *= s
        return n

    def __getitem__(self, item: Any) -> Any:
        out = tuple.__getitem__(self, item)
        return _new_size(out) if isinstance(item, slice) else out

    def __add__(self, other: Any) -> Size:
        if not isinstance(other, tuple):
            raise TypeError(
                f"can only concatenate tuple (not {type(other).__name__}) to keyroute.Size"
            )
        return Size(tuple.__add__(self, other))

    def __radd__(self, other: Any) -> Size:
        if not isinstance(other, tuple):
            return NotImplemented
        return Size(tuple(other) + tuple(self))

    def __mul__(self, n: Any) -> Size:
        return _new_size(tuple.__mul__(self, n))

    __rmul__ = __mul__

    def __reduce__(self) -> Any:
        return (Size, (tuple(self),))


def _size_item(v: Any, i: int) -> int:
    """One entry of a Size: an int or anything with __index__ (NumPy ints, 0-d int tensors)."""
    if isinstance(v, int):
        return int(v)
    try:
        return v.__index__()
    except (AttributeError, TypeError):
        raise TypeError(
            f"keyroute.Size() takes an iterable of 'int' (item {i} is '{type(v).__name__}')"
        ) from None


def _new_size(shape: tuple[int, ...]) -> Size:
    """A Size from a tuple known to hold ints (no checks: shapes of arrays)."""
    return tuple.__new__(Size, shape)


class DLDeviceType(enum.IntEnum):
    """DLPack device types (the ones keyroute can hold)."""

    kDLCPU = 1
    kDLCUDA = 2


def _no_legacy_new(cls: type, *args: Any, **kwargs: Any) -> Any:  # pragma: no cover
    raise RuntimeError("keyroute.Tensor(...) needs `import keyroute` (the factories)")


#: The legacy constructor Tensor(data) / Tensor(2, 3): installed by keyroute/_api/creation.py.
LEGACY_NEW: list[Any] = [_no_legacy_new]


#: Set by keyroute.profiler while a profile records (the events of tolist's operator calls).
_tolist_hook: Any = None


class Tensor:
    """A multi-dimensional array routed through keyroute's dispatcher (torch.Tensor)."""

    __slots__ = (
        "_data",
        "_key_set",
        "_dtype",
        "_autograd_meta",
        "_base",
        "_version_counter",
        "__weakref__",
        "__dict__",
    )
    __array_priority__ = 1000  # numpy defers binary operators to us

    # -- construction ---------------------------------------------------------------------
    def __new__(cls, *args: Any, **kwargs: Any) -> Tensor:
        # keyroute.Tensor(data) / Tensor(sizes...) as torch.Tensor's legacy constructor, which
        # keyroute/_api/creation.py installs (LEGACY_NEW): it needs the factories.
        if cls is Tensor or not args or not isinstance(args[0], Tensor):
            return LEGACY_NEW[0](cls, *args, **kwargs)
        return _new(cls)

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        pass

    # -- metadata -------------------------------------------------------------------------
    @property
    def shape(self) -> Size:
        return _new_size(self._data.shape)

    def size(self, dim: Any = None) -> Any:
        """The shape, or the size of dimension `dim`."""
        shape = self._data.shape
        if dim is None:
            return _new_size(shape)
        return shape[_wrap_dim(_dim_arg("size", dim), len(shape))]

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
        d = _DEVICE_BY_BACKEND[(self._key_set & BACKEND_BITS).bit_length()]
        # An out-of-tree backend's entry is a StorageDevice: its data names the index.
        return d if d.__class__ is Device else d.of(self._data)

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
        from .layout import strided

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

    @property
    def is_mkldnn(self) -> bool:
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

    def stride(self, dim: Any = None) -> Any:
        """The strides in elements, or the stride of dimension `dim`."""
        data = self._data
        if data.__class__ is MetaArray:
            strides = data.stride
        else:
            item = data.itemsize
            strides = tuple(s // item for s in data.strides)
        if dim is None:
            return strides
        return strides[_wrap_dim(_dim_arg("stride", dim), len(strides))]

    def storage_offset(self) -> int:
        """Where the tensor starts in its storage, in elements."""
        data = self._data
        if data.__class__ is MetaArray:
            return data.offset
        root = _root_array(data)
        delta = _address(data) - _address(root)
        item = data.itemsize
        # A NumPy view that does not start inside its root (or is misaligned with it) is not
        # a PyTorch-style view: treat it as its own storage.
        if delta < 0 or delta % item or delta > root.nbytes:
            return 0
        return delta // item

    def is_contiguous(self, memory_format: Any = None) -> bool:
        """Whether the strides are the row-major ones (or channels-last ones, if asked)."""
        mf = None
        if memory_format is not None:
            mf = (
                memory_format
                if isinstance(memory_format, memory_format_cls)
                else (to_memory_format(memory_format))
            )
        if self._data.size == 0:
            return True  # PyTorch: every empty tensor is contiguous, in every format
        if mf is not None and mf.name == "channels_last":
            return is_channels_last_strides(self._data.shape, self.stride())
        return is_contiguous_strides(self._data.shape, self.stride())

    def is_inference(self) -> bool:
        return not (self._key_set & ADINPLACE) and not self._key_set & key_bits(
            DK.AutogradFunctionality
        )

    # -- storage --------------------------------------------------------------------------
    def data_ptr(self) -> int:
        """The address of the first element (0 on meta)."""
        data = self._data
        if data.__class__ is MetaArray:
            return 0
        return _address(data)

    def untyped_storage(self) -> Any:
        """The storage this tensor views (one object per storage)."""
        from .storage import UntypedStorage

        return UntypedStorage._of(self)

    def _is_view(self) -> bool:
        return self._base is not None

    # -- autograd state (kept in the key set and _autograd_meta; see autograd/) ----------------
    @property
    def requires_grad(self) -> bool:
        return bool(self._key_set & REQUIRES_GRAD_BIT)

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
        if type(data) is not ndarray:
            from ..kernels.errors import data_access_error

            raise data_access_error(self, "numpy()")
        if not force and self._key_set & REQUIRES_GRAD_BIT:
            from ..autograd.grad_mode import is_grad_enabled

            if is_grad_enabled():
                raise RuntimeError(
                    "Can't call numpy() on Tensor that requires grad. Use "
                    "tensor.detach().numpy() instead."
                )
        if self._dtype.name == "bfloat16":
            # NumPy has no bfloat16 of its own: PyTorch refuses, and so do we.
            raise TypeError("Got unsupported ScalarType BFloat16")
        if self._key_set & _ZERO_BIT and not force:
            raise RuntimeError(
                " Cannot convert a ZeroTensor to numpy. Set force=True if you need the zero array."
            )
        if self._key_set & _MATH_BITS:
            bit = "conjugate" if self._key_set & _CONJ_BIT else "negative"
            fix = "resolve_conj" if self._key_set & _CONJ_BIT else "resolve_neg"
            raise RuntimeError(
                f"Can't call numpy() on Tensor that has {bit} bit set. Use "
                f"tensor.{fix}().numpy() instead."
            )
        return data

    def __array__(self, dtype: Any = None, copy: Any = None) -> np.ndarray:
        arr = self.numpy()
        if dtype is not None:
            arr = arr.astype(dtype, copy=False)
        if copy:  # NumPy 2's protocol: copy=True asks for an array of one's own
            arr = arr.copy() if np.shares_memory(arr, self._data) else arr
        return arr

    def tolist(self) -> Any:
        """The elements as (nested lists of) Python numbers."""
        if _tolist_hook is not None:  # a profile records: PyTorch's calls here, as events
            _tolist_hook()
        data = self._data
        if type(data) is not ndarray:
            from .host import host_array

            data = host_array(data)  # a device's values (tensor/host.py); None on meta
            if data is None:
                from ..kernels.errors import data_access_error

                raise data_access_error(self, "tolist()")
        if self._dtype.name == "bfloat16":
            data = data.astype(np.float32)
        if self._key_set & _ZERO_BIT:
            raise RuntimeError("tolist() shouldn't be called on a tensor with unallocated storage")
        if self._key_set & _MATH_BITS:  # a lazy conjugate / negative view: its values
            data = np.conj(data) if self._key_set & _CONJ_BIT else data
            data = np.negative(data) if self._key_set & _NEG_BIT else data
        return data.tolist()

    def item(self) -> Any:
        """The value of a one-element tensor as a Python number."""
        from .._ops import ops

        # aten::item (CompositeImplicitAutograd: checks, then _local_scalar_dense), as
        # PyTorch's Tensor.item: a profile shows both.
        return ops.aten.item.default(self)

    def __dlpack__(
        self,
        *,
        stream: Any = None,
        max_version: Any = None,
        dl_device: Any = None,
        copy: Any = None,
    ) -> Any:
        """A DLPack capsule sharing the tensor's memory (NumPy's exporter)."""
        if self.requires_grad:
            raise BufferError("Can't export tensors that require gradient, use tensor.detach()")
        if self.is_conj():
            raise BufferError("Can't export tensors with the conjugate bit set")
        if stream is not None and type(stream) is not int:
            raise TypeError("stream must be ``int`` or ``none``")
        data = self._data
        if type(data) is not ndarray:
            if type(data).__module__.startswith("cupy"):  # a CUDA tensor: CuPy's exporter
                return data.__dlpack__(stream=stream)
            from ..kernels.errors import data_access_error

            raise data_access_error(self, "__dlpack__")
        kwargs = {}
        if max_version is not None:
            kwargs["max_version"] = max_version
        if dl_device is not None:
            kwargs["dl_device"] = dl_device
        if copy is not None:
            kwargs["copy"] = copy
        if not data.flags.writeable:
            # Expanded views are read-only NumPy views of writable storage; DLPack (as in
            # PyTorch) exports them like any tensor.
            root, offset = _storage_of(data)
            if root.flags.writeable:
                data = _view_into(root, data.dtype, data.shape, self.stride(), offset)
        return data.__dlpack__(**kwargs)

    def __dlpack_device__(self) -> tuple[DLDeviceType, int]:
        if type(self._data).__module__.startswith("cupy"):
            return (DLDeviceType.kDLCUDA, int(self._data.device.id))
        return (DLDeviceType.kDLCPU, 0)

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
        n = self.numel()
        if n != 1:
            raise RuntimeError(
                f"Boolean value of Tensor with {'no values' if n == 0 else 'more than one value'} "
                f"is ambiguous"
            )
        return bool(self.item())

    def _python_scalar(self) -> Any:
        if self.numel() != 1:
            raise ValueError("only one element tensors can be converted to Python scalars")
        return self.item()

    def __float__(self) -> float:
        value = self._python_scalar()
        if isinstance(value, complex):
            if value.imag != 0:
                raise RuntimeError("value cannot be converted to type double without overflow")
            value = value.real
        return float(value)

    def __int__(self) -> int:
        value = self._python_scalar()
        if isinstance(value, complex):
            if value.imag != 0 or not math.isfinite(value.real):
                raise RuntimeError("value cannot be converted to type int64_t without overflow")
            value = value.real
        # Floats convert as Python floats do (no int64 bound), as PyTorch's __int__.
        return int(value)

    def __complex__(self) -> complex:
        return complex(self._python_scalar())

    def __index__(self) -> int:
        if self._dtype.category > 1 or self.numel() != 1:
            raise TypeError("only integer tensors of a single element can be converted to an index")
        return int(self.item())

    __hash__ = object.__hash__

    def __repr__(self, *, tensor_contents: Any = None) -> str:
        from .repr import tensor_repr

        if self._key_set & _MATH_BITS and self._data.__class__ is not MetaArray:
            # PyTorch prints a lazy conjugate / negative view's values.
            return tensor_repr(self.resolve_conj().resolve_neg(), tensor_contents)
        return tensor_repr(self, tensor_contents)

    def __format__(self, spec: str) -> str:
        if self.dim() == 0 and self._data.__class__ is not MetaArray and type(self) is Tensor:
            return self.detach().item().__format__(spec)
        return object.__format__(self, spec)

    # -- copying --------------------------------------------------------------------------
    def __reduce_ex__(self, proto: int) -> Any:
        from . import new as _new_mod

        state = dict(self.__dict__) if self.__dict__ else None
        data = self._data
        if data.__class__ is MetaArray:
            args = (
                data.shape,
                data.stride,
                data.offset,
                data.storage_nbytes,
                self._dtype,
                self.requires_grad,
                state,
            )
            return (_new_mod.rebuild_meta_tensor, args)
        root, offset = _storage_of(data)
        # The whole storage travels, as PyTorch's does: views keep their geometry; copy.copy
        # shares it; each pickled tensor carries its own copy (as each PyTorch storage does).
        args = (
            _StorageRef(root),
            self._dtype,
            tuple(data.shape),
            self.stride(),
            offset,
            self.requires_grad,
            state,
        )
        return (_new_mod.rebuild_tensor, args)

    def __deepcopy__(self, memo: dict[int, Any]) -> Tensor:
        import copy

        ag = self._autograd_meta
        if ag is not None and ag.grad_fn is not None:
            raise RuntimeError(
                "Only Tensors created explicitly by the user (graph leaves) support the deepcopy "
                "protocol at the moment.  If you were attempting to deepcopy a module, this may "
                "be because of a torch.nn.utils.weight_norm usage, see "
                "https://github.com/pytorch/pytorch/pull/103001"
            )
        if id(self) in memo:
            return memo[id(self)]
        from ..autograd.grad_mode import no_grad

        with no_grad():
            data = self._data
            if data.__class__ is MetaArray:
                new = self.clone()
            else:
                root, offset = _storage_of(data)
                # One copy per storage: deep-copied views of one base share the copy.
                new_root = memo.get(id(root))
                if new_root is None:
                    new_root = root.copy()
                    memo[id(root)] = new_root
                    memo.setdefault(id(memo), []).append(root)  # keep id(root) unique
                arr = _view_into(new_root, data.dtype, data.shape, self.stride(), offset)
                # A fresh tensor (new_empty + set_ in PyTorch): plain CPU keys.
                new = make_tensor(arr, self._dtype, CPU_KEYS, type(self))
            if self.requires_grad:
                new.requires_grad_(True)
            grad = getattr(self, "grad", None)
            if grad is not None:
                new.grad = grad.__deepcopy__(memo)
            new.__dict__ = copy.deepcopy(self.__dict__, memo)
        memo[id(self)] = new
        return new


class _StorageRef:
    """A storage passed to the unpickler: the array itself for copy.copy, a copy in a pickle."""

    __slots__ = ("root",)

    def __init__(self, root: np.ndarray) -> None:
        self.root = root

    def __reduce__(self) -> Any:
        return (_StorageRef, (np.array(self.root, copy=True),))


def _dim_arg(fn: str, dim: Any) -> int:
    """A dim argument as PyTorch's argument parser takes it (ints and __index__, not bool)."""
    if dim.__class__ is int:
        return dim
    if isinstance(dim, bool) or not hasattr(dim, "__index__"):
        raise TypeError(
            f"{fn}(): argument 'dim' (position 1) must be int, not {type(dim).__name__}"
        )
    return dim.__index__()


def _wrap_dim(dim: int, ndim: int) -> int:
    if ndim == 0:
        raise IndexError(f"Dimension specified as {dim} but tensor has no dimensions")
    if not -ndim <= dim < ndim:
        raise IndexError(
            f"Dimension out of range (expected to be in range of [{-ndim}, {ndim - 1}], but got "
            f"{dim})"
        )
    return dim + ndim if dim < 0 else dim


def _root_array(arr: np.ndarray) -> np.ndarray:
    """The array owning the memory `arr` views: its storage."""
    while True:
        base = arr.base
        if isinstance(base, ndarray):
            arr = base
            continue
        # as_strided views hang off a helper object that keeps the array it views.
        inner = getattr(base, "base", None)
        if isinstance(inner, ndarray):
            arr = inner
            continue
        return arr


def _address(arr: np.ndarray) -> int:
    return arr.__array_interface__["data"][0]


def _storage_of(data: np.ndarray) -> tuple[np.ndarray, int]:
    """(storage array, offset in elements of data's dtype) for rebuilding `data` as a view;
    a compact copy of `data` when its storage cannot be viewed as flat elements of its dtype."""
    root = _root_array(data)
    delta = _address(data) - _address(root)
    if (
        root.flags.c_contiguous
        and root.nbytes % data.itemsize == 0
        and 0 <= delta <= root.nbytes
        and delta % data.itemsize == 0
    ):
        return root, delta // data.itemsize
    compact = np.array(data, order="K", copy=True)
    return compact, 0


def _view_into(
    root: np.ndarray, np_dtype: Any, shape: tuple[int, ...], stride: tuple[int, ...], offset: int
) -> np.ndarray:
    """A view of flat storage `root` with element strides and offset (a tensor's geometry)."""
    from .geometry import check_in_bounds

    flat = root.reshape(-1)
    if flat.dtype != np_dtype:
        flat = flat.view(np.uint8).view(np_dtype)
    item = flat.itemsize
    # The geometry may come from a file (unpickling): never trust it (see tensor/geometry.py).
    check_in_bounds(shape, stride, offset, item, flat.nbytes)
    return np.lib.stride_tricks.as_strided(
        flat[offset:], tuple(shape), tuple(s * item for s in stride)
    )


def make_tensor(data: Any, dtype: _dtype_cls, ks: int, cls: type = Tensor) -> Tensor:
    t = _new(cls)
    t._data = data
    t._dtype = dtype
    t._key_set = ks
    t._autograd_meta = None
    t._base = None
    t._version_counter = None
    return t


def wrap_cpu(arr: np.ndarray, dtype: _dtype_cls | None = None) -> Tensor:
    """A CPU tensor owning/viewing `arr` (no copy)."""
    t = _new(Tensor)
    t._data = arr
    t._dtype = dtype if dtype is not None else to_dtype(arr.dtype)
    t._key_set = CPU_KEYS
    t._autograd_meta = None
    t._base = None
    t._version_counter = None
    return t


def dispatch_keys(t: Tensor) -> Any:
    """The tensor's own key set (torch._C._dispatch_keys): TLS is not applied."""
    from ..dispatcher.keyset import DispatchKeySet

    return DispatchKeySet.from_raw(t._key_set & VISIBLE_MASK)
