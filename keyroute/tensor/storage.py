"""`Tensor.untyped_storage()`: the bytes a tensor and its views share (torch.UntypedStorage).

A CPU tensor's storage is the NumPy array at the root of its `_data` view chain; a meta
tensor's is its MetaArray's extent (no data, `data_ptr() == 0`). One storage object per
storage, as in PyTorch: views of one base answer the same object.

>>> import keyroute
>>> t = keyroute.arange(10)
>>> t.untyped_storage().data_ptr() == t[3:].untyped_storage().data_ptr()
True
>>> t.untyped_storage().nbytes()
80
"""

from __future__ import annotations

import weakref
from typing import Any

import numpy as np

from .device import Device
from .meta_array import MetaArray

__all__ = ["UntypedStorage"]

_CACHE: weakref.WeakValueDictionary[int, UntypedStorage] = weakref.WeakValueDictionary()
_META_CACHE: weakref.WeakValueDictionary[int, UntypedStorage] = weakref.WeakValueDictionary()


class UntypedStorage:
    """The storage under a tensor: a device, a size in bytes and (on cpu) an address."""

    __slots__ = ("_root", "_nbytes", "_device", "_meta", "__weakref__")

    def __init__(self, root: np.ndarray | None, nbytes: int, device: Device) -> None:
        self._root = root
        self._nbytes = nbytes
        self._device = device
        self._meta: Any = None

    @classmethod
    def _of(cls, t: Any) -> UntypedStorage:
        from ._tensor import _root_array

        data = t._data
        if data.__class__ is MetaArray:
            shared = getattr(data, "storage", None)  # the MetaStorage a base and views share
            if shared is None:
                return cls(None, data.storage_nbytes, t.device)
            cached = _META_CACHE.get(id(shared))
            if cached is not None and cached._root is None and cached._meta is shared:
                return cached
            out = cls(None, shared.nbytes, t.device)
            out._meta = shared
            _META_CACHE[id(shared)] = out
            return out
        root = _root_array(data)
        cached = _CACHE.get(id(root))
        if cached is not None and cached._root is root:
            return cached
        out = cls(root, int(root.nbytes), t.device)
        _CACHE[id(root)] = out
        return out

    def data_ptr(self) -> int:
        if self._root is None:
            return 0
        return int(self._root.__array_interface__["data"][0])

    def nbytes(self) -> int:
        if self._meta is not None:
            return int(self._meta.nbytes)  # a meta storage grows with resize_
        return self._nbytes

    size = nbytes

    def __len__(self) -> int:
        return self.nbytes()

    def element_size(self) -> int:
        return 1

    @property
    def device(self) -> Device:
        return self._device

    @property
    def is_cuda(self) -> bool:
        return self._device.type == "cuda"

    def is_shared(self) -> bool:
        return False

    def tolist(self) -> list[int]:
        if self._root is None:
            raise NotImplementedError("Not available for 'meta' device type")
        return self._bytes().tolist()

    def _bytes(self) -> np.ndarray:
        root = np.ascontiguousarray(self._root)
        return root.reshape(-1).view(np.uint8)

    def __eq__(self, other: object) -> bool:
        if not isinstance(other, UntypedStorage):
            return NotImplemented
        if self._root is not None or other._root is not None:
            return self._root is other._root
        if self._meta is not None:
            return self._meta is other._meta
        return self is other

    def __hash__(self) -> int:
        key = self._root if self._root is not None else self._meta
        return id(key) if key is not None else id(self)

    def __repr__(self) -> str:
        head = f"[keyroute.storage.UntypedStorage(device={self._device}) of size {self.nbytes()}]"
        if self._root is None:
            return "...\n" + head
        return " " + "\n ".join(str(b) for b in self._bytes().tolist()) + "\n" + head
