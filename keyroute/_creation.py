"""Creating tensors from Python data, and the factory functions of the public API.

`keyroute.tensor(data)` copies; `from_numpy` shares memory; `zeros(2, 3)`, `randn((2, 3))`, ...
take sizes as varargs or one sequence, plus `dtype=`, `device=`, `requires_grad=`, `out=`, and
call the aten factory operators, so a dispatch mode sees `aten.zeros.default`, ... Arguments
are checked as PyTorch's argument parser checks them, with its messages.

Public factories run below ADInplaceOrView, as torch:: factories do: their internal fills do not
count as in-place updates, so a new tensor starts at `_version == 0`. An `out=` tensor is
written through the dispatcher normally (its version counts the write).

`with keyroute.device("meta"):` (or `set_default_device`) makes the factories that take a
device (not the `*_like` ones, not `from_numpy`) create tensors there.
"""

from __future__ import annotations

import collections.abc
import functools
import math
import operator
import threading
import warnings
from collections.abc import Callable
from typing import Any

import numpy as np

from ._api import function
from ._ops import ops
from .dispatcher.tls import AutoDispatchBelowADInplaceOrView
from .tensor import device as _device_mod
from .tensor._tensor import (
    CPU_KEYS,
    Size,
    Tensor,
    _address,
    _root_array,
    _view_into,
    make_tensor,
    wrap_cpu,
)
from .tensor.device import Device, default_device
from .tensor.dtype import (
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
from .tensor.meta_array import MetaArray
from .tensor.repr import get_printoptions, printoptions, set_printoptions

__all__ = [
    "tensor",
    "as_tensor",
    "asarray",
    "from_numpy",
    "from_dlpack",
    "empty",
    "zeros",
    "ones",
    "full",
    "rand",
    "randn",
    "randint",
    "randperm",
    "arange",
    "linspace",
    "eye",
    "empty_like",
    "zeros_like",
    "ones_like",
    "full_like",
    "rand_like",
    "randn_like",
    "empty_strided",
    "scalar_tensor",
    "get_default_device",
    "set_default_device",
    "set_printoptions",
    "get_printoptions",
    "printoptions",
]

aten = ops.aten
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


# ----------------------------------------------------------------------------- arguments


def _dtype_arg(fn: str, dt: Any) -> dtype | None:
    """A `dtype=` argument: a keyroute dtype or a Python number type (float is float64)."""
    if dt is None or isinstance(dt, dtype):
        return dt
    python_types = {float: float64, int: int64, bool: bool_, complex: complex128}
    if isinstance(dt, type) and dt in python_types:
        return python_types[dt]
    raise TypeError(f"{fn}(): argument 'dtype' must be torch.dtype, not {_tp_name(dt)}")


def _device_arg(fn: str, device: Any) -> Device:
    """A `device=` argument (None: the default device)."""
    if device is None:
        return default_device()
    if isinstance(device, Device):
        return device
    if isinstance(device, bool) or not isinstance(device, (str, int)):
        raise TypeError(f"{fn}(): argument 'device' must be torch.device, not {_tp_name(device)}")
    if isinstance(device, int):
        raise RuntimeError("Cannot access accelerator device when none is available.")
    return Device(device)


def _index_like(v: Any) -> int | None:
    """v as an int if PyTorch's parser takes it for an int (not bool), else None."""
    if v.__class__ is int:
        return v
    if isinstance(v, (bool, np.bool_)):
        return None
    if isinstance(v, Tensor):
        if v._dtype.category == 1 and v.numel() == 1:
            return int(v.item())
        return None
    try:
        return operator.index(v)
    except TypeError:
        return None


def _size_arg(fn: str, args: tuple[Any, ...], size: Any, position: int = 1) -> list[int]:
    """A size given as varargs (`zeros(2, 3)`), one sequence (`zeros((2, 3))`) or `size=`."""
    if size is not None:
        if args:
            raise TypeError(f"{fn}() got multiple values for argument 'size'")
        args = (size,)
    if not args:
        raise TypeError(f'{fn}() missing 1 required positional arguments: "size"')
    if len(args) == 1:
        arg = args[0]
        if isinstance(arg, (tuple, list)):
            out = []
            for i, v in enumerate(arg):
                n = _index_like(v)
                if n is None:
                    raise TypeError(
                        f"{fn}(): argument 'size' (position {position}) must be tuple of ints, "
                        f"but found element of type {_tp_name(v)} at pos {i}"
                    )
                out.append(n)
            return out
        n = _index_like(arg)
        if n is None:
            raise TypeError(
                f"{fn}(): argument 'size' (position {position}) must be tuple of ints, not "
                f"{_tp_name(arg)}"
            )
        return [n]
    if isinstance(args[0], (tuple, list)):
        raise TypeError(f"{fn}() takes 1 positional argument but {len(args)} were given")
    out = []
    for i, v in enumerate(args):
        n = v if isinstance(v, bool) else _index_like(v)  # varargs take bools as 0/1
        if n is None:
            raise TypeError(
                f"{fn}(): argument 'size' failed to unpack the object at pos {i + 1} with error "
                f'"type must be tuple of ints,but got {_tp_name(v)}"'
            )
        out.append(int(n))
    return out


def _int_list_arg(fn: str, name: str, value: Any, position: int) -> list[int]:
    """An int-list argument that must be a sequence (full's size, empty_strided's stride)."""
    if not isinstance(value, (tuple, list)):
        raise TypeError(
            f"{fn}(): argument '{name}' (position {position}) must be tuple of ints, not "
            f"{_tp_name(value)}"
        )
    out = []
    for i, v in enumerate(value):
        n = _index_like(v)
        if n is None:
            raise TypeError(
                f"{fn}(): argument '{name}' (position {position}) must be tuple of ints, but "
                f"found element of type {_tp_name(v)} at pos {i}"
            )
        out.append(n)
    return out


def _int_arg(fn: str, name: str, value: Any, position: int) -> int:
    n = _index_like(value)
    if n is None:
        raise TypeError(
            f"{fn}(): argument '{name}' (position {position}) must be int, not {_tp_name(value)}"
        )
    return n


def _number_arg(fn: str, name: str, value: Any, position: int) -> Any:
    """A Scalar argument as a Python number (NumPy scalars and 0-dim tensors too)."""
    if value.__class__ in (int, float, bool, complex):
        return value
    if isinstance(value, np.bool_):
        return float(value)  # PyTorch's parser reads a NumPy bool as a float
    if isinstance(value, np.generic) and value.dtype.kind in "iufc":
        return value.item()
    if isinstance(value, (int, float, complex)):
        return value
    if isinstance(value, Tensor) and value.dim() == 0:
        return value.item()
    raise TypeError(
        f"{fn}(): argument '{name}' (position {position}) must be Number, not {_tp_name(value)}"
    )


def _invalid_combination(fn: str, args: tuple[Any, ...], kwargs: dict[str, Any]) -> TypeError:
    got = [_tp_name(a) for a in args] + [f"{k}={_tp_name(v)}" for k, v in kwargs.items()]
    return TypeError(
        f"{fn}() received an invalid combination of arguments - got ({', '.join(got)}), but "
        f"expected one of:"
    )


def _tensor_arg(fn: str, value: Any, name: str = "input") -> Tensor:
    if not isinstance(value, Tensor):
        raise TypeError(
            f"{fn}(): argument '{name}' (position 1) must be Tensor, not {_tp_name(value)}"
        )
    return value


def _check_requires_grad(t: Tensor) -> None:
    if not (t._dtype.is_floating_point or t._dtype.is_complex):
        raise RuntimeError("Only Tensors of floating point and complex dtype can require gradients")


def _finish(t: Tensor, requires_grad: bool) -> Tensor:
    if requires_grad:
        _check_requires_grad(t)
        t.requires_grad_(True)
    return t


def _below(fn: Callable[..., Tensor], *args: Any, **kwargs: Any) -> Tensor:
    """Run a factory's aten call below ADInplaceOrView (torch:: factories do). As PyTorch's
    bindings, pass pin_memory=False to operators that take it (a mode sees the keyword)."""
    schema = getattr(fn, "_schema", None)
    if (
        schema is not None
        and "pin_memory" not in kwargs
        and any(a.name == "pin_memory" for a in schema.arguments)
    ):
        kwargs["pin_memory"] = False
    with AutoDispatchBelowADInplaceOrView():
        return fn(*args, **kwargs)


def _check_out(fn: str, out: Any, dt: dtype | None, device: Any) -> Tensor:
    """PyTorch's checks of an `out=` tensor against explicit dtype=/device= arguments."""
    if not isinstance(out, Tensor):
        raise TypeError(f"{fn}(): argument 'out' must be Tensor, not {_tp_name(out)}")
    if dt is not None and dt is not out._dtype:
        raise RuntimeError(
            f"dtype {dt._short} does not match dtype of out parameter ({out._dtype._short})"
        )
    if device is not None and Device(device).type != out.device.type:
        raise RuntimeError(
            f"device type {Device(device).type} does not match device type of out parameter "
            f"({out.device.type})"
        )
    return out


def _write_out(
    fn: str,
    out: Tensor,
    shape: list[int],
    fill: Callable[[Tensor], Any] | None,
    requires_grad: bool,
) -> Tensor:
    """`factory(..., out=out)`: resize `out` and fill it in place. PyTorch's `<fn>.out`
    kernels resize inside (one write for the version counter: the fill's)."""
    from .autograd.grad_mode import is_grad_enabled

    for s in shape:
        if s < 0:
            raise RuntimeError(f"Trying to create tensor with negative dimension {s}: {shape}")
    if fill is None:
        # empty(out=): at::empty_out resizes (no write for the version counter).
        if out.requires_grad:
            raise RuntimeError("cannot resize variables that require grad")
        if list(out.shape) != shape:
            out.resize_(shape)
        else:
            _below(out.resize_, shape)  # PyTorch calls it anyway; nothing changes
        return _finish(out, requires_grad)
    if out.requires_grad and is_grad_enabled():
        raise RuntimeError(
            f"aten::{fn}(): functions with out=... arguments don't support automatic "
            f"differentiation, but one of the arguments requires grad."
        )
    if list(out.shape) != shape:
        _below(out.resize_, shape)  # silently, as at::zeros_out & co. do
    fill(out)
    return _finish(out, requires_grad)


# ----------------------------------------------------------------------------- default device


_global_device = threading.local()


def get_default_device() -> Device:
    """The device factories create tensors on (torch.get_default_device)."""
    return default_device()


def set_default_device(device: Any) -> None:
    """Set the default device of factories for this thread (None: back to cpu), under any
    `with device(...)` block (which still wins inside it), as torch.set_default_device."""
    stack = _device_mod._default_stack()
    if getattr(_global_device, "installed", False):
        # The global default sits at the bottom of the context stack; blocks push above it.
        del stack[0]
        _global_device.installed = False
    if device is not None:
        stack.insert(0, _device_arg("set_default_device", device))
        _global_device.installed = True


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
    from .tensor.meta_array import contiguous_strides

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


def _meta_tensor(shape: Any, dt: dtype, stride: Any = None) -> Tensor:
    from .aten._meta_util import new_meta

    return new_meta(tuple(shape), dt, stride)


def _copy_array(arr: np.ndarray, dt: dtype) -> np.ndarray:
    """A copy of `arr` in dtype `dt`, keeping the layout of a dense array (preserve_format)."""
    with np.errstate(over="ignore", invalid="ignore"):
        if arr.dtype.kind == "c" and dt.category != 3:
            warnings.warn(
                "Casting complex values to real discards the imaginary part", UserWarning, 4
            )
            arr = arr.real
        return arr.astype(dt.np, order="K", copy=True)


def _tensor_from_data(data: Any, dt: dtype | None, dev: Device | None, copy_numpy: bool) -> Tensor:
    """PyTorch's internal_new_from_data: a fresh tensor (on `dev`) holding `data`."""
    if isinstance(data, Tensor):
        src = data.detach()
        # A `with device(...)` block (PyTorch passes it as device=) wins over the source's.
        target = (
            dev
            if dev is not None
            else (default_device() if _device_mod._default_stack() else src.device)
        )
        return src.to(device=target, dtype=dt or src._dtype, copy=True)
    target = default_device() if dev is None else dev
    if isinstance(data, np.ndarray):
        src_dt = _array_check(data)
        dt = dt or src_dt
        if target.type == "meta":
            return _meta_tensor(data.shape, dt)
        arr = _copy_array(data, dt) if (copy_numpy or dt is not src_dt) else data
        return aten.lift_fresh.default(wrap_cpu(arr, dt))
    if isinstance(data, (str, bytes)):
        raise TypeError(f"new(): invalid data type '{_tp_name(data)}'")
    sizes = _compute_sizes(data)
    if isinstance(data, (list, tuple)) and any(isinstance(x, np.ndarray) for x in data):
        _warn_once(
            "list-of-ndarrays",
            "Creating a tensor from a list of numpy.ndarrays is extremely slow. Please consider "
            "converting the list to a single numpy.ndarray with numpy.array() before converting "
            "to a tensor.",
            4,
        )
    dt = dt or _infer_dtype(data)
    if len(sizes) > 64:
        raise ValueError("number of dimensions must be within [0, 64]")
    if target.type == "meta":
        # PyTorch makes meta tensors from data without dispatching (no lift_fresh).
        return _meta_tensor(sizes, dt)
    numel = math.prod(sizes)
    if numel == 0:
        arr = _empty_array(sizes, dt)
    elif not sizes:
        arr = _store([data], dt).reshape(())
    else:
        values: list[Any] = []
        _collect(data, sizes, 0, values)
        arr = _store(values, dt).reshape(sizes)
    if target.type != "cpu":
        return aten._to_copy.default(wrap_cpu(arr, dt), device=target)
    return aten.lift_fresh.default(wrap_cpu(arr, dt))


def tensor(
    data: Any,
    *,
    dtype: Any = None,
    device: Any = None,
    requires_grad: bool = False,
    pin_memory: bool = False,
) -> Tensor:
    """A new tensor holding a copy of `data`: nested sequences, a NumPy array, a scalar or a
    tensor; its dtype inferred as PyTorch infers it (ints int64, floats the default dtype,
    bools bool, complex the default complex dtype, promoted across elements)."""
    dt = _dtype_arg("tensor", dtype)
    dev = None if device is None else _device_arg("tensor", device)
    if isinstance(data, Tensor):
        warnings.warn(
            "To copy construct from a tensor, it is recommended to use "
            "sourceTensor.detach().clone() or sourceTensor.detach().clone().requires_grad_(True), "
            "rather than torch.tensor(sourceTensor).",
            UserWarning,
            stacklevel=2,
        )
    t = _below(_tensor_from_data, data, dt, dev, True)
    return _finish(t, requires_grad)


def as_tensor(data: Any, dtype: Any = None, device: Any = None) -> Tensor:
    """`data` as a tensor, sharing memory when it already is a tensor or a NumPy array of the
    requested dtype and device; a copy otherwise."""
    dt = _dtype_arg("as_tensor", dtype)
    dev = None if device is None else _device_arg("as_tensor", device)
    if isinstance(data, Tensor):
        if (dt is None or dt is data._dtype) and (dev is None or dev.type == data.device.type):
            return data
        return data.to(device=dev or data.device, dtype=dt or data._dtype)
    if isinstance(data, np.ndarray):
        target = default_device() if dev is None else dev
        src_dt = _array_check(data)
        if target.type == "cpu":
            arr = _own_storage(data)
            t = _below(lambda: aten.lift_fresh.default(wrap_cpu(arr, src_dt)))
            if dt is not None and dt is not src_dt:
                t = t.to(dtype=dt)
            return t
    return _below(_tensor_from_data, data, dt, dev, False)


def asarray(
    obj: Any,
    *,
    dtype: Any = None,
    device: Any = None,
    copy: bool | None = None,
    requires_grad: bool = False,
) -> Tensor:
    """torch.asarray: share memory with tensors, NumPy arrays and DLPack producers when
    possible (`copy=False` demands it, `copy=True` forbids it); else build from data."""
    dt = _dtype_arg("asarray", dtype)
    dev = None if device is None else _device_arg("asarray", device)
    t: Tensor | None = None
    if isinstance(obj, Tensor):
        t = obj
    elif isinstance(obj, np.ndarray):
        t = from_numpy(obj)
    elif not isinstance(obj, (list, tuple, np.generic)) and hasattr(obj, "__dlpack__"):
        t = from_dlpack(obj)
    if t is not None:
        need_dtype = dt is not None and dt is not t._dtype
        need_device = dev is not None and dev.type != t.device.type
        if copy is False and (need_dtype or need_device):
            if need_dtype:
                raise ValueError(
                    f"can't alias tensor with dtype '{t._dtype._short}' into dtype '{dt._short}'."  # type: ignore[union-attr]
                )
            raise ValueError(f"can't alias tensor from device '{t.device}' to '{dev}'.")
        if copy or need_dtype or need_device:
            t = t.detach().to(device=dev or t.device, dtype=dt or t._dtype, copy=True)
        return _finish(t, requires_grad) if requires_grad else t
    if copy is False:
        raise ValueError(
            f"can't alias arbitrary sequence into a tensor. Use copy=None or copy=True instead "
            f"({_tp_name(obj)})"
        )
    out = _below(_tensor_from_data, obj, dt, dev, True)
    return _finish(out, requires_grad)


def from_numpy(ndarray: Any) -> Tensor:
    """A CPU tensor sharing `ndarray`'s memory (writes show both ways)."""
    if not isinstance(ndarray, np.ndarray):
        raise TypeError(f"expected np.ndarray (got {_tp_name(ndarray)})")
    if not ndarray.flags.writeable:
        _warn_once(
            "from_numpy-readonly",
            "The given NumPy array is not writable, and PyTorch does not support non-writable "
            "tensors. This means writing to this tensor will result in undefined behavior. You "
            "may want to copy the array to protect its data or make it writable before "
            "converting it to a tensor. This type of warning will be suppressed for the rest of "
            "this program.",
            2,
        )
    dt = _array_check(ndarray)
    arr = _own_storage(ndarray)
    return _below(lambda: aten.lift_fresh.default(wrap_cpu(arr, dt)))


def from_dlpack(ext_tensor: Any) -> Tensor:
    """A CPU tensor sharing memory with a DLPack producer (a NumPy array, a tensor, ...)."""
    if isinstance(ext_tensor, Tensor):
        arr = _np_from_dlpack(ext_tensor)
        return _below(lambda: aten.lift_fresh.default(wrap_cpu(arr, ext_tensor._dtype)))
    if not hasattr(ext_tensor, "__dlpack__"):
        raise RuntimeError(
            "from_dlpack received an invalid capsule. Note that DLTensor capsules can be "
            "consumed only once, so you might have already constructed a tensor from it once."
        )
    arr = np.from_dlpack(ext_tensor)
    if arr.dtype.name == "bfloat16":
        return _below(lambda: aten.lift_fresh.default(wrap_cpu(arr, bfloat16)))
    return from_numpy(arr)


def _np_from_dlpack(t: Tensor) -> np.ndarray:
    if t.requires_grad:
        raise BufferError("Can't export tensors that require gradient, use tensor.detach()")
    data = t._data
    if type(data) is not np.ndarray:
        from .backends.errors import data_access_error

        raise data_access_error(t, "__dlpack__")
    # The import side of DLPack is a view of the same memory: a NumPy view does it, and it
    # also works for bfloat16, which NumPy's DLPack importer does not know.
    return data.view()


# ----------------------------------------------------------------------------- factories


def _size_factory(fn: str, op: Any, out_fill: Callable[[Tensor], Any] | None) -> Callable:
    """A public `fn(*size, out=, dtype=, layout=, device=, pin_memory=, requires_grad=)`."""

    def factory(
        *size: Any,
        out: Any = None,
        dtype: Any = None,
        layout: Any = None,
        device: Any = None,
        pin_memory: bool | None = False,
        requires_grad: bool = False,
        **kwargs: Any,
    ) -> Tensor:
        size_kw = kwargs.pop("size", None)
        memory_format = kwargs.pop("memory_format", None) if fn == "empty" else None
        generator = kwargs.pop("generator", None) if fn in ("rand", "randn") else None
        kwargs.pop("names", None)  # named tensors: accepted and ignored
        if kwargs:
            raise TypeError(f"{fn}() got an unexpected keyword argument '{next(iter(kwargs))}'")
        shape = _size_arg(fn, size, size_kw)
        dt = _dtype_arg(fn, dtype)
        if generator is not None:
            _check_generator(fn, size, {"generator": generator})
        if out is not None:
            _check_out(fn, out, dt, device)
            fill = out_fill
            if generator is not None:
                fill = functools.partial(out_fill, generator=generator)  # type: ignore[arg-type]
            return _write_out(fn, out, shape, fill, requires_grad)
        dev = _device_arg(fn, device)
        kw: dict[str, Any] = {"dtype": dt, "device": dev}
        if memory_format is not None:
            kw["memory_format"] = memory_format
        if generator is not None:
            t = _below(getattr(aten, fn).generator, shape, generator=generator, **kw)
        else:
            t = _below(op, shape, **kw)
        return _finish(t, requires_grad)

    factory.__name__ = factory.__qualname__ = fn
    return factory


def _check_generator(fn: str, args: tuple[Any, ...], kwargs: dict[str, Any]) -> None:
    from .random import Generator

    generator = kwargs.get("generator")
    if generator is not None and not isinstance(generator, Generator):
        raise _invalid_combination(fn, args, kwargs)


empty = _size_factory("empty", aten.empty.memory_format, None)
empty.__doc__ = "An uninitialised tensor of the given size."
zeros = _size_factory("zeros", aten.zeros.default, lambda o: o.zero_())
zeros.__doc__ = "A tensor of zeros."
ones = _size_factory("ones", aten.ones.default, lambda o: o.fill_(1))
ones.__doc__ = "A tensor of ones."


def _rand_fill(o: Tensor, generator: Any = None) -> Any:
    return aten.uniform_.default(o, 0.0, 1.0, generator=generator)


def _randn_fill(o: Tensor, generator: Any = None) -> Any:
    return aten.normal_.default(o, 0.0, 1.0, generator=generator)


rand = _size_factory("rand", aten.rand.default, _rand_fill)
rand.__doc__ = "Uniform samples from [0, 1) (keyroute's generator: not PyTorch's numbers)."
randn = _size_factory("randn", aten.randn.default, _randn_fill)
randn.__doc__ = "Standard normal samples (keyroute's generator: not PyTorch's numbers)."


def _fill_dtype(value: Any) -> dtype:
    """full()'s dtype from its fill value: bool, int64, the default float or complex dtype."""
    if isinstance(value, bool):
        return bool_
    if isinstance(value, int):
        return int64
    if isinstance(value, complex):
        return complex128 if get_default_dtype() is float64 else complex64
    return get_default_dtype()


_MISSING: Any = object()


def full(
    size: Any = _MISSING,
    fill_value: Any = _MISSING,
    *args: Any,
    out: Any = None,
    dtype: Any = None,
    layout: Any = None,
    device: Any = None,
    pin_memory: bool | None = False,
    requires_grad: bool = False,
    names: Any = None,
) -> Tensor:
    """A tensor of `size` filled with `fill_value` (dtype inferred from the value)."""
    if args:
        raise TypeError(f"full() takes 2 positional arguments but {2 + len(args)} were given")
    if size is _MISSING:
        raise TypeError('full() missing 1 required positional arguments: "size"')
    if fill_value is _MISSING:
        raise TypeError('full() missing 1 required positional arguments: "fill_value"')
    if (
        isinstance(size, (tuple, list))
        and size
        and not all(_index_like(v) is not None for v in size)
    ):
        bad = next(i for i, v in enumerate(size) if _index_like(v) is None)
        raise TypeError(
            f"full(): argument 'size' failed to unpack the object at pos {bad + 1} with error "
            f'"type must be tuple of ints,but got {_tp_name(size[bad])}"'
        )
    shape = _int_list_arg("full", "size", size, 1)
    value = _number_arg("full", "fill_value", fill_value, 2)
    dt = _dtype_arg("full", dtype)
    if out is not None:
        _check_out("full", out, dt, device)
        return _write_out("full", out, shape, lambda o: o.fill_(value), requires_grad)
    dev = _device_arg("full", device)
    # dtype=None lets aten::full infer it from the value, as PyTorch's binding does
    t = _below(aten.full.default, shape, value, **({"dtype": dt} if dt else {}), device=dev)
    return _finish(t, requires_grad)


def _like(fn: str, op: Any) -> Callable:
    def like(
        input: Any,
        *args: Any,
        dtype: Any = None,
        layout: Any = None,
        device: Any = None,
        pin_memory: bool | None = False,
        requires_grad: bool = False,
        memory_format: Any = None,
    ) -> Tensor:
        t = _tensor_arg(fn, input)
        dt = _dtype_arg(fn, dtype)
        dev = None if device is None else _device_arg(fn, device)
        extra = ()
        if fn == "full_like":
            if not args:
                raise TypeError('full_like() missing 1 required positional arguments: "fill_value"')
            extra = (_number_arg(fn, "fill_value", args[0], 2),)
            args = args[1:]
        if args:
            raise TypeError(
                f"{fn}() takes {1 + len(extra)} positional argument but "
                f"{1 + len(extra) + len(args)} were given"
            )
        kw: dict[str, Any] = {"dtype": dt, "device": dev}
        if memory_format is not None:
            kw["memory_format"] = memory_format
        out = _below(op, t, *extra, **kw)
        return _finish(out, requires_grad)

    like.__name__ = like.__qualname__ = fn
    like.__doc__ = f"{fn}: a new tensor shaped (and by default laid out) like `input`."
    return like


empty_like = _like("empty_like", aten.empty_like.default)
zeros_like = _like("zeros_like", aten.zeros_like.default)
ones_like = _like("ones_like", aten.ones_like.default)
full_like = _like("full_like", aten.full_like.default)
rand_like = _like("rand_like", aten.rand_like.default)
randn_like = _like("randn_like", aten.randn_like.default)


def _is_integral_number(v: Any) -> bool:
    if isinstance(v, Tensor):
        return v._dtype.category <= 1
    return isinstance(v, (int, np.integer, np.bool_))


def arange(
    *args: Any,
    out: Any = None,
    dtype: Any = None,
    layout: Any = None,
    device: Any = None,
    pin_memory: bool | None = False,
    requires_grad: bool = False,
    **kwargs: Any,
) -> Tensor:
    """Values from `start` to `end` (exclusive) by `step`: int64 when all three are integral,
    else the default float dtype; ceil((end - start) / step) elements."""
    names = ("start", "end", "step")
    given = dict(zip(("end",) if len(args) == 1 else names, args))
    for k in list(kwargs):
        if k not in names or k in given:
            raise _invalid_combination("arange", args, kwargs)
        given[k] = kwargs.pop(k)
    if len(args) > 3 or "end" not in given or any(v is None for v in given.values()):
        raise _invalid_combination("arange", args, kwargs)
    values = {}
    for pos, k in enumerate(names, 1):
        if k in given:
            v = given[k]
            if isinstance(v, Tensor) and v.numel() != 1:
                raise _invalid_combination("arange", args, kwargs)
            if not isinstance(v, (int, float, complex, np.number, np.bool_, Tensor)):
                position = pos if len(args) > 1 else 1
                raise TypeError(
                    f"arange(): argument '{k}' (position {position}) must be Number, not "
                    f"{_tp_name(v)}"
                )
            values[k] = _number_arg("arange", k, v, pos)
    for k, v in values.items():
        if isinstance(v, bool):
            values[k] = int(v)
    dt = _dtype_arg("arange", dtype)
    kw = {"dtype": dt} if dt is not None else {}  # else aten::arange infers it, as in PyTorch
    start, end, step = values.get("start", 0), values["end"], values.get("step", 1)
    if out is not None:
        _check_out("arange", out, _dtype_arg("arange", dtype), device)
        return _finish(aten.arange.start_out(start, end, step, out=out), requires_grad)
    dev = _device_arg("arange", device)
    if "step" in given:
        t = _below(aten.arange.start_step, start, end, step, **kw, device=dev)
    elif "start" in given:
        t = _below(aten.arange.start, start, end, **kw, device=dev)
    else:
        t = _below(aten.arange.default, end, **kw, device=dev)
    return _finish(t, requires_grad)


def linspace(
    start: Any,
    end: Any,
    steps: Any = None,
    *,
    out: Any = None,
    dtype: Any = None,
    layout: Any = None,
    device: Any = None,
    pin_memory: bool | None = False,
    requires_grad: bool = False,
) -> Tensor:
    """`steps` evenly spaced values from `start` to `end` inclusive."""
    if steps is None or isinstance(steps, bool) or _index_like(steps) is None:
        got = (start, end) if steps is None else (start, end, steps)
        raise _invalid_combination("linspace", got, {})
    n = _index_like(steps)
    a = _number_arg("linspace", "start", start, 1)
    b = _number_arg("linspace", "end", end, 2)
    dt = _dtype_arg("linspace", dtype)
    if dt is None and (isinstance(a, complex) or isinstance(b, complex)):
        dt = complex128 if get_default_dtype() is float64 else complex64
    if out is not None:
        _check_out("linspace", out, dt if dtype is not None else None, device)
        return _finish(aten.linspace.out(a, b, n, out=out), requires_grad)
    dev = _device_arg("linspace", device)
    t = _below(aten.linspace.default, a, b, n, dtype=dt, device=dev)
    return _finish(t, requires_grad)


def eye(
    n: Any,
    m: Any = None,
    *,
    out: Any = None,
    dtype: Any = None,
    layout: Any = None,
    device: Any = None,
    pin_memory: bool | None = False,
    requires_grad: bool = False,
) -> Tensor:
    """An n x m (default n x n) matrix with ones on the diagonal."""
    rows = _int_arg("eye", "n", n, 1)
    cols = None if m is None else _int_arg("eye", "m", m, 2)
    dt = _dtype_arg("eye", dtype)
    if out is not None:
        _check_out("eye", out, dt, device)
        return _finish(aten.eye.m_out(rows, rows if cols is None else cols, out=out), requires_grad)
    dev = _device_arg("eye", device)
    if cols is None:
        t = _below(aten.eye.default, rows, dtype=dt, device=dev)
    else:
        t = _below(aten.eye.m, rows, cols, dtype=dt, device=dev)
    return _finish(t, requires_grad)


def empty_strided(
    size: Any,
    stride: Any,
    *,
    dtype: Any = None,
    layout: Any = None,
    device: Any = None,
    pin_memory: bool | None = False,
    requires_grad: bool = False,
) -> Tensor:
    """An uninitialised tensor with the given size and strides."""
    shape = _int_list_arg("empty_strided", "size", size, 1)
    strides = _int_list_arg("empty_strided", "stride", stride, 2)
    dt = _dtype_arg("empty_strided", dtype)
    dev = _device_arg("empty_strided", device)
    t = _below(aten.empty_strided.default, shape, strides, dtype=dt, device=dev)
    return _finish(t, requires_grad)


def scalar_tensor(
    s: Any,
    *,
    dtype: Any = None,
    layout: Any = None,
    device: Any = None,
    pin_memory: bool | None = False,
    requires_grad: bool = False,
) -> Tensor:
    """A 0-dim tensor holding `s` (the default float dtype unless `dtype=` is given)."""
    value = _number_arg("scalar_tensor", "s", s, 1)
    dt = _dtype_arg("scalar_tensor", dtype)
    dev = _device_arg("scalar_tensor", device)
    t = _below(aten.scalar_tensor.default, value, dtype=dt, device=dev)
    return _finish(t, requires_grad)


def randint(
    *args: Any,
    size: Any = None,
    generator: Any = None,
    out: Any = None,
    dtype: Any = None,
    layout: Any = None,
    device: Any = None,
    pin_memory: bool | None = False,
    requires_grad: bool = False,
    **kwargs: Any,
) -> Tensor:
    """Integers drawn uniformly from [low, high) (int64 unless `dtype=` is given)."""
    low = kwargs.pop("low", None)
    high = kwargs.pop("high", None)
    if kwargs:
        raise TypeError(f"randint() got an unexpected keyword argument '{next(iter(kwargs))}'")
    positional = list(args)
    if size is None and positional:
        size = positional.pop()
    if len(positional) == 2:
        low, high = positional
    elif len(positional) == 1:
        if high is None:
            high = positional[0]
        else:
            low = positional[0]
    elif positional:
        raise _invalid_combination("randint", args, {})
    if (
        high is None
        or size is None
        or any(v is not None and _index_like(v) is None for v in (low, high))
    ):
        raise _invalid_combination(
            "randint", args, {} if generator is None else {"generator": generator}
        )
    position = 3 if low is not None else 2
    shape = _int_list_arg("randint", "size", size, position)
    _check_generator("randint", args, {"generator": generator})
    lo = 0 if low is None else _index_like(low)
    hi = _index_like(high)
    dt = _dtype_arg("randint", dtype)
    if out is not None:
        _check_out("randint", out, dt, device)
        fill = functools.partial(_random_fill, lo=lo, hi=hi, generator=generator)
        return _write_out("randint", out, shape, fill, requires_grad)
    dev = _device_arg("randint", device)
    kw = {"dtype": dt or int64, "device": dev}
    if generator is not None:
        if low is None:
            t = _below(aten.randint.generator, hi, shape, generator=generator, **kw)
        else:
            # No randint.low_generator operator yet: its decomposition, empty + random_.
            t = _below(_randint_low_generator, lo, hi, shape, generator, kw)
    elif low is None:
        t = _below(aten.randint.default, hi, shape, **kw)
    else:
        t = _below(aten.randint.low, lo, hi, shape, **kw)
    return _finish(t, requires_grad)


def _random_fill(o: Tensor, lo: int, hi: int, generator: Any) -> Any:
    return getattr(aten.random_, "from")(o, lo, hi, generator=generator)


def _randint_low_generator(
    lo: int, hi: int, shape: list[int], generator: Any, kw: dict[str, Any]
) -> Tensor:
    if lo >= hi:
        raise RuntimeError(
            f"random_ expects 'from' to be less than 'to', but got from={lo} >= to={hi}"
        )
    t = aten.empty.memory_format(shape, **kw)
    return getattr(aten.random_, "from")(t, lo, hi, generator=generator)


def randperm(
    n: Any,
    *,
    generator: Any = None,
    out: Any = None,
    dtype: Any = None,
    layout: Any = None,
    device: Any = None,
    pin_memory: bool | None = False,
    requires_grad: bool = False,
) -> Tensor:
    """A random permutation of 0 .. n-1 (int64 unless `dtype=` is given)."""
    count = _int_arg("randperm", "n", n, 1)
    _check_generator("randperm", (n,), {"generator": generator})
    dt = _dtype_arg("randperm", dtype)
    if out is not None:
        _check_out("randperm", out, dt, device)
        if generator is not None:
            return _finish(
                aten.randperm.generator_out(count, generator=generator, out=out), requires_grad
            )
        return _finish(aten.randperm.out(count, out=out), requires_grad)
    dev = _device_arg("randperm", device)
    kw = {"dtype": dt or int64, "device": dev}
    if generator is not None:
        t = _below(aten.randperm.generator, count, generator=generator, **kw)
    else:
        t = _below(aten.randperm.default, count, **kw)
    return _finish(t, requires_grad)


# -- legacy constructor and pickling


def legacy_tensor_new(cls: type, *args: Any, **kwargs: Any) -> Tensor:
    """keyroute.Tensor(data) / Tensor(2, 3) (uninitialised float tensor), as torch.Tensor."""
    device = kwargs.pop("device", None)
    if not args:
        t = empty(0, device=device)
    elif len(args) == 1 and _index_like(args[0]) is None and not isinstance(args[0], Size):
        arg = args[0]
        if isinstance(arg, Tensor):
            t = arg
        else:
            t = tensor(arg, dtype=get_default_dtype(), device=device)
    else:
        t = empty(*args, device=device)
    if cls is not Tensor:
        return make_tensor(t._data, t._dtype, t._ks, cls)
    return t


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
    from .tensor._tensor import META_KEYS
    from .tensor.geometry import check_in_bounds

    check_in_bounds(shape, stride, offset, dt.itemsize, storage_nbytes)  # from a file: check
    meta = MetaArray(shape, stride, dt.np, offset, storage_nbytes)
    return _set_state(make_tensor(meta, dt, META_KEYS), requires_grad, state)


for _fn in (
    get_default_device,
    set_default_device,
    set_printoptions,
    get_printoptions,
    printoptions,
    asarray,
):
    function(_fn)
del _fn
