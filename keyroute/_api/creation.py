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

import functools
import math
import threading
import warnings
from collections.abc import Callable
from typing import Any

import numpy as np

from .._ops import ops
from ..profiler import _state as _prof
from ..tensor import _tensor as _tensor_mod
from ..tensor import device as _device_mod
from ..tensor._tensor import (
    Size,
    Tensor,
    make_tensor,
    wrap_cpu,
)
from ..tensor.device import Device, default_device
from ..tensor.dtype import (
    bfloat16,
    bool_,
    complex64,
    complex128,
    dtype,
    float64,
    get_default_dtype,
    int64,
)
from ..tensor.new import (
    _array_check,
    _collect,
    _compute_sizes,
    _copy_array,
    _empty_array,
    _infer_dtype,
    _own_storage,
    _store,
    _tp_name,
    _warn_once,
)
from ..tensor.repr import get_printoptions, printoptions, set_printoptions
from . import function
from ._args import (
    _below,
    _check_out,
    _device_arg,
    _dtype_arg,
    _finish,
    _index_like,
    _int64_overflow,
    _int_arg,
    _int_list_arg,
    _invalid_combination,
    _number_arg,
    _size_arg,
    _tensor_arg,
    _write_out,
)

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


def _meta_tensor(shape: Any, dt: dtype, stride: Any = None) -> Tensor:
    from ..aten._meta_util import new_meta

    return new_meta(tuple(shape), dt, stride)


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
        if _prof.collector is not None:
            return _prof.new_from_data(lambda: aten.lift_fresh.default(wrap_cpu(arr, dt)))
        return aten.lift_fresh.default(wrap_cpu(arr, dt))
    if hasattr(data, "__cuda_array_interface__"):  # CuPy, Numba, JAX device arrays
        from ..cuda.interop import from_cuda_array_interface

        return from_cuda_array_interface(data, dt, dev, copy_numpy)
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
    if _prof.collector is not None:  # profiled: the events of PyTorch's calls around it
        return _prof.new_from_data(lambda: aten.lift_fresh.default(wrap_cpu(arr, dt)))
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
    elif hasattr(obj, "__cuda_array_interface__"):  # a view of the producer's memory
        t = _tensor_from_data(obj, None, None, False)
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
    device_of = getattr(ext_tensor, "__dlpack_device__", None)
    if device_of is not None and int(device_of()[0]) == 2:  # kDLCUDA: onto the CUDA device
        from ..cuda.interop import from_cuda_dlpack

        return from_cuda_dlpack(ext_tensor)
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
        from ..kernels.errors import data_access_error

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
    from ..random import Generator

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
rand.__doc__ = "Uniform samples from [0, 1) (PyTorch's numbers for the same seed)."
randn = _size_factory("randn", aten.randn.default, _randn_fill)
randn.__doc__ = "Standard normal samples (PyTorch's numbers for the same seed)."


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
        **kwargs: Any,
    ) -> Tensor:
        # rand_like/randn_like take generator= (their .generator overloads)
        generator = kwargs.pop("generator", None) if fn in ("rand_like", "randn_like") else None
        if kwargs:
            raise TypeError(f"{fn}() got an unexpected keyword argument '{next(iter(kwargs))}'")
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
        if generator is not None:
            _check_generator(fn, (input,), {"generator": generator})
            out = _below(getattr(aten, fn).generator, t, generator=generator, **kw)
        else:
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
        elif v.__class__ is int and not -(2**63) <= v < 2**63:
            raise _int64_overflow(v)
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
            t = _below(aten.randint.low_generator, lo, hi, shape, generator=generator, **kw)
    elif low is None:
        t = _below(aten.randint.default, hi, shape, **kw)
    else:
        t = _below(aten.randint.low, lo, hi, shape, **kw)
    return _finish(t, requires_grad)


def _random_fill(o: Tensor, lo: int, hi: int, generator: Any) -> Any:
    return getattr(aten.random_, "from")(o, lo, hi, generator=generator)


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
        return make_tensor(t._data, t._dtype, t._key_set, cls)
    return t


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

_tensor_mod.LEGACY_NEW[0] = legacy_tensor_new
