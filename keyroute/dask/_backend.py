"""The "dask" device: its backend slot, key set and the tensors on it.

Until `keyroute.dispatcher.register_backend` exists, the device takes PyTorch's second
out-of-tree slot (PrivateUse2), so a dask tensor's key set is PrivateUse2, ADInplaceOrView
and AutogradPrivateUse2: autograd and the view layer run above the backend as for any device.
"""

from __future__ import annotations

from typing import Any

from ..tensor import _tensor as _tensor_mod
from ..tensor import device as _device_mod
from ..tensor._tensor import Tensor, make_tensor
from ..tensor.dtype import to_dtype
from ._store import DaskStore

__all__ = ["DEVICE", "KEYS", "DISPATCH_KEY", "wrap", "is_dask", "dask_array"]

_SLOT = 14  # BackendComponent PrivateUse2


def _register() -> tuple[Any, str]:
    if "dask" not in _device_mod.DEVICE_TYPES:
        _device_mod.DEVICE_TYPES["dask"] = _SLOT
        _tensor_mod._DEVICE_BY_BACKEND[_SLOT] = _device_mod.Device("dask")

    device = _device_mod.Device("dask")
    return device, "PrivateUse2"


DEVICE, DISPATCH_KEY = _register()

from ..tensor.subclass import keys_for_device  # noqa: E402

KEYS = keys_for_device(DEVICE)


def wrap(array: Any, dtype: Any = None) -> Tensor:
    """A dask tensor over the dask array `array` (no computation)."""
    dt = to_dtype(array.dtype) if dtype is None else dtype
    if array.dtype != dt.np:
        array = array.astype(dt.np)
    return make_tensor(DaskStore(array), dt, KEYS)


def is_dask(v: Any) -> bool:
    return isinstance(v, Tensor) and v._data.__class__ is DaskStore


def dask_array(t: Tensor) -> Any:
    """The dask array behind a dask tensor."""
    return t._data.array
