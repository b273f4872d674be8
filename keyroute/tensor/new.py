"""Python data -> tensor, as PyTorch's tensor_new.cpp: the dtype inferred from nested
sequences and scalars, values stored as PyTorch's store_scalar converts them, NumPy arrays
checked and copied; and unpickling (`rebuild_tensor`, `rebuild_meta_tensor`, which pickles
name). The public functions that use these (`tensor`, `as_tensor`, `from_numpy`...) are
keyroute/_api/creation.py.
"""

from __future__ import annotations

import collections.abc
import math
import operator
import warnings
from typing import Any

import numpy as np

from ._tensor import (
    CPU_KEYS,
    META_KEYS,
    Tensor,
    _address,
    _root_array,
    _view_into,
    make_tensor,
)
from .dtype import (
    bfloat16,
    bool_,
    complex64,
    complex128,
    dtype,
    float16,
    float32,
    float64,
    get_default_dtype,
    int8,
    int16,
    int32,
    int64,
    promote_types,
    uint8,
)
from .meta_array import MetaArray

_NP_TO_DTYPE = {
    np.dtype(d.np): d
    for d in (
        bool_,
        uint8,
        int8,
        int16,
        int32,
        int64,
        float16,
        float32,
        float64,
        complex64,
        complex128,
    )
}
_MAX_DIMS = 128  # PyTorch's limit on the nesting depth of tensor() data

_warned: set[str] = set()


def _warn_once(key: str, message: str, stacklevel: int) -> None:
    """A UserWarning PyTorch gives once per process (TORCH_WARN_ONCE)."""
    if key not in _warned:
        _warned.add(key)
        warnings.warn(message, UserWarning, stacklevel=stacklevel + 1)


def _tp_name(obj: Any) -> str:
    """The type name PyTorch's C++ messages print (Py_TYPE(obj)->tp_name)."""
    cls = type(obj)
    if cls.__flags__ & (1 << 9) or cls.__module__ == "builtins":  # heap (Python) classes
        return cls.__name__
    return f"{cls.__module__}.{cls.__name__}"


# ----------------------------------------------------------------------------- tensor()


def _is_sequence(x: Any) -> bool:
    """PySequence_Check as PyTorch's data walk sees it (tensors are scalars there)."""
    if isinstance(x, (list, tuple, str, bytes, bytearray, range, np.ndarray)):
        return True
    if isinstance(x, (Tensor, dict, np.generic)):
        return False
    return isinstance(x, collections.abc.Sequence)


def _compute_sizes(data: Any) -> list[int]:
    """The shape of nested data, following first elements (PyTorch's compute_sizes)."""
    sizes: list[int] = []
    seq = data
    while _is_sequence(seq):
        length = len(seq)
        sizes.append(length)
        if len(sizes) > _MAX_DIMS:
            raise ValueError(f"too many dimensions '{_tp_name(seq)}'")
        if length == 0:
            break
        seq = seq[0]
    return sizes


_PY_TYPE_DTYPE = {int: int64, bool: bool_}


def _scalar_dtype(obj: Any) -> dtype:
    """The dtype PyTorch infers for one non-sequence value."""
    cls = obj.__class__
    if cls is float:
        return get_default_dtype()
    if cls is int or cls is bool:
        return _PY_TYPE_DTYPE[cls]
    if isinstance(obj, (np.ndarray, np.generic)):
        return _numpy_dtype(obj.dtype, "np.ndarray")
    if isinstance(obj, float):
        return get_default_dtype()
    if isinstance(obj, int):
        return bool_ if isinstance(obj, bool) else int64
    if isinstance(obj, complex):
        return complex128 if get_default_dtype() is float64 else complex64
    if isinstance(obj, Tensor):
        return obj._dtype
    if isinstance(obj, (str, bytes)):
        raise TypeError(f"new(): invalid data type '{_tp_name(obj)}'")
    raise RuntimeError(f"Could not infer dtype of {_tp_name(obj)}")


def _infer_dtype(obj: Any) -> dtype:
    """PyTorch's infer_scalar_type over nested data: promote every element's dtype."""
    if isinstance(obj, np.ndarray):
        return _numpy_dtype(obj.dtype, "np.ndarray")
    if not _is_sequence(obj) or isinstance(obj, (str, bytes)):
        return _scalar_dtype(obj)
    if len(obj) == 0:
        return get_default_dtype()
    result: dtype | None = None
    items = obj if isinstance(obj, (list, tuple)) else [obj[i] for i in range(len(obj))]
    kinds = set(map(type, items))
    if kinds <= {int, float, bool, complex}:
        # Plain Python numbers: one dtype per type, promoted (the order does not matter).
        for cls in kinds:
            d = _scalar_dtype(cls())
            result = d if result is None else promote_types(result, d)
        return result  # type: ignore[return-value]
    for item in items:
        if item is obj:
            raise TypeError("new(): self-referential lists are incompatible")
        d = _infer_dtype(item)
        result = d if result is None else promote_types(result, d)
        if result is complex128:
            break  # nothing promotes past complex128
    return result  # type: ignore[return-value]


def _collect(obj: Any, sizes: list[int], dim: int, out: list[Any]) -> None:
    """Append the scalars of nested data to `out`, checking every length (recursive_store)."""
    n = sizes[dim]
    if isinstance(obj, (list, tuple)):
        items = obj
    else:
        try:
            items = list(obj)
        except TypeError:
            raise TypeError("not a sequence") from None
    if len(items) != n:
        raise ValueError(f"expected sequence of length {n} at dim {dim} (got {len(items)})")
    if dim + 1 == len(sizes):
        out.extend(items)
        return
    for item in items:
        _collect(item, sizes, dim + 1, out)


# -- storing Python scalars, as PyTorch's store_scalar converts them


def _unpack_long(v: Any) -> int:
    n = _unpack_long_unbounded(v)
    if not -(1 << 63) <= n < (1 << 63):
        raise ValueError("Overflow when unpacking long long")
    return n


def _unpack_double(v: Any) -> float:
    if isinstance(v, float):
        return float(v)
    to_float = getattr(type(v), "__float__", None)
    if to_float is not None:
        return float(to_float(v))
    to_index = getattr(type(v), "__index__", None)
    if to_index is not None:
        return float(to_index(v))
    raise TypeError(f"must be real number, not {_tp_name(v)}")


def _unpack_complex(v: Any) -> complex:
    to_complex = getattr(type(v), "__complex__", None)
    if to_complex is not None:
        return complex(to_complex(v))
    return complex(_unpack_double(v), 0.0)


def _unpack_bool(v: Any) -> bool:
    if isinstance(v, float):
        return bool(v)
    if isinstance(v, complex):
        return v != 0
    if isinstance(v, np.bool_):
        return bool(v)
    return _unpack_long_unbounded(v) != 0


def _unpack_long_unbounded(v: Any) -> int:
    """PyLong_AsLongLong: __index__ (its own errors pass through, e.g. a float tensor's)."""
    to_index = getattr(type(v), "__index__", None)
    if to_index is None:
        raise TypeError(f"'{_tp_name(v)}' object cannot be interpreted as an integer")
    return operator.index(to_index(v))


_INT_NAMES = {uint8: "uint8", int8: "int8", int16: "int16", int32: "int32", int64: "int64"}


def _checked_int(v: Any, dt: dtype) -> int:
    """One value stored into an integer dtype (c10::checked_convert: no silent overflow;
    negative ints may wrap into unsigned types, as PyTorch allows)."""
    info = np.iinfo(dt.np)
    lo, hi = int(info.min), int(info.max)
    if isinstance(v, float):
        f = float(v)
        if math.isnan(f) or math.isinf(f) or f < lo or f > hi:
            raise RuntimeError(
                f"value cannot be converted to type {_INT_NAMES[dt]} without overflow"
            )
        return int(f)
    n = _unpack_long(v)
    if lo == 0:
        ok = n <= hi and (n >= 0 or -n <= hi)
    else:
        ok = lo <= n <= hi
    if not ok:
        raise RuntimeError(f"value cannot be converted to type {_INT_NAMES[dt]} without overflow")
    return n


def _store(values: list[Any], dt: dtype) -> np.ndarray:
    """A flat array of `dt` holding `values`, converted as PyTorch's store_scalar does."""
    kinds = set(map(type, values))
    with np.errstate(over="ignore", invalid="ignore"):
        if dt.category == 2:
            if kinds <= {float, int, bool}:
                f64 = np.array(values, dtype=np.float64)
            else:
                f64 = np.array([_unpack_double(v) for v in values], dtype=np.float64)
            if dt in (float16, bfloat16):
                # c10 converts double -> float -> half/bfloat16 (two roundings).
                return f64.astype(np.float32).astype(dt.np)
            return f64.astype(dt.np)
        if dt.category == 3:
            return np.array([_unpack_complex(v) for v in values], dtype=np.complex128).astype(dt.np)
        if dt is bool_:
            if kinds <= {bool}:
                return np.array(values, dtype=np.bool_)
            return np.array([_unpack_bool(v) for v in values], dtype=np.bool_)
        if kinds <= {int, bool}:
            try:
                a = np.array(values, dtype=np.int64)
            except OverflowError:
                a = None
            if a is not None:
                info = np.iinfo(dt.np)
                lo = -int(info.max) if info.min == 0 else int(info.min)
                if a.size == 0 or (int(a.min()) >= lo and int(a.max()) <= int(info.max)):
                    return a.astype(dt.np)  # negative ints wrap into unsigned, as C++ casts
        return np.array([_checked_int(v, dt) for v in values], dtype=np.int64).astype(dt.np)


def _numpy_dtype(np_dtype: np.dtype, what: str = "np.ndarray") -> dtype:
    """The keyroute dtype of a NumPy dtype, with PyTorch's error for the unsupported ones."""
    d = _NP_TO_DTYPE.get(np_dtype)
    if d is not None:
        return d
    if np_dtype.isnative is False and np_dtype.newbyteorder("=") in _NP_TO_DTYPE:
        return _NP_TO_DTYPE[np_dtype.newbyteorder("=")]
    name = np_dtype.type.__name__
    module = np_dtype.type.__module__
    if np_dtype.kind == "u" and np_dtype.itemsize > 1:
        raise TypeError(
            f"can't convert {what} of type numpy.{name}: keyroute has no {name} dtype (PyTorch "
            f"2.13's uint16/uint32/uint64 are not implemented)"
        )
    raise TypeError(
        f"can't convert {what} of type {module}.{name}. The only supported types are: float64, "
        f"float32, float16, complex64, complex128, int64, int32, int16, int8, uint64, uint32, "
        f"uint16, uint8, and bool."
    )


def _array_check(arr: np.ndarray) -> dtype:
    """from_numpy's checks (strides, byte order, dtype) in PyTorch's order."""
    item = arr.itemsize
    for s in arr.strides:
        if item and s % item:
            raise ValueError(
                "given numpy array strides not a multiple of the element byte size. Copy the "
                "numpy array to reallocate the memory."
            )
    if any(s < 0 for s in arr.strides):
        raise ValueError(
            "At least one stride in the given numpy array is negative, and tensors with negative "
            "strides are not currently supported. (You can probably work around this by making "
            "a copy of your array  with array.copy().) "
        )
    if arr.dtype.byteorder not in ("=", "|") and not arr.dtype.isnative:
        raise ValueError(
            "given numpy array has byte order different from the native byte order. Conversion "
            "between byte orders is currently not supported."
        )
    return _numpy_dtype(arr.dtype)


def _empty_array(shape: list[int], dt: dtype) -> np.ndarray:
    """A zero-size array with PyTorch's contiguous strides (NumPy gives such arrays 0s)."""
    from .meta_array import contiguous_strides

    strides = tuple(s * dt.itemsize for s in contiguous_strides(tuple(shape)))
    return np.lib.stride_tricks.as_strided(np.empty(1, dt.np)[:0], tuple(shape), strides)


def _own_storage(arr: np.ndarray) -> np.ndarray:
    """`arr` as the start of its own storage (PyTorch's from_blob over the array's memory):
    a view of NumPy array `a[3:]` has storage offset 0 and a storage of its own extent."""
    root = _root_array(arr)
    if arr is root or not root.flags.c_contiguous:
        return arr
    item = arr.itemsize
    start = _address(arr) - _address(root)
    extent = 0
    if arr.size:
        extent = 1 + sum((n - 1) * st for n, st in zip(arr.shape, arr.strides)) // item
    if start < 0 or start + extent * item > root.nbytes:
        return arr
    memory = _Memory(root, _address(arr), extent, arr.dtype, not arr.flags.writeable)
    storage = np.asarray(memory)
    return np.lib.stride_tricks.as_strided(
        storage, arr.shape, arr.strides, writeable=arr.flags.writeable
    )


class _Memory:
    """Memory inside another array, exposed as a new root (it keeps the owner alive)."""

    __slots__ = ("__array_interface__", "_owner")

    def __init__(
        self, owner: np.ndarray, address: int, n: int, np_dtype: np.dtype, readonly: bool
    ) -> None:
        self._owner = owner
        self.__array_interface__ = {
            "data": (address, readonly),
            "shape": (n,),
            "typestr": np_dtype.str,
            "version": 3,
        }


def _copy_array(arr: np.ndarray, dt: dtype) -> np.ndarray:
    """A copy of `arr` in dtype `dt`, keeping the layout of a dense array (preserve_format)."""
    with np.errstate(over="ignore", invalid="ignore"):
        if arr.dtype.kind == "c" and dt.category != 3:
            warnings.warn(
                "Casting complex values to real discards the imaginary part", UserWarning, 4
            )
            arr = arr.real
        return arr.astype(dt.np, order="K", copy=True)


# -- unpickling


def _set_state(t: Tensor, requires_grad: bool, state: dict[str, Any] | None) -> Tensor:
    if requires_grad:
        t.requires_grad_(True)
    if state:
        t.__dict__.update(state)
    return t


def rebuild_tensor(
    storage: Any,
    dt: dtype,
    shape: tuple[int, ...],
    stride: tuple[int, ...],
    offset: int,
    requires_grad: bool,
    state: dict[str, Any] | None = None,
) -> Tensor:
    """Unpickle a CPU tensor: a view with the pickled geometry into its storage."""
    root = storage.root if hasattr(storage, "root") else storage
    arr = _view_into(root, dt.np, shape, stride, offset)
    return _set_state(make_tensor(arr, dt, CPU_KEYS), requires_grad, state)


def rebuild_meta_tensor(
    shape: tuple[int, ...],
    stride: tuple[int, ...],
    offset: int,
    storage_nbytes: int,
    dt: dtype,
    requires_grad: bool,
    state: dict[str, Any] | None = None,
) -> Tensor:
    """Unpickle a meta tensor (layout only)."""

    meta = MetaArray(shape, stride, dt.np, offset, storage_nbytes)
    return _set_state(make_tensor(meta, dt, META_KEYS), requires_grad, state)
