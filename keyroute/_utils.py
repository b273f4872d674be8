"""The functions a PyTorch checkpoint calls to rebuild its tensors (torch._utils' names).

A file written by `torch.save` (or `keyroute.save`) names these functions in its pickle:
`torch._utils._rebuild_tensor_v2(storage, storage_offset, size, stride, requires_grad,
backward_hooks)` and its siblings. keyroute's loader maps each name to the function here of
the same name, so one file loads in either library.

Every rebuild checks the geometry it is given against the storage it views (sizes and strides
non-negative, the offset within the storage, the last element inside it): a crafted file can
never make a tensor that reads or writes outside its storage.
"""

from __future__ import annotations

import threading
from collections import OrderedDict
from typing import Any

import numpy as np

from .storage import TypedStorage, UntypedStorage
from .tensor._tensor import CPU_KEYS, META_KEYS, Tensor, make_tensor
from .tensor.dtype import dtype as _dtype_cls
from .tensor.meta_array import MetaArray

__all__ = [
    "check_storage_geometry",
    "_rebuild_tensor",
    "_rebuild_tensor_v2",
    "_rebuild_tensor_v3",
    "_rebuild_parameter",
    "_rebuild_parameter_with_state",
    "_rebuild_meta_tensor_no_storage",
    "_rebuild_device_tensor_from_cpu_tensor",
    "_rebuild_device_tensor_from_numpy",
    "_rebuild_from_type_v2",
    "_set_obj_state",
]

_INT64_MAX = (1 << 63) - 1
# Attributes a file may not set on a rebuilt tensor: the tensor's own slots (its data, keys,
# dtype, autograd state) and Python's special names. A checkpoint's tensor state is plain
# user attributes only.
_PROTECTED = frozenset(Tensor.__slots__) | {"grad", "requires_grad", "data"}


def _int_tuple(name: str, value: Any) -> tuple[int, ...]:
    if not isinstance(value, (tuple, list)) or not all(type(v) is int for v in value):
        raise RuntimeError(
            f"keyroute.load: a tensor's {name} must be a tuple of ints, got {value!r}"
        )
    return tuple(value)


def check_storage_geometry(
    size: Any, stride: Any, storage_offset: Any, itemsize: int, storage_nbytes: int
) -> tuple[tuple[int, ...], tuple[int, ...], int]:
    """Validate a view's geometry against its storage (PyTorch's messages); return it."""
    size = _int_tuple("size", size)
    stride = _int_tuple("stride", stride)
    if len(size) != len(stride):
        raise RuntimeError(
            f"mismatch in length of strides and shape: sizes {list(size)}, strides {list(stride)}"
        )
    if type(storage_offset) is not int:
        raise RuntimeError(f"keyroute.load: invalid storage offset {storage_offset!r}")
    if storage_offset < 0:
        raise RuntimeError(f"Tensor: invalid storage offset {storage_offset}")
    for s in size:
        if s < 0:
            raise RuntimeError(f"Trying to create tensor with negative dimension {s}: {list(size)}")
    if any(st < 0 for st in stride):
        raise RuntimeError(
            f"Storage size calculation overflowed with sizes={list(size)} and "
            f"strides={list(stride)}"
        )
    numel = 1
    for s in size:
        numel *= s
    if numel > _INT64_MAX:
        raise RuntimeError("numel: integer multiplication overflow")
    if numel == 0:
        return size, stride, storage_offset
    extent = storage_offset + 1 + sum((s - 1) * st for s, st in zip(size, stride))
    needed = extent * itemsize
    if needed > storage_nbytes:
        # PyTorch's set_ would try to grow the file's storage and fail with this message.
        raise RuntimeError(
            f"Trying to resize storage that is not resizable: sizes {list(size)}, strides "
            f"{list(stride)}, storage offset {storage_offset} and itemsize {itemsize} need a "
            f"storage of {needed} bytes, but it has {storage_nbytes}"
        )
    return size, stride, storage_offset


def _untyped(storage: Any) -> UntypedStorage:
    if isinstance(storage, TypedStorage):
        return storage._untyped_storage
    if isinstance(storage, UntypedStorage):
        return storage
    raise RuntimeError(
        f"keyroute.load: expected a storage to rebuild a tensor from, got {type(storage).__name__}"
    )


def _check_dtype(dt: Any) -> _dtype_cls:
    if not isinstance(dt, _dtype_cls):
        # An allow-listed PyTorch dtype keyroute lacks (uint16, float8_*, ...).
        name = getattr(dt, "name", repr(dt))
        raise RuntimeError(f"keyroute.load: dtype torch.{name} is not supported by keyroute")
    return dt


def _tensor_on(storage: Any, dt: Any, offset: Any, size: Any, stride: Any) -> Tensor:
    """A tensor viewing `storage` with the given geometry, after checking it fits."""
    dt = _check_dtype(dt)
    us = _untyped(storage)
    size, stride, offset = check_storage_geometry(size, stride, offset, dt.itemsize, us.nbytes())
    root = us._root
    if root is None:  # a meta storage: layout only
        meta = MetaArray(size, stride, dt.np, offset, us.nbytes())
        return make_tensor(meta, dt, META_KEYS)
    flat = root.reshape(-1)
    if flat.dtype != dt.np:
        raw = flat.view(np.uint8)
        flat = raw[: raw.size - raw.size % dt.itemsize].view(dt.np)
    item = dt.itemsize
    arr = np.lib.stride_tricks.as_strided(
        flat[offset:], size, tuple(s * item for s in stride), writeable=flat.flags.writeable
    )
    return make_tensor(arr, dt, CPU_KEYS)


def _apply_metadata(t: Tensor, metadata: Any) -> Tensor:
    # PyTorch records a conjugate or negative view as a bit over the stored values; keyroute
    # has no such bits, so the view is materialised (the values the tensor denotes, in new
    # memory: it no longer shares the file's storage).
    if not metadata:
        return t
    if not isinstance(metadata, dict):
        raise RuntimeError(f"keyroute.load: invalid tensor metadata {metadata!r}")
    if t._data.__class__ is MetaArray:
        return t
    data = t._data
    if metadata.get("conj"):
        data = np.conj(data)
    if metadata.get("neg"):
        data = np.negative(data)
    if data is t._data:
        return t
    return make_tensor(np.ascontiguousarray(data), t._dtype, CPU_KEYS)


def _rebuild_tensor(storage: Any, storage_offset: int, size: Any, stride: Any) -> Tensor:
    dt = storage.dtype if isinstance(storage, TypedStorage) else None
    if dt is None:
        from .tensor.dtype import uint8

        dt = uint8
    return _tensor_on(storage, dt, storage_offset, size, stride)


def _rebuild_tensor_v2(
    storage: Any,
    storage_offset: int,
    size: Any,
    stride: Any,
    requires_grad: bool,
    backward_hooks: Any,
    metadata: Any = None,
) -> Tensor:
    # Hooks are never serialized (PyTorch's note "Don't serialize hooks"): ignored.
    t = _apply_metadata(_rebuild_tensor(storage, storage_offset, size, stride), metadata)
    if requires_grad:
        t.requires_grad_(True)
    return t


def _rebuild_tensor_v3(
    storage: Any,
    storage_offset: int,
    size: Any,
    stride: Any,
    requires_grad: bool,
    backward_hooks: Any,
    dtype: Any,
    metadata: Any = None,
) -> Tensor:
    t = _apply_metadata(_tensor_on(storage, dtype, storage_offset, size, stride), metadata)
    if requires_grad:
        t.requires_grad_(True)
    return t


def _rebuild_parameter(data: Tensor, requires_grad: bool, backward_hooks: Any) -> Any:
    from .nn.parameter import Parameter

    if not isinstance(data, Tensor):
        raise RuntimeError(f"keyroute.load: a Parameter's data must be a tensor, got {data!r}")
    return Parameter(data, bool(requires_grad))


def _rebuild_parameter_with_state(
    data: Tensor, requires_grad: bool, backward_hooks: Any, state: Any
) -> Any:
    return _set_obj_state(_rebuild_parameter(data, requires_grad, backward_hooks), state)


def _rebuild_meta_tensor_no_storage(
    dtype: Any, size: Any, stride: Any, requires_grad: bool
) -> Tensor:
    dt = _check_dtype(dtype)
    size = _int_tuple("size", size)
    stride = _int_tuple("stride", stride)
    nbytes = 1 << 62  # a meta tensor has no storage to bound it: only the shape checks run
    size, stride, _ = check_storage_geometry(size, stride, 0, dt.itemsize, nbytes)
    t = make_tensor(MetaArray(size, stride, dt.np), dt, META_KEYS)
    if requires_grad:
        t.requires_grad_(True)
    return t


def _rebuild_device_tensor_from_cpu_tensor(
    data: Tensor, dtype: Any, device: Any, requires_grad: bool
) -> Tensor:
    t = data.to(dtype=_check_dtype(dtype), device=_restore_device(device))
    if requires_grad:
        t.requires_grad_(True)
    return t


def _rebuild_device_tensor_from_numpy(
    data: Any, dtype: Any, device: Any, requires_grad: bool
) -> Tensor:
    from ._api.creation import from_numpy

    t = from_numpy(np.asarray(data)).to(dtype=_check_dtype(dtype), device=_restore_device(device))
    if requires_grad:
        t.requires_grad_(True)
    return t


# The active load's map_location, for rebuild functions that name a device themselves
# (keyroute.serialization.load sets it around the unpickling).
_tls = threading.local()


def _restore_device(device: Any) -> Any:
    from .tensor.device import Device

    location = str(device)
    ml = getattr(_tls, "map_location", None)
    if ml is None or callable(ml) and not isinstance(ml, Device):
        return Device(location)
    if isinstance(ml, dict):
        return Device(str(ml.get(location, location)))
    return Device(ml.decode() if isinstance(ml, bytes) else str(ml))


def _get_layout(name: str) -> Any:
    """A layout from its string (the global PyTorch pickles `torch.strided` through)."""
    from .tensor import layout as lay

    obj = getattr(lay, name.removeprefix("torch.").removeprefix("keyroute."), None)
    if not isinstance(obj, lay.layout):
        raise RuntimeError(f"keyroute.load: layout {name} is not supported")
    return obj


def _rebuild_from_type_v2(func: Any, new_type: Any, args: Any, state: Any) -> Any:
    if func not in _REBUILDERS:
        raise RuntimeError(f"keyroute.load: {func!r} is not a tensor rebuild function")
    ret = func(*args)
    if type(ret) is not new_type:
        if not (isinstance(new_type, type) and issubclass(new_type, Tensor)):
            raise RuntimeError(f"keyroute.load: {new_type!r} is not a tensor type")
        sub = make_tensor(ret._data, ret._dtype, ret._key_set, new_type)
        sub._autograd_meta = ret._autograd_meta
        ret = sub
    setstate = getattr(type(ret), "__setstate__", None)
    if setstate is not None and setstate is not getattr(Tensor, "__setstate__", None):
        ret.__setstate__(state)
        return ret
    return _set_obj_state(ret, state)


def _set_obj_state(obj: Any, state: Any) -> Any:
    """Set the Python attributes a tensor subclass carried (its __dict__ and slots)."""
    if isinstance(state, tuple):
        if len(state) != 2:
            raise RuntimeError(f"Invalid serialized state: {state}")
        dict_state, slots_state = state
    else:
        dict_state, slots_state = state, None
    for part in (dict_state, slots_state):
        if not part:
            continue
        if not isinstance(part, dict):
            raise RuntimeError(f"Invalid serialized state: {state}")
        for k, v in part.items():
            if not isinstance(k, str) or k in _PROTECTED or k.startswith("__"):
                raise RuntimeError(f"keyroute.load: refusing to set attribute {k!r} on a tensor")
            setattr(obj, k, v)
    return obj


_REBUILDERS = {
    _rebuild_tensor,
    _rebuild_tensor_v2,
    _rebuild_tensor_v3,
    _rebuild_parameter,
    _rebuild_parameter_with_state,
    _rebuild_meta_tensor_no_storage,
    _rebuild_device_tensor_from_cpu_tensor,
    _rebuild_device_tensor_from_numpy,
}

_EMPTY_HOOKS: OrderedDict[Any, Any] = OrderedDict()
