"""Storages as PyTorch's `torch.storage` names them: `UntypedStorage` (the bytes a tensor and
its views share) and `TypedStorage` (an untyped storage read as elements of one dtype).

A PyTorch checkpoint refers to each storage by a legacy class name (`torch.FloatStorage`, ...)
that says the element type; `STORAGE_DTYPES` maps those names to keyroute dtypes, both ways.

>>> import keyroute
>>> s = TypedStorage(keyroute.arange(4.).untyped_storage(), keyroute.float32)
>>> s.size(), s.dtype, s.pickle_storage_type()
(4, keyroute.float32, 'FloatStorage')
"""

from __future__ import annotations

from typing import Any

from .tensor import dtype as _dt
from .tensor.storage import UntypedStorage

__all__ = ["UntypedStorage", "TypedStorage", "STORAGE_DTYPES", "storage_type_name"]

#: PyTorch's legacy storage class names, each naming the element type of a saved storage.
STORAGE_DTYPES: dict[str, _dt.dtype] = {
    "DoubleStorage": _dt.float64,
    "FloatStorage": _dt.float32,
    "HalfStorage": _dt.float16,
    "BFloat16Storage": _dt.bfloat16,
    "LongStorage": _dt.int64,
    "IntStorage": _dt.int32,
    "ShortStorage": _dt.int16,
    "CharStorage": _dt.int8,
    "ByteStorage": _dt.uint8,
    "BoolStorage": _dt.bool_,
    "ComplexDoubleStorage": _dt.complex128,
    "ComplexFloatStorage": _dt.complex64,
}
_NAME_OF = {d.name: n for n, d in STORAGE_DTYPES.items()}


def storage_type_name(d: _dt.dtype) -> str:
    """The legacy storage class name PyTorch writes for a storage of dtype `d`."""
    return _NAME_OF[d.name]


class TypedStorage:
    """An untyped storage viewed as `dtype` elements (torch.TypedStorage)."""

    is_sparse = False

    def __init__(self, wrap_storage: UntypedStorage, dtype: _dt.dtype) -> None:
        self._untyped_storage = wrap_storage
        self.dtype = dtype

    @property
    def device(self) -> Any:
        return self._untyped_storage.device

    def untyped(self) -> UntypedStorage:
        return self._untyped_storage

    def element_size(self) -> int:
        return self.dtype.itemsize

    def size(self) -> int:
        return self._untyped_storage.nbytes() // self.dtype.itemsize

    __len__ = size

    def nbytes(self) -> int:
        return self._untyped_storage.nbytes()

    def data_ptr(self) -> int:
        return self._untyped_storage.data_ptr()

    def pickle_storage_type(self) -> str:
        return storage_type_name(self.dtype)

    def tolist(self) -> list[Any]:
        root = self._untyped_storage._root
        if root is None:
            raise NotImplementedError("Not available for 'meta' device type")
        flat = root.reshape(-1).view("u1").view(self.dtype.np)
        return flat.tolist()

    def __repr__(self) -> str:
        return f"TypedStorage(dtype={self.dtype}, device={self.device}) of size {self.size()}"
