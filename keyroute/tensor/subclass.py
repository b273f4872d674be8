"""Tensor subclasses with `__torch_dispatch__`: wrapper tensors that hold no data of their own.

`Tensor._make_wrapper_subclass(cls, size, ...)` makes an instance of `cls` with the given
metadata, no storage, and the Python key (plus PythonTLSSnapshot) in its key set, so every
operator on it reaches `cls.__torch_dispatch__` (below autograd), as in PyTorch.

>>> import keyroute
>>> class Wrapper(keyroute.Tensor):
...     @staticmethod
...     def __new__(cls, elem):
...         t = keyroute.Tensor._make_wrapper_subclass(cls, elem.shape, dtype=elem.dtype)
...         t.elem = elem
...         return t
...     @classmethod
...     def __torch_dispatch__(cls, func, types, args=(), kwargs=None):
...         unwrap = lambda a: a.elem if isinstance(a, Wrapper) else a
...         return func(*[unwrap(a) for a in args], **(kwargs or {}))
>>> (Wrapper(keyroute.ones(2)) * 2).tolist()
[2.0, 2.0]
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from ..dispatcher.keys import DispatchKey, to_runtime_key
from ..dispatcher.keyset import REQUIRES_GRAD_BIT, key_bits
from ._tensor import Tensor, make_tensor
from .device import DEVICE_TYPES, Device, default_device
from .dtype import get_default_dtype, to_dtype
from .meta_array import MetaArray

__all__ = ["make_wrapper_subclass", "keys_for_device", "PYTHON_KEYS"]

DK = DispatchKey
PYTHON_KEYS = key_bits(DK.Python) | key_bits(DK.PythonTLSSnapshot)
_AUTOCAST = {
    "cpu": DK.AutocastCPU,
    "cuda": DK.AutocastCUDA,
    "xpu": DK.AutocastXPU,
    "mps": DK.AutocastMPS,
}
#: Run-time backends' Autocast keys by component index (dispatcher/open_keys.py fills it).
AUTOCAST_OF_BACKEND: dict[int, int] = {}


def keys_for_device(device: Device) -> int:
    """The key set PyTorch gives a dense tensor on `device` (backend, ADInplaceOrView,
    Autograd<backend>, Autocast<device> where one exists)."""
    index = DEVICE_TYPES[device.type]
    ks = key_bits(to_runtime_key(DK.Dense, index)) | key_bits(DK.ADInplaceOrView)
    ks |= key_bits(to_runtime_key(DK.AutogradFunctionality, index))
    autocast = _AUTOCAST.get(device.type) or AUTOCAST_OF_BACKEND.get(index)
    if autocast is not None:
        ks |= key_bits(autocast)
    return ks


def make_wrapper_subclass(
    cls: type,
    size: Sequence[int],
    strides: Sequence[int] | None = None,
    storage_offset: int | None = None,
    memory_format: Any = None,
    dtype: Any = None,
    layout: Any = None,
    device: Any = None,
    pin_memory: bool = False,
    requires_grad: bool = False,
    dispatch_sizes_strides_policy: Any = None,
    dispatch_device: bool = False,
    dispatch_layout: bool = False,
    _extra_dispatch_keys: Any = None,
    storage_size: int | None = None,
) -> Any:
    dt = get_default_dtype() if dtype is None else to_dtype(dtype)
    dev = default_device() if device is None else Device(device)
    meta = MetaArray(
        tuple(int(s) for s in size),
        None if strides is None else tuple(strides),
        dt.np,
        storage_offset or 0,
    )
    ks = keys_for_device(dev) | PYTHON_KEYS
    t = make_tensor(meta, dt, ks, cls)
    if dev.index is not None or dev.type not in ("cpu", "meta"):
        t.__dict__["_device"] = dev
    if requires_grad:
        t._key_set |= REQUIRES_GRAD_BIT
    return t


Tensor._make_wrapper_subclass = staticmethod(make_wrapper_subclass)  # type: ignore[attr-defined]
Tensor._make_subclass = staticmethod(  # type: ignore[attr-defined]
    lambda cls, data, require_grad=False: _make_subclass(cls, data, require_grad)
)


def _make_subclass(cls: type, data: Tensor, require_grad: bool) -> Tensor:
    t = make_tensor(data._data, data._dtype, data._key_set, cls)
    t._version_counter = data._version_counter
    if require_grad:
        t._key_set |= REQUIRES_GRAD_BIT
    return t
