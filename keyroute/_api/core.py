"""Python API of the core operators: conversions, copies, views of shape, new_* factories."""

from __future__ import annotations

from typing import Any

from .._ops import ops
from ..tensor._tensor import Tensor
from ..tensor.device import Device
from ..tensor.dtype import (
    bfloat16,
    bool_,
    complex64,
    complex128,
    float16,
    float32,
    float64,
    int8,
    int16,
    int32,
    int64,
    to_dtype,
    uint8,
)
from ..tensor.dtype import (
    dtype as dtype_cls,
)
from ..tensor.new import _tp_name
from . import function, method, method_as
from ._args import _index_like, _invalid_combination

aten = ops.aten


def _shape_args(
    args: tuple[Any, ...],
    fn: str = "reshape",
    position: int = 1,
    overloaded: bool = False,
    arg: str = "shape",
) -> list[int]:
    """A `SymInt[] shape` argument given as varargs (`x.view(2, 3)`) or one sequence, read as
    PyTorch's parser reads it: varargs must be ints from the first one, a sequence is matched
    on its first element and unpacked after, with PyTorch's words for each failure."""
    seq = args[0] if len(args) == 1 and isinstance(args[0], (list, tuple)) else args
    out = []
    for i, v in enumerate(seq):
        n = v if v.__class__ is int else _index_like(v)
        if n is None:
            raise _shape_error(args, seq, i, v, fn, position, overloaded, arg)
        out.append(n)
    return out


def _shape_error(
    args: tuple[Any, ...],
    seq: Any,
    i: int,
    v: Any,
    fn: str,
    position: int,
    overloaded: bool,
    arg: str,
) -> TypeError:
    if i:  # the first element matched the signature; unpacking the rest failed
        return TypeError(
            f"{fn}(): argument '{arg}' failed to unpack the object at pos {i + 1} with error "
            f'"type must be tuple of ints,but got {_tp_name(v)}"'
        )
    if overloaded:
        return _invalid_combination(fn, args, {})
    if seq is args and len(args) > 1:
        return TypeError(f"{fn}() takes 1 positional argument but {len(args)} were given")
    kind = f"but found element of type {_tp_name(v)} at pos 0" if seq is not args else ""
    return TypeError(
        f"{fn}(): argument '{arg}' (position {position}) must be tuple of ints, "
        + (kind or f"not {_tp_name(v)}")
    )


@function
@method
def clone(self: Tensor, *, memory_format: Any = None) -> Tensor:
    return (
        aten.clone.default(self, memory_format=memory_format)
        if memory_format is not None
        else aten.clone.default(self)
    )


@function
@method
def detach(self: Tensor) -> Tensor:
    return aten.detach.default(self)


@method
def detach_(self: Tensor) -> Tensor:
    from ..autograd._meta import set_requires_grad

    if self._base is not None:
        raise RuntimeError(
            "Can't detach views in-place. Use detach() instead. If you are using "
            "DistributedDataParallel (DDP) for training, and gradient_as_bucket_view is set as "
            "True, gradients are views of DDP buckets, and hence detach_() cannot be called on "
            "these gradients. To fix this error, please refer to the Optimizer.zero_grad() "
            "function in torch/optim/optimizer.py as the solution."
        )
    if self._autograd_meta is not None:
        self._autograd_meta.grad_fn = None
    set_requires_grad(self, False)
    return self


@method
def contiguous(self: Tensor, memory_format: Any = None) -> Tensor:
    if memory_format is None:
        return aten.contiguous.default(self)
    return aten.contiguous.default(self, memory_format=memory_format)


@method
def view(self: Tensor, *shape: Any, size: Any = None, dtype: Any = None) -> Tensor:
    if size is not None or dtype is not None:  # PyTorch's keyword forms: view(size=), view(dtype=)
        shape = (size,) if size is not None else (dtype,)
    if len(shape) == 1 and isinstance(shape[0], dtype_cls):
        return aten.view.dtype(self, shape[0])
    return aten.view.default(self, _shape_args(shape, "view", overloaded=True, arg="size"))


@method
def reshape(self: Tensor, *shape_: Any, shape: Any = None) -> Tensor:
    return aten.reshape.default(self, _shape_args(shape_ if shape is None else (shape,)))


def _reshape_function(input: Tensor, shape: Any) -> Tensor:  # noqa: A002
    return aten.reshape.default(input, _shape_args((shape,), position=2))


_reshape_function.__name__ = _reshape_function.__qualname__ = "reshape"
function(_reshape_function)


@method
def view_as(self: Tensor, other: Tensor) -> Tensor:
    return aten.view.default(self, list(other.shape))


@method
def reshape_as(self: Tensor, other: Tensor) -> Tensor:
    return aten.reshape.default(self, list(other.shape))


@method
def expand(self: Tensor, *sizes: Any, size: Any = None, implicit: bool = False) -> Tensor:
    # implicit= is recorded on the graph by PyTorch's tracer only; eager ignores it
    return aten.expand.default(
        self, _shape_args(sizes if size is None else (size,), "expand", arg="size")
    )


@method
def expand_as(self: Tensor, other: Tensor) -> Tensor:
    return aten.expand_as.default(self, other)


@function
@method
def as_strided(self: Tensor, size: Any, stride: Any, storage_offset: int | None = None) -> Tensor:
    return aten.as_strided.default(self, list(size), list(stride), storage_offset)


@method
def copy_(self: Tensor, other: Tensor, non_blocking: bool = False) -> Tensor:
    # PyTorch's Python parser names the source `other` (the schema's `src` is not a keyword)
    return (
        aten.copy_.default(self, other, non_blocking)
        if non_blocking
        else aten.copy_.default(self, other)
    )


@method
def fill_(self: Tensor, value: Any) -> Tensor:
    if isinstance(value, Tensor):
        return aten.fill_.Tensor(self, value)
    return aten.fill_.Scalar(self, value)


@method
def zero_(self: Tensor) -> Tensor:
    return aten.zero_.default(self)


@method
def resize_(self: Tensor, *sizes: Any, size: Any = None, memory_format: Any = None) -> Tensor:
    shape = _shape_args(sizes if size is None else (size,), "resize_", arg="size")
    if self.requires_grad:  # PyTorch's VariableType resize_ check
        raise RuntimeError("cannot resize variables that require grad")
    return aten.resize_.default(self, shape)


@method
def uniform_(self: Tensor, from_: float = 0.0, to: float = 1.0, *, generator: Any = None) -> Tensor:
    return aten.uniform_.default(self, from_, to, generator=generator)


@method
def normal_(self: Tensor, mean: float = 0.0, std: float = 1.0, *, generator: Any = None) -> Tensor:
    return aten.normal_.default(self, mean, std, generator=generator)


# -- conversions


def _parse_to(args: tuple[Any, ...], kwargs: dict[str, Any]) -> tuple[Any, Any, bool, bool, Any]:
    """Tensor.to's overloads: (dtype), (device[, dtype]), (tensor), then non_blocking, copy."""
    dtype = kwargs.pop("dtype", None)
    device = kwargs.pop("device", None)
    flags = []
    for a in args:
        if isinstance(a, Tensor):
            dtype, device = a._dtype, a.device
        elif isinstance(a, dtype_cls):
            dtype = a
        elif isinstance(a, bool):
            flags.append(a)
        elif isinstance(a, (str, Device, int)):
            device = a
        else:
            raise TypeError(f"to() received an invalid combination of arguments: {a!r}")
    non_blocking = kwargs.pop("non_blocking", flags[0] if flags else False)
    copy = kwargs.pop("copy", flags[1] if len(flags) > 1 else False)
    return dtype, device, non_blocking, copy, kwargs.pop("memory_format", None)


@method
def to(self: Tensor, *args: Any, **kwargs: Any) -> Tensor:
    dtype, device, non_blocking, copy, memory_format = _parse_to(args, kwargs)
    # PyTorch's THPVariable_to picks the overload: nothing asked -> self (no call); a dtype
    # alone -> to.dtype; a device with a dtype (or a tensor) -> to.device; else dtype_layout.
    if dtype is None and device is None and not copy and memory_format is None:
        return self
    if device is None and dtype is not None:
        return aten.to.dtype(self, to_dtype(dtype), non_blocking, copy, memory_format=memory_format)
    if device is not None and dtype is not None:
        return aten.to.device(
            self, Device(device), to_dtype(dtype), non_blocking, copy, memory_format=memory_format
        )
    return aten.to.dtype_layout(
        self,
        device=None if device is None else Device(device),
        non_blocking=non_blocking,
        copy=copy,
        memory_format=memory_format,
    )


def _cast(dt: Any) -> Any:
    def cast(self: Tensor, memory_format: Any = None) -> Tensor:
        return aten.to.dtype(self, dt)

    return cast


for _name, _dt in (
    ("float", float32),
    ("double", float64),
    ("half", float16),
    ("bfloat16", bfloat16),
    ("int", int32),
    ("long", int64),
    ("short", int16),
    ("char", int8),
    ("byte", uint8),
    ("bool", bool_),
    ("cfloat", complex64),
    ("cdouble", complex128),
):
    method_as(_name)(_cast(_dt))


@method
def cpu(self: Tensor, memory_format: Any = None) -> Tensor:
    return self.to("cpu")


@method
def type_as(self: Tensor, other: Tensor) -> Tensor:
    return aten.to.dtype(self, other._dtype)


@method
def type(self: Tensor, dtype: Any = None, non_blocking: bool = False) -> Any:
    if dtype is None:
        return f"keyroute.{self._dtype._short}Tensor"
    return aten.to.dtype(self, to_dtype(dtype))


# -- new_* factories


@method
def new_empty(
    self: Tensor,
    *size: Any,
    dtype: Any = None,
    device: Any = None,
    requires_grad: bool = False,
    **kw: Any,
) -> Tensor:
    out = aten.new_empty.default(
        self, _shape_args(size, "new_empty", arg="size"), dtype=dtype, device=device
    )
    return out.requires_grad_(True) if requires_grad else out


@method
def new_empty_strided(
    self: Tensor,
    size: Any,
    stride: Any,
    *,
    dtype: Any = None,
    device: Any = None,
    requires_grad: bool = False,
    **kw: Any,
) -> Tensor:
    out = aten.new_empty_strided.default(
        self,
        _shape_args((size,), "new_empty_strided", arg="size"),
        list(stride),
        dtype=dtype,
        device=device,
    )
    return out.requires_grad_(True) if requires_grad else out


@method
def new_zeros(
    self: Tensor,
    *size: Any,
    dtype: Any = None,
    device: Any = None,
    requires_grad: bool = False,
    **kw: Any,
) -> Tensor:
    out = aten.new_zeros.default(
        self, _shape_args(size, "new_zeros", arg="size"), dtype=dtype, device=device
    )
    return out.requires_grad_(True) if requires_grad else out


@method
def new_ones(
    self: Tensor,
    *size: Any,
    dtype: Any = None,
    device: Any = None,
    requires_grad: bool = False,
    **kw: Any,
) -> Tensor:
    out = aten.new_ones.default(
        self, _shape_args(size, "new_ones", arg="size"), dtype=dtype, device=device
    )
    return out.requires_grad_(True) if requires_grad else out


@method
def new_full(
    self: Tensor,
    size: Any,
    fill_value: Any,
    *,
    dtype: Any = None,
    device: Any = None,
    requires_grad: bool = False,
    **kw: Any,
) -> Tensor:
    out = aten.new_full.default(self, list(size), fill_value, dtype=dtype, device=device)
    return out.requires_grad_(True) if requires_grad else out


@method
def new_tensor(
    self: Tensor, data: Any, *, dtype: Any = None, device: Any = None, requires_grad: bool = False
) -> Tensor:
    from .creation import tensor

    return tensor(
        data, dtype=dtype or self._dtype, device=device or self.device, requires_grad=requires_grad
    )
