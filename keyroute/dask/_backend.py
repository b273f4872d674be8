"""The "dask" device: its backend slot, key set and the tensors on it.

The device is a run-time backend (`keyroute.dispatcher.register_backend("dask")`), so a dask
tensor's key set is Dask, ADInplaceOrView, AutogradDask and AutocastDask: autograd and the view
layer run above the backend as for any device. Its tensors report `dask:0`, as PyTorch's
out-of-tree (PrivateUse1) tensors report an index.
"""

from __future__ import annotations

from typing import Any

from ..tensor import device as _device_mod
from ..tensor._tensor import Tensor, make_tensor
from ..tensor.dtype import to_dtype
from ._store import DaskStore

__all__ = ["DEVICE", "KEYS", "DISPATCH_KEY", "wrap", "is_dask", "dask_array"]


def _register() -> tuple[Any, Any]:
    from ..dispatcher.open_keys import register_backend, registered_backends

    info = registered_backends().get("dask") or register_backend("dask")
    return _device_mod.Device("dask"), info.key


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
