"""Creating tensors from Python data and the factory functions of the public API.

`keyroute.tensor(data)` copies; `from_numpy` shares memory; `zeros(2, 3)`, `randn((2, 3))`,
... accept sizes as varargs or one sequence, plus `dtype=`, `device=`, `requires_grad=`, and
call the aten factory operators (so a dispatch mode sees `aten.zeros.default`, ...).
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

import numpy as np

from ._ops import ops
from .tensor._tensor import CPU_KEYS, Tensor, make_tensor, wrap_cpu
from .tensor.device import Device, default_device
from .tensor.dtype import (
    ALL_DTYPES,
    bool_,
    dtype,
    get_default_dtype,
    int64,
    promote_types,
    to_dtype,
)

__all__ = [
    "tensor",
    "as_tensor",
    "from_numpy",
    "asarray",
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
    "from_dlpack",
]

aten = ops.aten
_SUPPORTED_NP = {d.np for d in ALL_DTYPES}


def _variable_factory(fn: Any) -> Any:
    """Run a public factory below ADInplaceOrView (torch::ones & co. do: their fills do not
    count as in-place updates, so new tensors start at version 0)."""
    import functools

    from .dispatcher.tls import AutoDispatchBelowADInplaceOrView

    @functools.wraps(fn)
    def wrapper(*args: Any, **kwargs: Any) -> Any:
        requires_grad = kwargs.pop("requires_grad", False)
        with AutoDispatchBelowADInplaceOrView():
            out = fn(*args, **kwargs)
        return _finish(out, requires_grad) if requires_grad else out

    return wrapper


def _finish(t: Tensor, requires_grad: bool) -> Tensor:
    if requires_grad:
        t.requires_grad_(True)
    return t


def _size(args: tuple[Any, ...], kwargs: dict[str, Any]) -> list[int]:
    if "size" in kwargs:
        args = (kwargs.pop("size"),)
    if len(args) == 1 and isinstance(args[0], (list, tuple)):
        args = tuple(args[0])
    out = []
    for s in args:
        if isinstance(s, Tensor):
            s = int(s.item())
        if not isinstance(s, (int, np.integer)) or isinstance(s, bool):
            raise TypeError(
                f"expected a sequence of integers or a single integer as the size, got "
                f"{type(s).__name__}"
            )
        out.append(int(s))
    return out


def _infer_dtype(flat: Sequence[Any]) -> dtype:
    result: dtype | None = None
    for v in flat:
        if isinstance(v, Tensor):
            d = v._dtype
        elif isinstance(v, (bool, np.bool_)):
            d = bool_
        elif isinstance(v, (int, np.integer)):
            d = int64 if not isinstance(v, np.integer) else to_dtype(np.asarray(v).dtype)
        elif isinstance(v, complex):
            d = to_dtype(complex)
        elif isinstance(v, (float, np.floating)):
            d = (
                get_default_dtype()
                if not isinstance(v, np.floating)
                else to_dtype(np.asarray(v).dtype)
            )
        else:
            raise TypeError(f"Could not infer dtype of {type(v).__name__}")
        result = d if result is None else promote_types(result, d)
    return result if result is not None else get_default_dtype()


def _flatten(data: Any, out: list[Any]) -> tuple[int, ...]:
    """Flatten nested sequences, returning the shape (PyTorch's error for ragged input)."""
    if isinstance(data, Tensor):
        if data.dim() != 0:
            for item in data.unbind(0):
                _flatten(item, out)
            return tuple(data.shape)
        out.append(data)
        return ()
    if isinstance(data, (list, tuple)):
        if not data:
            return (0,)
        shapes = [_flatten(x, out) for x in data]
        first = shapes[0]
        for s in shapes[1:]:
            if s != first:
                raise ValueError(
                    f"expected sequence of length {first[0] if first else 0} at dim 1 (got "
                    f"{s[0] if s else 0})"
                )
        return (len(data), *first)
    out.append(data)
    return ()


def _array_from_data(data: Any, dt: dtype | None) -> tuple[np.ndarray, dtype]:
    if isinstance(data, Tensor):
        arr = np.asarray(data.detach()._data)
        if dt is None:
            dt = data._dtype
        return np.array(arr, dtype=dt.np, copy=True), dt
    if isinstance(data, np.ndarray):
        if dt is None:
            dt = to_dtype(data.dtype)
        return np.array(data, dtype=dt.np, copy=True), dt
    if isinstance(data, (np.generic,)):
        if dt is None:
            dt = to_dtype(np.asarray(data).dtype)
        return np.array(data, dtype=dt.np), dt
    flat: list[Any] = []
    shape = _flatten(data, flat)
    if dt is None:
        dt = _infer_dtype(flat)
    values = [v.item() if isinstance(v, Tensor) else v for v in flat]
    if dt.is_complex:
        arr = np.array(values, dtype=np.complex128)
    elif dt.category == 2:
        arr = np.array(
            [complex(v).real if isinstance(v, complex) else v for v in values], dtype=np.float64
        )
    else:
        arr = np.array(values)
        if arr.dtype.kind == "f" and dt.category <= 1:
            arr = np.trunc(arr)
    with np.errstate(invalid="ignore", over="ignore"):
        arr = arr.astype(dt.np).reshape(shape)
    return arr, dt


@_variable_factory
def tensor(
    data: Any,
    *,
    dtype: Any = None,
    device: Any = None,
    requires_grad: bool = False,
    pin_memory: bool = False,
) -> Tensor:
    """A new tensor holding a copy of `data` (nested sequences, a NumPy array, a scalar)."""
    dt = None if dtype is None else to_dtype(dtype)
    arr, dt = _array_from_data(data, dt)
    dev = default_device() if device is None else Device(device)
    t = wrap_cpu(arr, dt)
    if dev.type == "meta":
        t = aten._to_copy.default(t, device=dev)
    elif dev.type != "cpu":
        t = aten._to_copy.default(t, device=dev)
    t = aten.lift_fresh.default(t)
    return _finish(t, requires_grad)


def as_tensor(data: Any, dtype: Any = None, device: Any = None) -> Tensor:
    """Share `data` when it already is a tensor / compatible NumPy array, else copy."""
    dt = None if dtype is None else to_dtype(dtype)
    if isinstance(data, Tensor):
        out = data
        if dt is not None or device is not None:
            out = out.to(dtype=dt, device=device)
        return out
    if (
        isinstance(data, np.ndarray)
        and data.dtype in _SUPPORTED_NP
        and (dt is None or dt.np == data.dtype)
    ):
        if device is None or Device(device).type == "cpu":
            return from_numpy(data)
    return tensor(data, dtype=dt, device=device)


asarray = as_tensor


def from_numpy(arr: np.ndarray) -> Tensor:
    """A CPU tensor sharing `arr`'s memory (writes show both ways)."""
    if not isinstance(arr, np.ndarray):
        raise TypeError(f"expected np.ndarray (got {type(arr).__name__})")
    if arr.dtype not in _SUPPORTED_NP:
        raise TypeError(
            f"can't convert np.ndarray of type {arr.dtype}. The only supported types are: "
            f"float64, float32, float16, complex64, complex128, int64, int32, int16, int8, "
            f"uint8, and bool."
        )
    if not arr.dtype.isnative:
        raise ValueError("given numpy array has byte order different from the native byte order.")
    return wrap_cpu(arr)


def from_dlpack(ext: Any) -> Tensor:
    """A CPU tensor sharing memory with any DLPack producer (NumPy arrays, tensors)."""
    if isinstance(ext, Tensor):
        return ext
    return from_numpy(np.from_dlpack(ext))


def _factory(op: Any, args: tuple[Any, ...], kwargs: dict[str, Any]) -> Tensor:
    requires_grad = kwargs.pop("requires_grad", False)
    out = kwargs.pop("out", None)
    size = _size(args, kwargs)
    kwargs.pop("layout", None)
    kwargs.pop("pin_memory", None)
    result = op(size, **kwargs)
    if out is not None:
        from .aten._variants import resize_output

        resize_output(out, result.shape)
        out.copy_(result)
        return out
    return _finish(result, requires_grad)


@_variable_factory
def empty(*size: Any, memory_format: Any = None, **kwargs: Any) -> Tensor:
    if memory_format is not None:
        kwargs["memory_format"] = memory_format
    return _factory(aten.empty.memory_format, size, kwargs)


@_variable_factory
def zeros(*size: Any, **kwargs: Any) -> Tensor:
    return _factory(aten.zeros.default, size, kwargs)


@_variable_factory
def ones(*size: Any, **kwargs: Any) -> Tensor:
    return _factory(aten.ones.default, size, kwargs)


@_variable_factory
def rand(*size: Any, generator: Any = None, **kwargs: Any) -> Tensor:
    if generator is not None:
        kwargs["generator"] = generator
        return _factory(aten.rand.generator, size, kwargs)
    return _factory(aten.rand.default, size, kwargs)


@_variable_factory
def randn(*size: Any, generator: Any = None, **kwargs: Any) -> Tensor:
    if generator is not None:
        kwargs["generator"] = generator
        return _factory(aten.randn.generator, size, kwargs)
    return _factory(aten.randn.default, size, kwargs)


@_variable_factory
def full(size: Sequence[int], fill_value: Any, **kwargs: Any) -> Tensor:
    requires_grad = kwargs.pop("requires_grad", False)
    kwargs.pop("layout", None)
    kwargs.pop("pin_memory", None)
    out = kwargs.pop("out", None)
    result = aten.full.default(_size((size,), {}), fill_value, **kwargs)
    if out is not None:
        out.resize_(result.shape).copy_(result)
        return out
    return _finish(result, requires_grad)


@_variable_factory
def randint(*args: Any, size: Any = None, generator: Any = None, **kwargs: Any) -> Tensor:
    requires_grad = kwargs.pop("requires_grad", False)
    kwargs.pop("layout", None)
    if size is None:
        *bounds, size = args
    else:
        bounds = list(args)
    low, high = (0, bounds[0]) if len(bounds) == 1 else (bounds[0], bounds[1])
    size = _size((size,), {})
    if generator is not None:
        if low != 0:
            dt = kwargs.get("dtype") or int64
            t = aten.empty.memory_format(size, dtype=dt, device=kwargs.get("device"))
            random_from = getattr(aten.random_, "from")
            return _finish(random_from(t, low, high, generator=generator), requires_grad)
        t = aten.randint.generator(high, size, generator=generator, **kwargs)
        return _finish(t, requires_grad)
    return _finish(aten.randint.low(low, high, size, **kwargs), requires_grad)


@_variable_factory
def randperm(n: int, *, generator: Any = None, **kwargs: Any) -> Tensor:
    requires_grad = kwargs.pop("requires_grad", False)
    kwargs.pop("layout", None)
    kwargs.pop("pin_memory", None)
    if generator is not None:
        return _finish(aten.randperm.generator(n, generator=generator, **kwargs), requires_grad)
    return _finish(aten.randperm.default(n, **kwargs), requires_grad)


@_variable_factory
def arange(start: Any = 0, end: Any = None, step: Any = 1, **kwargs: Any) -> Tensor:
    requires_grad = kwargs.pop("requires_grad", False)
    kwargs.pop("layout", None)
    kwargs.pop("pin_memory", None)
    out = kwargs.pop("out", None)
    if end is None:
        start, end = 0, start
    start, end, step = (v.item() if isinstance(v, Tensor) else v for v in (start, end, step))
    if out is not None:
        return aten.arange.start_out(start, end, step, out=out)
    return _finish(aten.arange.start_step(start, end, step, **kwargs), requires_grad)


@_variable_factory
def linspace(start: Any, end: Any, steps: int, **kwargs: Any) -> Tensor:
    requires_grad = kwargs.pop("requires_grad", False)
    kwargs.pop("layout", None)
    start, end = (v.item() if isinstance(v, Tensor) else v for v in (start, end))
    return _finish(aten.linspace.default(start, end, steps, **kwargs), requires_grad)


@_variable_factory
def eye(n: int, m: int | None = None, **kwargs: Any) -> Tensor:
    requires_grad = kwargs.pop("requires_grad", False)
    kwargs.pop("layout", None)
    if m is None:
        return _finish(aten.eye.default(n, **kwargs), requires_grad)
    return _finish(aten.eye.m(n, m, **kwargs), requires_grad)


def _like(op: Any, self: Tensor, *args: Any, **kwargs: Any) -> Tensor:
    requires_grad = kwargs.pop("requires_grad", False)
    kwargs.pop("layout", None)
    kwargs.pop("pin_memory", None)
    return _finish(op(self, *args, **kwargs), requires_grad)


@_variable_factory
def empty_like(self: Tensor, **kwargs: Any) -> Tensor:
    return _like(aten.empty_like.default, self, **kwargs)


@_variable_factory
def zeros_like(self: Tensor, **kwargs: Any) -> Tensor:
    return _like(aten.zeros_like.default, self, **kwargs)


@_variable_factory
def ones_like(self: Tensor, **kwargs: Any) -> Tensor:
    return _like(aten.ones_like.default, self, **kwargs)


@_variable_factory
def full_like(self: Tensor, fill_value: Any, **kwargs: Any) -> Tensor:
    return _like(aten.full_like.default, self, fill_value, **kwargs)


@_variable_factory
def rand_like(self: Tensor, **kwargs: Any) -> Tensor:
    return _like(aten.rand_like.default, self, **kwargs)


@_variable_factory
def randn_like(self: Tensor, **kwargs: Any) -> Tensor:
    return _like(aten.randn_like.default, self, **kwargs)


@_variable_factory
def empty_strided(size: Sequence[int], stride: Sequence[int], **kwargs: Any) -> Tensor:
    requires_grad = kwargs.pop("requires_grad", False)
    kwargs.pop("layout", None)
    kwargs.pop("pin_memory", None)
    return _finish(aten.empty_strided.default(list(size), list(stride), **kwargs), requires_grad)


@_variable_factory
def scalar_tensor(s: Any, **kwargs: Any) -> Tensor:
    requires_grad = kwargs.pop("requires_grad", False)
    kwargs.pop("layout", None)
    return _finish(aten.scalar_tensor.default(s, **kwargs), requires_grad)


# -- legacy constructor and pickling


def legacy_tensor_new(cls: type, *args: Any, **kwargs: Any) -> Tensor:
    """keyroute.Tensor(data) / Tensor(2, 3) (uninitialised float tensor), as torch.Tensor."""
    device = kwargs.pop("device", None)
    if not args:
        t = empty(0, device=device)
    elif len(args) == 1 and not isinstance(args[0], (int, np.integer)):
        arg = args[0]
        if isinstance(arg, Tensor):
            t = arg
        else:
            t = tensor(arg, dtype=get_default_dtype(), device=device)
    else:
        t = empty(*args, device=device)
    if cls is not Tensor:
        out = make_tensor(t._data, t._dtype, t._ks, cls)
        return out
    return t


def rebuild_tensor(arr: np.ndarray, requires_grad: bool) -> Tensor:
    t = wrap_cpu(arr)
    return _finish(t, requires_grad)


del CPU_KEYS
