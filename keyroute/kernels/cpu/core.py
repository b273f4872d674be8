"""CPU kernels of the core operators: allocation, copies, conversions, views, random fills."""

from __future__ import annotations

import math
import warnings
from typing import Any

import numpy as np

from ...aten import _shape
from ...aten._meta_util import new_meta
from ...aten.core import as_size, expand_geometry, factory_dtype
from ...dispatcher.keyset import REQUIRES_GRAD_BIT
from ...tensor._tensor import Tensor, _root_array, make_tensor
from ...tensor.device import Device
from ...tensor.dtype import to_dtype
from ...tensor.geometry import allocation_error, check_in_bounds, contiguous_nbytes
from ...tensor.layout import preserve_format, to_memory_format
from ...tensor.memory_overlap import (
    assert_no_partial_overlap,
    infer_dense_strides,
    is_non_overlapping_and_dense,
)
from . import fma as _fma
from ._kernel import check_no_internal_overlap, kernel, wrap

_as_strided = np.lib.stride_tricks.as_strided


def view_of(self: Tensor, a: np.ndarray) -> Tensor:
    """A tensor sharing self's storage with NumPy view `a` (view metadata is ADInplaceOrView's)."""
    return make_tensor(a, self._dtype, self._key_set, Tensor)


def strided_view(
    base_arr: np.ndarray, shape: tuple[int, ...], stride: tuple[int, ...], offset: int
) -> np.ndarray:
    """A NumPy view of base_arr's storage with element strides and a storage offset."""
    root = _root_array(base_arr)
    item = base_arr.itemsize
    flat = (
        root.reshape(-1).view(base_arr.dtype) if root.dtype != base_arr.dtype else root.reshape(-1)
    )
    check_in_bounds(shape, stride, offset, item, flat.nbytes)  # NumPy would trust it
    start = flat[offset:] if offset else flat
    return _as_strided(
        start, shape, tuple(s * item for s in stride), writeable=base_arr.flags.writeable
    )


# ----------------------------------------------------------------------------- allocation


@kernel("empty.memory_format")
def empty(size, *, dtype=None, layout=None, device=None, pin_memory=None, memory_format=None):
    dt = factory_dtype(dtype)
    shape = as_size(size)
    for s in shape:
        if s < 0:
            raise RuntimeError(
                f"Trying to create tensor with negative dimension {s}: {list(shape)}"
            )
    nbytes = contiguous_nbytes(shape, dt.itemsize)
    mf = to_memory_format(memory_format)
    try:
        if mf is not None and mf.name == "channels_last":
            if len(shape) != 4:
                raise RuntimeError("required rank 4 tensor to use channels_last format")
            n, c, h, w = shape
            return wrap(np.empty((n, h, w, c), dt.np).transpose(0, 3, 1, 2), dt)
        if 0 in shape:
            # NumPy gives zero-size arrays zero strides; PyTorch's are the contiguous ones.
            strides = tuple(st * dt.itemsize for st in _shape.contiguous_strides(shape))
            return wrap(_as_strided(np.empty(0, dt.np), shape, strides), dt)
        return wrap(np.empty(shape, dt.np), dt)
    except (MemoryError, ValueError) as exc:  # NumPy's "array is too big" is a ValueError
        if isinstance(exc, ValueError) and "too big" not in str(exc):
            raise
        raise allocation_error(nbytes) from None


@kernel("empty_strided")
def empty_strided(size, stride, *, dtype=None, layout=None, device=None, pin_memory=None):
    dt = factory_dtype(dtype)
    shape, strides = as_size(size), as_size(stride)
    if len(shape) != len(strides):
        raise RuntimeError(
            f"dimensionality of sizes ({len(shape)}) must match dimensionality of strides "
            f"({len(strides)})"
        )
    m = new_meta(shape, dt, strides)  # validates
    if any(st < 0 for st in strides) and all(shape):
        raise RuntimeError(
            f"Storage size calculation overflowed with sizes={list(shape)} and "
            f"strides={list(strides)}"
        )
    n = m._data.storage_nbytes // dt.itemsize
    return wrap(strided_view(np.empty(n, dt.np), shape, strides, 0), dt)


@kernel("resize_")
def resize_(self, size, *, memory_format=None):
    shape = as_size(size)
    for s in shape:
        if s < 0:
            raise RuntimeError(
                f"Trying to create tensor with negative dimension {s}: {list(shape)}"
            )
    a = self._data
    if a.shape == shape:
        return self
    n = _shape.numel(shape)
    root = _root_array(a)
    offset = self.storage_offset()
    if root.size >= offset + n:
        flat = root.reshape(-1)
        self._data = flat[offset : offset + n].reshape(shape)
    else:
        new = np.empty(offset + n, a.dtype)
        old = root.reshape(-1)
        new[: old.size] = old
        self._data = new[offset:].reshape(shape)
    return self


# ----------------------------------------------------------------------------- copies


@kernel("copy_")
def copy_(self, src, non_blocking=False):
    dst = self._data
    check_no_internal_overlap(dst)
    if isinstance(src, Tensor):
        s = src._data
        if not isinstance(s, np.ndarray):
            raise NotImplementedError("Cannot copy out of meta tensor; no data!")
        if s is dst or (
            s.dtype == dst.dtype
            and s.shape == dst.shape
            and s.strides == dst.strides
            and s.__array_interface__["data"][0] == dst.__array_interface__["data"][0]
        ):
            return self  # the same view of the same memory: PyTorch's copy_ returns early
        assert_no_partial_overlap(self, src)
        if s.dtype.kind == "c" and dst.dtype.kind != "c":
            warnings.warn(
                "Casting complex values to real discards the imaginary part", UserWarning, 2
            )
            s = s.real
    else:
        s = src
    if dst.shape != np.shape(s):
        target = _shape.broadcast_shapes(dst.shape, np.shape(s))
        if target != dst.shape:
            raise RuntimeError(
                f"output with shape {list(dst.shape)} doesn't match the broadcast shape "
                f"{list(target)}"
            )
    with np.errstate(invalid="ignore", over="ignore"):
        np.copyto(dst, s, casting="unsafe")
    return self


def _layout_copy(a: np.ndarray, memory_format: Any, dt_np: Any) -> np.ndarray:
    mf = to_memory_format(memory_format)
    with np.errstate(invalid="ignore", over="ignore"):
        if mf is not None and mf.name == "contiguous_format":
            return np.array(a, dtype=dt_np, order="C", copy=True)
        if mf is not None and mf.name.startswith("channels_last"):
            rank = 4 if mf.name == "channels_last" else 5
            if a.ndim != rank:
                raise RuntimeError(f"required rank {rank} tensor to use {mf.name} format")
        if mf is not None and mf.name.startswith("channels_last"):  # channels innermost
            out = np.empty((a.shape[0], *a.shape[2:], a.shape[1]), dt_np)
            out = out.transpose(0, a.ndim - 1, *range(1, a.ndim - 1))
            np.copyto(out, a, casting="unsafe")
            return out
        return _preserve_copy(a, dt_np)


def _preserve_copy(a: np.ndarray, dt_np: Any) -> np.ndarray:
    """A copy in preserve_format, as PyTorch's empty_like lays it out: a non-overlapping and
    dense layout keeps its strides (NumPy's K order does that), any other (an expanded or a
    sliced tensor) gets dense strides in the order of the input's (infer_dense_strides)."""
    shape = a.shape
    strides = tuple(st // a.itemsize for st in a.strides)
    if is_non_overlapping_and_dense(shape, strides) and all(st >= 0 for st in strides):
        return a.astype(dt_np, order="K", copy=True)
    out_strides = infer_dense_strides(shape, strides)
    size = 1 + sum((n - 1) * st for n, st in zip(shape, out_strides)) if a.size else 0
    buf = np.empty(max(size, 0), dt_np)
    itemsize = buf.itemsize
    out = np.lib.stride_tricks.as_strided(
        buf, shape, tuple(st * itemsize for st in out_strides), writeable=True
    )
    np.copyto(out, a, casting="unsafe")
    return out


@kernel("_to_copy")
def _to_copy(
    self,
    *,
    dtype=None,
    layout=None,
    device=None,
    pin_memory=None,
    non_blocking=False,
    memory_format=None,
):
    dt = self._dtype if dtype is None else to_dtype(dtype)
    if device is not None and Device(device).type != "cpu":
        from ...aten.core import _clone_meta

        if Device(device).type == "meta":
            return _clone_meta(self, memory_format, dt)
        from ...tensor.host import COPY_FROM_CPU

        to_device = COPY_FROM_CPU.get(Device(device).type)
        if to_device is not None:  # the destination backend's copy (tensor/host.py)
            return to_device(self, dt, Device(device))
        from ...tensor.device import DEVICE_TYPES

        index = DEVICE_TYPES.get(Device(device).type, 0)
        if index > 16 or index == 13:  # a run-time backend (open_keys.py), PrivateUse1
            from ...dispatcher.backend_defaults import to_device as via_copy

            return via_copy(self, dt, Device(device), memory_format)
        raise RuntimeError(f"keyroute has no backend for device '{Device(device)}' yet")
    a = self._data
    if a.dtype.kind == "c" and dt.np.kind != "c":
        warnings.warn("Casting complex values to real discards the imaginary part", UserWarning, 2)
        a = a.real
    return wrap(_layout_copy(a, memory_format, dt.np), dt)


@kernel("clone")
def clone(self, *, memory_format=None):
    a = self._data
    if memory_format is None and a.size:
        # preserve_format, same dtype (no casting, so no floating-point state to guard)
        return wrap(_preserve_copy(a, a.dtype), self._dtype)
    return wrap(_layout_copy(a, memory_format, a.dtype), self._dtype)


def _fill_value(a: np.ndarray, value: Any) -> Any:
    if isinstance(value, Tensor):
        value = value.item()
    if a.dtype.kind in "iub" and isinstance(value, (int, float)) and not isinstance(value, bool):
        if a.dtype.kind == "b":
            return bool(value)
        if isinstance(value, float):
            if value != value or value in (float("inf"), float("-inf")):
                return np.array(value).astype(a.dtype)
            value = int(value)
        info = np.iinfo(a.dtype)
        if not info.min <= value <= info.max:
            return np.array(value, dtype=np.int64).astype(a.dtype)  # wraps, as C++ casts do
    if a.dtype.kind != "c" and isinstance(value, complex):
        warnings.warn("Casting complex values to real discards the imaginary part", UserWarning, 3)
        value = value.real
    return value


# C++ names PyTorch's checked Scalar conversions print ("value cannot be converted to type
# uint8_t without overflow").
_SCALAR_T = {
    "uint8": "uint8_t",
    "int8": "int8_t",
    "int16": "int16_t",
    "int32": "int",
    "int64": "int64_t",
    "float16": "c10::Half",
    "bfloat16": "c10::BFloat16",
    "float32": "float",
    "float64": "double",
    "complex64": "c10::complex<float>",
    "complex128": "c10::complex<double>",
}


def _checked_fill_value(a: np.ndarray, value: Any) -> Any:
    """A fill value converted as Scalar::to<T>() converts it: no silent overflow (c10's
    checked_convert; negative ints may still wrap into unsigned types), no dropped imaginary
    part."""
    vc = value.__class__
    if (vc is float or vc is int) and a.dtype in _FLOAT32_64:
        # The common case (ones_like, zeros_like, fill_(0.5) on float32/float64), checked
        # without NumPy's slow dtype introspection.
        if vc is int and not -(1 << 63) <= value < 1 << 64:
            return _checked_fill_value_general(a, value)
        v = float(value)
        if a.dtype.itemsize == 4 and abs(v) > _FLT_MAX and v != math.inf and v != -math.inf:
            raise RuntimeError("value cannot be converted to type float without overflow")
        return v
    return _checked_fill_value_general(a, value)


_FLOAT32_64 = (np.dtype(np.float32), np.dtype(np.float64))
_FLT_MAX = float(np.finfo(np.float32).max)


def _checked_fill_value_general(a: np.ndarray, value: Any) -> Any:
    if isinstance(value, Tensor):
        value = value.item()
    if isinstance(value, int) and not isinstance(value, bool):
        # Python's argument parser makes an int64 (or uint64) Scalar first.
        if value >= 1 << 64:
            raise OverflowError("int too big to convert")
        if value < -(1 << 63):
            raise OverflowError("can't convert negative int to unsigned")
    kind = a.dtype.kind
    if kind == "b":
        return bool(value)
    if kind == "c":
        v = complex(value)
        limit = float(np.finfo(a.dtype).max)
        if (math.isfinite(v.real) and abs(v.real) > limit) or (
            math.isfinite(v.imag) and abs(v.imag) > limit
        ):
            raise RuntimeError(
                f"value cannot be converted to type {_SCALAR_T[a.dtype.name]} without overflow"
            )
        return v
    if a.size == 1 and (a.dtype.itemsize == 2 and kind == "f" or a.dtype.name == "bfloat16"):
        # PyTorch fills a one-element Half/BFloat16 tensor through double with no range check
        # (1e6 becomes inf); larger ones take the checked conversion below.
        if isinstance(value, complex):
            if value.imag != 0:
                raise RuntimeError("value cannot be converted to type double without overflow")
            value = value.real
        with np.errstate(over="ignore"):
            return a.dtype.type(float(value))
    name = _SCALAR_T[a.dtype.name]

    def overflow() -> RuntimeError:
        return RuntimeError(f"value cannot be converted to type {name} without overflow")

    if isinstance(value, complex):
        if value.imag != 0:
            raise overflow()
        value = value.real
    if kind in "iu":
        info = np.iinfo(a.dtype)
        lo, hi = int(info.min), int(info.max)
        if isinstance(value, float):
            if not math.isfinite(value) or value < lo or value > hi:
                raise overflow()
            return int(value)
        value = int(value)
        ok = lo <= value <= hi if lo else value <= hi and (value >= 0 or -value <= hi)
        if not ok:
            raise overflow()
        return value + hi + 1 if value < 0 and not lo else value
    try:
        v = float(value)
    except OverflowError:
        raise overflow() from None
    if math.isfinite(v) and abs(v) > float(ml_finfo(a.dtype).max):
        raise overflow()
    return v


@kernel("fill_.Scalar")
def fill__Scalar(self, value):
    a = self._data
    a[...] = _checked_fill_value(a, value)
    return self


@kernel("fill_.Tensor")
def fill__Tensor(self, value):
    check_no_internal_overlap(self._data)  # fill_.Tensor checks; fill_.Scalar does not
    if value.dim() != 0:
        raise RuntimeError(
            f"fill_ only supports 0-dimension value tensor but got tensor with {value.dim()} "
            f"dimensions."
        )
    a = self._data
    a[...] = _checked_fill_value(a, value)
    return self


@kernel("zero_")
def zero_(self):
    self._data[...] = 0
    return self


@kernel("_local_scalar_dense")
def _local_scalar_dense(self):
    a = self._data
    if a.size != 1:
        raise RuntimeError(f"a Tensor with {a.size} elements cannot be converted to Scalar")
    v = a.reshape(-1)[0]
    kind = a.dtype.kind
    if kind == "b":
        return bool(v)
    if kind in "iu":
        return int(v)
    if kind == "c":
        return complex(v)
    return float(v)


# ----------------------------------------------------------------------------- views


@kernel("alias", "lift_fresh")
def alias(self):
    return view_of(self, self._data.view())


@kernel("detach")
def detach(self):
    # Not a differentiable view: the result never requires grad (it shares the data).
    out = view_of(self, self._data.view())
    out._key_set &= ~REQUIRES_GRAD_BIT
    return out


def _exact_c_strides(a: np.ndarray) -> bool:
    """Whether a's strides are exactly the C-contiguous ones (size-1 dimensions included)."""
    want = a.itemsize
    for n, st in zip(reversed(a.shape), reversed(a.strides)):
        if st != want:
            return False
        want *= n
    return True


@kernel("view")
def view(self, size):
    a = self._data
    shape = _shape.infer_size(as_size(size), a.size)
    if a.size > 1 and a.flags.c_contiguous and (1 not in a.shape or _exact_c_strides(a)):
        # An input with exactly contiguous strides views as contiguous strides of any shape
        # (computeStride finds one chunk), which is what NumPy's reshape gives it, size-1
        # dimensions included. Size-1 input dimensions are checked: NumPy's contiguity flag
        # ignores their strides, PyTorch's view carries them through.
        return view_of(self, a.reshape(shape))
    stride = _shape.compute_view_stride(a.shape, self.stride(), shape)
    if stride is None:
        raise RuntimeError(
            "view size is not compatible with input tensor's size and stride (at least one "
            "dimension spans across two contiguous subspaces). Use .reshape(...) instead."
        )
    item = a.itemsize
    v = a.reshape(shape)
    if v.strides != tuple(s * item for s in stride):
        v = _as_strided(a, shape, tuple(s * item for s in stride), writeable=a.flags.writeable)
    return view_of(self, v)


@kernel("view.dtype")
def view_dtype(self, dtype):
    dt = to_dtype(dtype)
    if dt.itemsize != self._dtype.itemsize:
        raise RuntimeError("keyroute supports view(dtype) only between dtypes of the same size")
    out = make_tensor(self._data.view(dt.np), dt, self._key_set, Tensor)
    return out


@kernel("_unsafe_view")
def _unsafe_view(self, size):
    a = self._data
    shape = _shape.infer_size(as_size(size), a.size)
    return wrap(a.reshape(shape), self._dtype)


@kernel("as_strided")
def as_strided(self, size, stride, storage_offset=None):
    shape, strides = as_size(size), as_size(stride)
    if len(shape) != len(strides):
        raise RuntimeError("mismatch in length of strides and shape")
    offset = self.storage_offset() if storage_offset is None else int(storage_offset)
    return view_of(self, strided_view(self._data, shape, strides, offset))


@kernel("_reshape_alias")
def _reshape_alias(self, size, stride):
    shape, strides = as_size(size), as_size(stride)
    if len(shape) != len(strides):
        raise RuntimeError(
            f"dimensionality of sizes ({len(shape)}) must match dimensionality of strides "
            f"({len(strides)})"
        )
    # from self's first element, as view's kernel: self's storage offset is kept, and a NumPy
    # view need not lie inside the array keyroute takes for its storage
    a = self._data
    item = a.itemsize
    v = _as_strided(a, shape, tuple(s * item for s in strides), writeable=a.flags.writeable)
    return view_of(self, v)


@kernel("expand")
def expand(self, size, *, implicit=False):
    a = self._data
    sizes = as_size(size)
    if len(sizes) < a.ndim:
        raise RuntimeError(
            f"expand({self.type()}{{{list(a.shape)}}}, size={list(sizes)}): the "
            f"number of sizes provided ({len(sizes)}) must be greater or equal to the number of "
            f"dimensions in the tensor ({a.ndim})"
        )
    # the strides from the array itself: a kernel never reaches __torch_function__ (PyTorch's
    # don't), and Tensor.stride() would for a subclass or under a mode
    strides = tuple(s // a.dtype.itemsize for s in a.strides)
    shape, stride = expand_geometry(a.shape, strides, sizes)
    if shape == a.shape:
        return view_of(self, a.view())
    item = a.itemsize
    # Writeable, as PyTorch's expanded tensors are: fill_, zero_, masked_fill_ and index_put_
    # may write them; operations that may not check for internal overlap first.
    return view_of(self, _as_strided(a, shape, tuple(s * item for s in stride), writeable=True))


# ----------------------------------------------------------------------------- ranges & random


@kernel("arange.start_out")
def arange_start_out(start, end, step=1, *, out):
    from ...aten.core import _arange_len

    if out._dtype.category in (0, 3):
        raise NotImplementedError(f"\"arange_cpu\" not implemented for '{out._dtype._short}'")
    n = _arange_len(start, end, step, out._dtype)
    if out._data.shape != (n,):
        resize_(out, [n])
    if out._dtype.category == 1:
        # Integral outputs: start and step convert to int64 first (PyTorch's accumulate type),
        # while the count above comes from the double values.
        values = int(start) + np.arange(n, dtype=np.int64) * int(step)
    else:
        values = float(start) + np.arange(n, dtype=np.float64) * float(step)
    out._data[...] = values.astype(out._data.dtype)
    return out


@kernel("linspace.out")
def linspace_out(start, end, steps, *, out):
    if out._dtype.category == 0:
        raise NotImplementedError(f"\"linspace_cpu\" not implemented for '{out._dtype._short}'")
    if out._data.shape != (steps,):
        resize_(out, [steps])
    a = out._data
    if steps == 1:
        a[...] = start
        return out
    if a.dtype == np.float32 or a.dtype == np.float64:
        # PyTorch's scalar loop in the dtype, compiled with FMA contraction: start + step * i
        # before the halfway point, end - step * (steps - 1 - i) after it, each rounded once
        ct = a.dtype.type
        s, e = ct(start), ct(end)
        step = (e - s) / ct(steps - 1)
        i = np.arange(steps)
        low = i < steps // 2
        k = np.where(low, i, steps - 1 - i).astype(ct)
        a[...] = _fma.fma(np.where(low, step, -step), k, np.where(low, s, e), ct)
        return out
    num = complex if a.dtype.kind == "c" else float
    start, end = num(start), num(end)
    step = (end - start) / (steps - 1)
    i = np.arange(steps, dtype=np.float64)
    half = steps // 2
    values = np.where(i < half, start + i * step, end - (steps - 1 - i) * step)
    if a.dtype.kind in "iu":
        values = np.trunc(values)
    a[...] = values.astype(a.dtype)
    return out


@kernel("eye.m_out")
def eye_m_out(n, m, *, out):
    if out._data.shape != (n, m):
        resize_(out, [n, m])
    a = out._data
    a[...] = 0
    k = min(n, m)
    a[np.arange(k), np.arange(k)] = 1
    return out


# The C++ type names PyTorch's random_ bound checks print.
_CTYPE = {
    "uint8": "unsigned char",
    "int8": "signed char",
    "int16": "short",
    "int32": "int",
    "int64": "long",
    "float16": "c10::Half",
    "bfloat16": "c10::BFloat16",
    "float32": "float",
    "float64": "double",
    "bool": "bool",
}


def _check_random_bounds(dt: Any, lo: int, hi: int) -> None:
    """random_(from, to): both ends must be values of the dtype (check_from_to_in_range)."""
    if dt.category == 1:
        info = np.iinfo(dt.np)
        bounds = (int(info.min), int(info.max))
    elif dt.category == 0:
        bounds = (0, 1)
    elif dt.category == 2:
        info = ml_finfo(dt.np)
        bounds = (float(info.min), float(info.max))
    else:
        return
    if not bounds[0] <= lo <= bounds[1]:
        raise RuntimeError(f"from is out of bounds for {_CTYPE[dt.name]}")
    if not bounds[0] <= hi <= bounds[1]:
        raise RuntimeError(f"to - 1 is out of bounds for {_CTYPE[dt.name]}")


def ml_finfo(np_dtype: Any) -> Any:
    import ml_dtypes

    return ml_dtypes.finfo(np_dtype) if np_dtype.name == "bfloat16" else np.finfo(np_dtype)


# randperm: the largest n each floating dtype counts exactly (2**digits + 1), the int names.
_RANDPERM_FLOAT_MAX = {
    "float16": (2049, "Half"),
    "bfloat16": (257, "BFloat16"),
    "float32": (2**24 + 1, "Float"),
    "float64": (2**53 + 1, "Double"),
}
_INT_T = {
    "uint8": "uint8_t",
    "int8": "int8_t",
    "int16": "int16_t",
    "int32": "int",
    "int64": "int64_t",
}


def _check_randperm(n: int, dt: Any) -> None:
    if dt.category == 0:
        raise NotImplementedError(f"\"randperm\" not implemented for '{dt._short}'")
    if dt.name in _RANDPERM_FLOAT_MAX:
        limit, name = _RANDPERM_FLOAT_MAX[dt.name]
        if n > limit:
            raise RuntimeError(f"n cannot be greater than {limit} for {name} type.")
    elif dt.category == 1 and n > np.iinfo(dt.np).max:
        raise RuntimeError(f"value cannot be converted to type {_INT_T[dt.name]} without overflow")


# ----------------------------------------------------------------------------- *_like
# empty_like/zeros_like/ones_like/full_like of a contiguous CPU tensor, straight to NumPy (the
# CompositeExplicitAutograd decomposition empty_like -> empty -> fill_ costs three dispatches;
# every backward pass starts with a ones_like). Anything else takes that decomposition.

from ...aten import core as _aten_core  # noqa: E402


def _like_kernel(name: str) -> None:
    composite = getattr(_aten_core, name)
    takes_value = name == "full_like"

    def like(
        self: Tensor,
        *args: Any,
        dtype: Any = None,
        layout: Any = None,
        device: Any = None,
        pin_memory: Any = None,
        memory_format: Any = None,
    ) -> Tensor:
        a = self._data
        if (
            (
                memory_format is None
                # preserve_format keeps a dense input's strides: the C ones here, unless a
                # size-1 dimension carries an odd stride (NumPy's contiguity ignores those)
                or (to_memory_format(memory_format) is preserve_format and 1 not in a.shape)
            )
            and (device is None or Device(device).type == "cpu")
            and a.size
            and a.flags.c_contiguous
        ):
            dt = self._dtype if dtype is None else to_dtype(dtype)
            if name == "empty_like":
                return wrap(np.empty(a.shape, dt.np), dt)
            if name == "zeros_like":
                return wrap(np.zeros(a.shape, dt.np), dt)
            out = np.empty(a.shape, dt.np)
            out[...] = _checked_fill_value(out, args[0] if takes_value else 1)
            return wrap(out, dt)
        return composite(
            self,
            *args,
            dtype=dtype,
            layout=layout,
            device=device,
            pin_memory=pin_memory,
            memory_format=memory_format,
        )

    like.__name__ = name
    kernel(name)(like)


for _name in ("empty_like", "zeros_like", "ones_like", "full_like"):
    _like_kernel(_name)

from ...dispatcher.backend_defaults import register_composites  # noqa: E402

register_composites()  # _to_copy on the other backends (PyTorch's CompositeExplicitAutograd)
