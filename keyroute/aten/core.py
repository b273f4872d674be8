"""Core operators: allocation, copies and conversions, scalars, and the factories built on them.

Factories with no tensor argument reach BackendSelect, whose kernel picks the backend from the
`device=` argument (or the default-device context) and redispatches to it, as in PyTorch.
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from typing import Any

from ..dispatcher.keys import DispatchKey, to_runtime_key
from ..dispatcher.keyset import PRIVATE_BITS, REQUIRES_GRAD_BIT, DispatchKeySet, key_bits
from ..tensor.device import DEVICE_TYPES, Device, default_device
from ..tensor.dtype import bool_, dtype, get_default_dtype, int64, to_dtype
from ..tensor.geometry import contiguous_nbytes
from ..tensor.layout import to_memory_format
from . import _shape
from ._define import aten, aten_lib, composite, composite_explicit, defop, meta
from ._meta_util import check, meta_like, meta_view, new_meta, shape_of, type_string
from ._variants import out_variant

DK = DispatchKey


# ----------------------------------------------------------------------------- helpers


def factory_dtype(dt: Any, default: dtype | None = None) -> dtype:
    if dt is None:
        return default if default is not None else get_default_dtype()
    return to_dtype(dt)


def factory_device(device: Any) -> Device:
    return default_device() if device is None else Device(device)


def backend_keyset(device: Device) -> DispatchKeySet:
    """The key set BackendSelect redispatches a factory to: the device's backend key."""
    index = DEVICE_TYPES[device.type]
    return DispatchKeySet.from_raw(key_bits(to_runtime_key(DK.Dense, index)))


def as_size(size: Any) -> tuple[int, ...]:
    if isinstance(size, int):
        return (size,)
    return tuple(int(s) for s in size)


def _backend_select(op_name: str) -> None:
    op = aten(op_name)

    def select(keyset: DispatchKeySet, *args: Any, **kwargs: Any) -> Any:
        ks = backend_keyset(factory_device(kwargs.get("device")))
        return op._redispatch(ks.repr_ | (keyset.repr_ & PRIVATE_BITS), *args, **kwargs)

    aten_lib.impl(op, select, "BackendSelect", with_keyset=True)


# ----------------------------------------------------------------------------- allocation


@meta(
    "empty.memory_format(SymInt[] size, *, ScalarType? dtype=None, Layout? layout=None, "
    "Device? device=None, bool? pin_memory=None, MemoryFormat? memory_format=None) -> Tensor"
)
def empty(size, *, dtype=None, layout=None, device=None, pin_memory=None, memory_format=None):
    shape = as_size(size)
    mf = to_memory_format(memory_format)
    stride = None
    if mf is not None and mf.name == "channels_last":
        check(len(shape) == 4, "required rank 4 tensor to use channels_last format")
        n, c, h, w = shape
        stride = (h * w * c, 1, w * c, c)
    dt = factory_dtype(dtype)
    for s in shape:
        check(s >= 0, f"Trying to create tensor with negative dimension {s}: {list(shape)}")
    contiguous_nbytes(shape, dt.itemsize)  # a size past int64 fails on meta too
    return new_meta(shape, dt, stride)


@meta(
    "empty_strided(SymInt[] size, SymInt[] stride, *, ScalarType? dtype=None, Layout? "
    "layout=None, Device? device=None, bool? pin_memory=None) -> Tensor"
)
def empty_strided(size, stride, *, dtype=None, layout=None, device=None, pin_memory=None):
    shape, strides = as_size(size), as_size(stride)
    check(
        len(shape) == len(strides),
        f"dimensionality of sizes ({len(shape)}) must match dimensionality of strides "
        f"({len(strides)})",
    )
    return new_meta(shape, factory_dtype(dtype), strides)


_backend_select("empty.memory_format")
_backend_select("empty_strided")


@meta("resize_(Tensor(a!) self, SymInt[] size, *, MemoryFormat? memory_format=None) -> Tensor(a!)")
def resize_(self, size, *, memory_format=None):
    from ..tensor.meta_array import MetaArray

    shape = as_size(size)
    for s in shape:
        check(s >= 0, f"Trying to create tensor with negative dimension {s}: {list(shape)}")
    data = self._data
    if isinstance(data, MetaArray):
        needed = _shape.numel(shape) * self._dtype.itemsize
        storage = data.storage
        storage.nbytes = max(storage.nbytes, needed)
        self._data = MetaArray(shape, None, data.dtype, data.offset, storage.nbytes, storage)
    return self


# ----------------------------------------------------------------------------- copies


@meta("copy_(Tensor(a!) self, Tensor src, bool non_blocking=False) -> Tensor(a!)")
def copy_(self, src, non_blocking=False):
    from ..tensor.meta_array import MetaArray

    src_shape = shape_of(src)
    _shape.broadcast_shapes(shape_of(self), src_shape)
    target = shape_of(self)
    if _shape.broadcast_shapes(target, src_shape) != tuple(target):
        raise RuntimeError(
            f"output with shape {list(target)} doesn't match the broadcast shape "
            f"{list(_shape.broadcast_shapes(target, src_shape))}"
        )
    if not isinstance(self._data, MetaArray) and isinstance(src._data, MetaArray):
        raise NotImplementedError("Cannot copy out of meta tensor; no data!")
    return self


@meta(
    "_to_copy(Tensor self, *, ScalarType? dtype=None, Layout? layout=None, Device? device=None, "
    "bool? pin_memory=None, bool non_blocking=False, MemoryFormat? memory_format=None) -> Tensor"
)
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
    if device is not None:
        from ..tensor.device import Device

        if Device(device).type != "meta":  # a meta tensor has no data to copy anywhere
            raise NotImplementedError("Cannot copy out of meta tensor; no data!")
    dt = self._dtype if dtype is None else to_dtype(dtype)
    return _clone_meta(self, memory_format, dt)


def _clone_meta(self, memory_format, dt):
    mf = to_memory_format(memory_format)
    if mf is not None and mf.name == "contiguous_format":
        return new_meta(shape_of(self), dt)
    return meta_like(self, dt)


@meta("clone(Tensor self, *, MemoryFormat? memory_format=None) -> Tensor")
def clone(self, *, memory_format=None):
    return _clone_meta(self, memory_format, self._dtype)


out_variant(
    "clone.out(Tensor self, *, MemoryFormat? memory_format=None, Tensor(a!) out) -> Tensor(a!)",
    "clone",
)
out_variant(
    "_to_copy.out(Tensor self, *, bool non_blocking=False, MemoryFormat? memory_format=None, "
    "Tensor(a!) out) -> Tensor(a!)",
    "_to_copy",
)


@meta("fill_.Scalar(Tensor(a!) self, Scalar value) -> Tensor(a!)")
def fill__Scalar(self, value):
    return self


@meta("fill_.Tensor(Tensor(a!) self, Tensor value) -> Tensor(a!)")
def fill__Tensor(self, value):
    check(
        len(shape_of(value)) == 0,
        f"fill_ only supports 0-dimension value tensor but got tensor with "
        f"{len(shape_of(value))} dimensions.",
    )
    return self


@meta("zero_(Tensor(a!) self) -> Tensor(a!)")
def zero_(self):
    return self


@meta("_local_scalar_dense(Tensor self) -> Scalar")
def _local_scalar_dense(self):
    raise RuntimeError("Tensor.item() cannot be called on meta tensors")


@composite("item(Tensor self) -> Scalar")
def item(self):
    n = self.numel()
    if n != 1:
        raise RuntimeError(f"a Tensor with {n} elements cannot be converted to Scalar")
    return aten("_local_scalar_dense")(self)


# ----------------------------------------------------------------------------- aliases & views


@meta("detach(Tensor(a) self) -> Tensor(a)")
def detach(self):
    out = meta_view(self, shape_of(self), self.stride())
    out._key_set &= ~REQUIRES_GRAD_BIT
    return out


@meta("alias(Tensor(a) self) -> Tensor(a)")
def alias(self):
    return meta_view(self, shape_of(self), self.stride())


@meta("lift_fresh(Tensor(a) self) -> Tensor(a)")
def lift_fresh(self):
    return self


@meta("view(Tensor(a) self, SymInt[] size) -> Tensor(a)")
def view(self, size):
    shape = _shape.infer_size(as_size(size), self.numel())
    stride = _shape.compute_view_stride(shape_of(self), self.stride(), shape)
    if stride is None:
        raise RuntimeError(
            "view size is not compatible with input tensor's size and stride (at least one "
            "dimension spans across two contiguous subspaces). Use .reshape(...) instead."
        )
    return meta_view(self, shape, stride)


@meta("view.dtype(Tensor(a) self, ScalarType dtype) -> Tensor(a)")
def view_dtype(self, dtype):
    dt = to_dtype(dtype)
    if dt.itemsize == self._dtype.itemsize:
        out = meta_view(self, shape_of(self), self.stride())
        out._dtype = dt
        out._data.dtype = dt.np
        return out
    raise RuntimeError("keyroute supports view(dtype) only between dtypes of the same size")


@meta("_unsafe_view(Tensor self, SymInt[] size) -> Tensor")
def _unsafe_view(self, size):
    # A view in all but autograd's bookkeeping: the output shares self's storage (PyTorch's
    # schema declares no alias, but the memory is the same).
    shape = _shape.infer_size(as_size(size), self.numel())
    stride = _shape.compute_view_stride(shape_of(self), self.stride(), shape)
    if stride is None:
        return new_meta(shape, self._dtype)
    return meta_view(self, shape, stride)


@meta(
    "as_strided(Tensor(a) self, SymInt[] size, SymInt[] stride, SymInt? storage_offset=None) -> "
    "Tensor(a)"
)
def as_strided(self, size, stride, storage_offset=None):
    shape, strides = as_size(size), as_size(stride)
    check(
        len(shape) == len(strides),
        "mismatch in length of strides and shape",
    )
    for st in strides:
        check(
            st >= 0,
            f"as_strided: Negative strides are not supported at the moment, got strides: "
            f"{list(strides)}",
        )
    offset = self.storage_offset() if storage_offset is None else int(storage_offset)
    check(offset >= 0, f"Tensor: invalid storage offset {offset}")
    return meta_view(self, shape, strides, offset)


@meta("expand(Tensor(a) self, SymInt[] size, *, bool implicit=False) -> Tensor(a)")
def expand(self, size, *, implicit=False):
    sizes = as_size(size)
    shape = shape_of(self)
    stride = self.stride()
    check(
        len(sizes) >= len(shape),
        f"expand({type_string(self)}{{{list(shape)}}}, size={list(sizes)}): the number of "
        f"sizes provided ({len(sizes)}) must be greater or equal to the number of dimensions in "
        f"the tensor ({len(shape)})",
    )
    out_shape, out_stride = expand_geometry(shape, stride, sizes)
    return meta_view(self, out_shape, out_stride)


def expand_geometry(
    shape: Sequence[int], stride: Sequence[int], sizes: Sequence[int]
) -> tuple[tuple[int, ...], tuple[int, ...]]:
    ndim = len(sizes)
    offset = ndim - len(shape)
    out_shape = [0] * ndim
    out_stride = [0] * ndim
    for i in range(ndim - 1, -1, -1):
        j = i - offset
        size = shape[j] if j >= 0 else 1
        # A new innermost dimension (expanding a 0-d tensor) gets stride 0, as in PyTorch.
        st = stride[j] if j >= 0 else (out_stride[i + 1] * out_shape[i + 1] if i + 1 < ndim else 0)
        target = sizes[i]
        if target == -1:
            check(
                j >= 0,
                f"The expanded size of the tensor (-1) isn't allowed in a leading, non-existing "
                f"dimension {i}",
            )
            target = size
        if size != target:
            check(
                size == 1,
                f"The expanded size of the tensor ({target}) must match the existing size "
                f"({size}) at non-singleton dimension {i}.  Target sizes: {list(sizes)}.  "
                f"Tensor sizes: {list(shape)}",
            )
            st = 0
        out_shape[i] = target
        out_stride[i] = st
    return tuple(out_shape), tuple(out_stride)


# ----------------------------------------------------------------------------- CIA conversions


def _needs_copy(self, dt, device, copy, memory_format):
    if copy:
        return True
    if dt is not None and to_dtype(dt) is not self._dtype:
        return True
    if device is not None and Device(device) != self.device:
        return True
    mf = to_memory_format(memory_format)  # to_will_alias: self is already in that format
    if mf is not None and mf.name != "preserve_format" and not self.is_contiguous(memory_format=mf):
        return True
    return False


def _to_impl(self, dtype=None, device=None, non_blocking=False, copy=False, memory_format=None):
    if not _needs_copy(self, dtype, device, copy, memory_format):
        return self
    if device is not None:
        device = Device(device)
        if device.type == "cpu" and device.index is None:
            device = Device("cpu")
    return aten("_to_copy")(
        self,
        dtype=None if dtype is None else to_dtype(dtype),
        device=device,
        non_blocking=non_blocking,
        memory_format=memory_format,
    )


@composite(
    "to.dtype_layout(Tensor(a) self, *, ScalarType? dtype=None, Layout? layout=None, Device? "
    "device=None, bool? pin_memory=None, bool non_blocking=False, bool copy=False, "
    "MemoryFormat? memory_format=None) -> Tensor(a)"
)
def to_dtype_layout(
    self,
    *,
    dtype=None,
    layout=None,
    device=None,
    pin_memory=None,
    non_blocking=False,
    copy=False,
    memory_format=None,
):
    return _to_impl(self, dtype, device, non_blocking, copy, memory_format)


@composite(
    "to.device(Tensor(a) self, Device device, ScalarType dtype, bool non_blocking=False, "
    "bool copy=False, MemoryFormat? memory_format=None) -> Tensor(a)"
)
def to_device(self, device, dtype, non_blocking=False, copy=False, memory_format=None):
    return _to_impl(self, dtype, device, non_blocking, copy, memory_format)


@composite(
    "to.dtype(Tensor(a) self, ScalarType dtype, bool non_blocking=False, bool copy=False, "
    "MemoryFormat? memory_format=None) -> Tensor(a)"
)
def to_dtype_(self, dtype, non_blocking=False, copy=False, memory_format=None):
    return _to_impl(self, dtype, None, non_blocking, copy, memory_format)


@composite(
    "to.other(Tensor(a) self, Tensor other, bool non_blocking=False, bool copy=False, "
    "MemoryFormat? memory_format=None) -> Tensor(a)"
)
def to_other(self, other, non_blocking=False, copy=False, memory_format=None):
    return _to_impl(self, other._dtype, other.device, non_blocking, copy, memory_format)


@composite("contiguous(Tensor(a) self, *, MemoryFormat memory_format=0) -> Tensor(a)")
def contiguous(self, *, memory_format=0):
    mf = to_memory_format(memory_format)
    if mf.name == "channels_last":
        if self.is_contiguous(memory_format=mf):
            return self
        return aten("clone")(self, memory_format=mf)
    if self.is_contiguous():
        return self
    return aten("clone")(self, memory_format=mf)


# ----------------------------------------------------------------------------- factories


def _fill(t, value):
    return aten("fill_.Scalar")(t, value)


def _fill_dtype(fill_value: Any, dt: Any) -> dtype:
    if dt is not None:
        return to_dtype(dt)
    if isinstance(fill_value, bool):
        return bool_
    if isinstance(fill_value, int):
        return int64
    if isinstance(fill_value, complex):
        return to_dtype(complex)
    return get_default_dtype()


@composite_explicit(
    "full(SymInt[] size, Scalar fill_value, *, ScalarType? dtype=None, Layout? layout=None, "
    "Device? device=None, bool? pin_memory=None) -> Tensor"
)
def full(size, fill_value, *, dtype=None, layout=None, device=None, pin_memory=None):
    t = aten("empty.memory_format")(
        list(as_size(size)), dtype=_fill_dtype(fill_value, dtype), device=device
    )
    return _fill(t, fill_value)


@composite_explicit(
    "zeros(SymInt[] size, *, ScalarType? dtype=None, Layout? layout=None, Device? device=None, "
    "bool? pin_memory=None) -> Tensor"
)
def zeros(size, *, dtype=None, layout=None, device=None, pin_memory=None):
    for s in as_size(size):
        check(s >= 0, "zeros: Dimension size must be non-negative.")
    t = aten("empty.memory_format")(list(as_size(size)), dtype=dtype, device=device)
    return aten("zero_")(t)


@composite_explicit(
    "ones(SymInt[] size, *, ScalarType? dtype=None, Layout? layout=None, Device? device=None, "
    "bool? pin_memory=None) -> Tensor"
)
def ones(size, *, dtype=None, layout=None, device=None, pin_memory=None):
    t = aten("empty.memory_format")(list(as_size(size)), dtype=dtype, device=device)
    return _fill(t, 1)


@composite_explicit(
    "scalar_tensor(Scalar s, *, ScalarType? dtype=None, Layout? layout=None, Device? "
    "device=None, bool? pin_memory=None) -> Tensor"
)
def scalar_tensor(s, *, dtype=None, layout=None, device=None, pin_memory=None):
    t = aten("empty.memory_format")([], dtype=dtype, device=device)
    return _fill(t, s)


_LIKE = (
    "*, ScalarType? dtype=None, Layout? layout=None, Device? device=None, bool? "
    "pin_memory=None, MemoryFormat? memory_format=None) -> Tensor"
)


@composite_explicit(f"empty_like(Tensor self, {_LIKE}")
def empty_like(self, *, dtype=None, layout=None, device=None, pin_memory=None, memory_format=None):
    dt = self._dtype if dtype is None else to_dtype(dtype)
    dev = self.device if device is None else Device(device)
    mf = to_memory_format(memory_format)
    shape = list(shape_of(self))
    if mf is None or mf.name == "preserve_format":
        # (PyTorch allocates with empty_strided whether or not the strides are the
        # contiguous ones: the input's if dense, inferred dense ones otherwise)
        like = meta_like(self)
        return aten("empty_strided")(shape, list(like.stride()), dtype=dt, device=dev)
    return aten("empty.memory_format")(shape, dtype=dt, device=dev, memory_format=mf)


@composite_explicit(f"zeros_like(Tensor self, {_LIKE}")
def zeros_like(self, *, dtype=None, layout=None, device=None, pin_memory=None, memory_format=None):
    t = aten("empty_like")(self, dtype=dtype, device=device, memory_format=memory_format)
    return aten("zero_")(t)


@composite_explicit(f"ones_like(Tensor self, {_LIKE}")
def ones_like(self, *, dtype=None, layout=None, device=None, pin_memory=None, memory_format=None):
    t = aten("empty_like")(self, dtype=dtype, device=device, memory_format=memory_format)
    return _fill(t, 1)


@composite_explicit(f"full_like(Tensor self, Scalar fill_value, {_LIKE}")
def full_like(
    self, fill_value, *, dtype=None, layout=None, device=None, pin_memory=None, memory_format=None
):
    t = aten("empty_like")(self, dtype=dtype, device=device, memory_format=memory_format)
    return _fill(t, fill_value)


_NEW = (
    "*, ScalarType? dtype=None, Layout? layout=None, Device? device=None, bool? "
    "pin_memory=None) -> Tensor"
)


def _new_opts(self, dtype, device):
    return (
        self._dtype if dtype is None else to_dtype(dtype),
        self.device if device is None else Device(device),
    )


@composite_explicit(f"new_empty(Tensor self, SymInt[] size, {_NEW}")
def new_empty(self, size, *, dtype=None, layout=None, device=None, pin_memory=None):
    dt, dev = _new_opts(self, dtype, device)
    return aten("empty.memory_format")(list(as_size(size)), dtype=dt, device=dev)


new_empty_strided_op = defop(
    f"new_empty_strided(Tensor self, SymInt[] size, SymInt[] stride, {_NEW}"
)


def _new_empty_strided(
    self, size, stride, *, dtype=None, layout=None, device=None, pin_memory=None
):
    dt, dev = _new_opts(self, dtype, device)
    return aten("empty_strided")(list(as_size(size)), list(stride), dtype=dt, device=dev)


# CompositeExplicitAutogradNonFunctional in PyTorch (AccumulateGrad and CopySlices call it).
aten_lib.impl(new_empty_strided_op, _new_empty_strided, "CompositeExplicitAutogradNonFunctional")


@composite_explicit(f"new_zeros(Tensor self, SymInt[] size, {_NEW}")
def new_zeros(self, size, *, dtype=None, layout=None, device=None, pin_memory=None):
    dt, dev = _new_opts(self, dtype, device)
    return aten("zeros")(list(as_size(size)), dtype=dt, device=dev)


@composite_explicit(f"new_ones(Tensor self, SymInt[] size, {_NEW}")
def new_ones(self, size, *, dtype=None, layout=None, device=None, pin_memory=None):
    dt, dev = _new_opts(self, dtype, device)
    return aten("ones")(list(as_size(size)), dtype=dt, device=dev)


@composite_explicit(f"new_full(Tensor self, SymInt[] size, Scalar fill_value, {_NEW}")
def new_full(self, size, fill_value, *, dtype=None, layout=None, device=None, pin_memory=None):
    dt, dev = _new_opts(self, dtype, device)
    return aten("full")(list(as_size(size)), fill_value, dtype=dt, device=dev)


# -- ranges


def _arange_len(start: Any, end: Any, step: Any, dt: dtype | None = None) -> int:
    """The element count of arange (int64 outputs count from the truncated bounds)."""
    raw = (start, end, step)
    if any(isinstance(v, complex) for v in raw):
        raise RuntimeError("value cannot be converted to type double without overflow")
    start, end, step = float(start), float(end), float(step)
    check(step != 0, "step must be nonzero")
    check(
        math.isfinite(start) and math.isfinite(end),
        # PyTorch prints the Scalars as C++ streams do (0 for 0.0).
        f"unsupported range: {start:g} -> {end:g}",
    )
    check(
        (step > 0 and end >= start) or (step < 0 and end <= start),
        "upper bound and lower bound inconsistent with step sign",
    )
    if dt is int64:
        # PyTorch converts the bounds to the output's accumulate type (int64) first.
        xstart, xend, xstep = (int(v) for v in raw)
        if xstep == 0:
            raise ValueError("step must be nonzero")
        sign = (xstep > 0) - (xstep < 0)
        num = xend - xstart + xstep - sign
        count = abs(num) // abs(xstep)  # C++ integer division (truncates toward zero)
        return max(0, count if (num < 0) == (xstep < 0) else -count)
    return max(0, math.ceil((end - start) / step))


def _arange_dtype(start, end, step, dtype):
    if dtype is not None:
        return to_dtype(dtype)
    if all(
        isinstance(v, int) or (hasattr(v, "_dtype") and v._dtype.category <= 1)
        for v in (start, end, step)
    ):
        return int64
    return get_default_dtype()


_FACTORY = (
    "*, ScalarType? dtype=None, Layout? layout=None, Device? device=None, bool? pin_memory=None) "
    "-> Tensor"
)


@composite_explicit(f"arange.start_step(Scalar start, Scalar end, Scalar step=1, {_FACTORY}")
def arange_start_step(start, end, step=1, *, dtype=None, layout=None, device=None, pin_memory=None):
    dt = _arange_dtype(start, end, step, dtype)
    contiguous_nbytes([_arange_len(start, end, step, dt)], dt.itemsize)  # errors; empty+resize_
    out = aten("empty.memory_format")([0], dtype=dt, device=device)
    return aten("arange.start_out")(start, end, step, out=out)


@composite_explicit(f"arange(Scalar end, {_FACTORY}")
def arange(end, *, dtype=None, layout=None, device=None, pin_memory=None):
    return arange_start_step(0, end, 1, dtype=dtype, layout=layout, device=device)  # one event


@composite_explicit(f"arange.start(Scalar start, Scalar end, {_FACTORY}")
def arange_start(start, end, *, dtype=None, layout=None, device=None, pin_memory=None):
    return arange_start_step(start, end, 1, dtype=dtype, layout=layout, device=device)


@meta("arange.start_out(Scalar start, Scalar end, Scalar step=1, *, Tensor(a!) out) -> Tensor(a!)")
def arange_start_out(start, end, step=1, *, out):
    n = _arange_len(start, end, step, out._dtype)
    if shape_of(out) != (n,):
        aten("resize_")(out, [n])
    return out


@composite_explicit(f"linspace(Scalar start, Scalar end, int steps, {_FACTORY}")
def linspace(start, end, steps, *, dtype=None, layout=None, device=None, pin_memory=None):
    check(steps >= 0, "number of steps must be non-negative")
    dt = factory_dtype(dtype)
    out = aten("empty.memory_format")([steps], dtype=dt, device=device)
    return aten("linspace.out")(start, end, steps, out=out)


@meta("linspace.out(Scalar start, Scalar end, int steps, *, Tensor(a!) out) -> Tensor(a!)")
def linspace_out(start, end, steps, *, out):
    if shape_of(out) != (steps,):
        aten("resize_")(out, [steps])
    return out


@composite_explicit(f"eye(SymInt n, {_FACTORY}")
def eye(n, *, dtype=None, layout=None, device=None, pin_memory=None):
    return aten("eye.m")(n, n, dtype=dtype, layout=layout, device=device)


@composite_explicit(f"eye.m(SymInt n, SymInt m, {_FACTORY}")
def eye_m(n, m, *, dtype=None, layout=None, device=None, pin_memory=None):
    check(n >= 0, f"n must be greater or equal to 0, got {n}")
    check(m >= 0, f"m must be greater or equal to 0, got {m}")
    out = aten("empty.memory_format")([n, m], dtype=dtype, device=device)
    return aten("eye.m_out")(n, m, out=out)


@meta("eye.m_out(SymInt n, SymInt m, *, Tensor(a!) out) -> Tensor(a!)")
def eye_m_out(n, m, *, out):
    if shape_of(out) != (n, m):
        aten("resize_")(out, [n, m])
    return out


# -- random


@meta(
    "uniform_(Tensor(a!) self, float from=0., float to=1., *, Generator? generator=None) -> "
    "Tensor(a!)"
)
def uniform_(self, from_=0.0, to=1.0, *, generator=None):
    return self


@meta(
    "normal_(Tensor(a!) self, float mean=0., float std=1., *, Generator? generator=None) -> "
    "Tensor(a!)"
)
def normal_(self, mean=0.0, std=1.0, *, generator=None):
    check(std >= 0.0, f"normal expects std >= 0.0, but found std {std}")
    return self


@meta(
    "random_.from(Tensor(a!) self, int from, int? to, *, Generator? generator=None) -> Tensor(a!)"
)
def random__from(self, from_, to, *, generator=None):
    return self


@meta("random_.to(Tensor(a!) self, int to, *, Generator? generator=None) -> Tensor(a!)")
def random__to(self, to, *, generator=None):
    return self


@meta("bernoulli_.float(Tensor(a!) self, float p=0.5, *, Generator? generator=None) -> Tensor(a!)")
def bernoulli__float(self, p=0.5, *, generator=None):
    check(0 <= p <= 1, f"bernoulli_ expects p to be in [0, 1], but got p={p}")
    return self


@composite_explicit(f"rand(SymInt[] size, {_FACTORY}")
def rand(size, *, dtype=None, layout=None, device=None, pin_memory=None):
    t = aten("empty.memory_format")(list(as_size(size)), dtype=dtype, device=device)
    return aten("uniform_")(t, 0.0, 1.0)


@composite_explicit(f"rand.generator(SymInt[] size, *, Generator? generator, {_FACTORY[3:]}")
def rand_generator(size, *, generator, dtype=None, layout=None, device=None, pin_memory=None):
    t = aten("empty.memory_format")(list(as_size(size)), dtype=dtype, device=device)
    return aten("uniform_")(t, 0.0, 1.0, generator=generator)


@composite_explicit(f"randn(SymInt[] size, {_FACTORY}")
def randn(size, *, dtype=None, layout=None, device=None, pin_memory=None):
    t = aten("empty.memory_format")(list(as_size(size)), dtype=dtype, device=device)
    return aten("normal_")(t, 0.0, 1.0)


@composite_explicit(f"randn.generator(SymInt[] size, *, Generator? generator, {_FACTORY[3:]}")
def randn_generator(size, *, generator, dtype=None, layout=None, device=None, pin_memory=None):
    t = aten("empty.memory_format")(list(as_size(size)), dtype=dtype, device=device)
    return aten("normal_")(t, 0.0, 1.0, generator=generator)


_INT_FACTORY = (
    "*, ScalarType? dtype=4, Layout? layout=None, Device? device=None, bool? pin_memory=None) "
    "-> Tensor"
)


@composite_explicit(f"randint.low(SymInt low, SymInt high, SymInt[] size, {_INT_FACTORY}")
def randint_low(low, high, size, *, dtype=4, layout=None, device=None, pin_memory=None):
    check(
        low < high, f"random_ expects 'from' to be less than 'to', but got from={low} >= to={high}"
    )
    t = aten("empty.memory_format")(
        list(as_size(size)), dtype=factory_dtype(dtype, int64), device=device
    )
    return aten("random_.from")(t, low, high)


@composite_explicit(f"randint(SymInt high, SymInt[] size, {_INT_FACTORY}")
def randint(high, size, *, dtype=4, layout=None, device=None, pin_memory=None):
    return aten("randint.low")(0, high, size, dtype=dtype, device=device)


@composite_explicit(
    "randint.generator(SymInt high, SymInt[] size, *, Generator? generator, ScalarType? dtype=4, "
    "Layout? layout=None, Device? device=None, bool? pin_memory=None) -> Tensor"
)
def randint_generator(high, size, *, generator, dtype=4, layout=None, device=None, pin_memory=None):
    t = aten("empty.memory_format")(
        list(as_size(size)), dtype=factory_dtype(dtype, int64), device=device
    )
    return aten("random_.from")(t, 0, high, generator=generator)


@meta("randperm.out(SymInt n, *, Tensor(a!) out) -> Tensor(a!)")
def randperm_out(n, *, out):
    check(n >= 0, f"n must be non-negative, got{n}")
    if shape_of(out) != (n,):
        aten("resize_")(out, [n])
    return out


@composite_explicit(f"randperm(SymInt n, {_INT_FACTORY}")
def randperm(n, *, dtype=4, layout=None, device=None, pin_memory=None):
    out = aten("empty.memory_format")([n], dtype=factory_dtype(dtype, int64), device=device)
    return aten("randperm.out")(n, out=out)


@composite_explicit(
    "randperm.generator(SymInt n, *, Generator? generator, ScalarType? dtype=4, Layout? "
    "layout=None, Device? device=None, bool? pin_memory=None) -> Tensor"
)
def randperm_generator(n, *, generator, dtype=4, layout=None, device=None, pin_memory=None):
    out = aten("empty.memory_format")([n], dtype=factory_dtype(dtype, int64), device=device)
    return aten("randperm.generator_out")(n, generator=generator, out=out)


@meta("randperm.generator_out(SymInt n, *, Generator? generator, Tensor(a!) out) -> Tensor(a!)")
def randperm_generator_out(n, *, generator, out):
    return randperm_out(n, out=out)


@composite_explicit(f"rand_like(Tensor self, {_LIKE}")
def rand_like(self, *, dtype=None, layout=None, device=None, pin_memory=None, memory_format=None):
    t = aten("empty_like")(self, dtype=dtype, device=device, memory_format=memory_format)
    return aten("uniform_")(t, 0.0, 1.0)


@composite_explicit(f"randn_like(Tensor self, {_LIKE}")
def randn_like(self, *, dtype=None, layout=None, device=None, pin_memory=None, memory_format=None):
    t = aten("empty_like")(self, dtype=dtype, device=device, memory_format=memory_format)
    return aten("normal_")(t, 0.0, 1.0)


__all__ = ["factory_dtype", "factory_device", "backend_keyset", "as_size", "expand_geometry"]
del defop
