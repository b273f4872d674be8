"""amax/amin, max/min (full, dim, other), argmax/argmin and aminmax."""

from __future__ import annotations

from typing import Any

from ...tensor._tensor import Tensor
from ...tensor.dtype import (
    bool_,
    int64,
)
from .. import _shape
from .._define import aten, composite, meta
from .._meta_util import check, new_meta, shape_of
from .._variants import castable, out_variant, same_dtype, same_dtype_as_input
from .rules import (
    check_dim_nonempty,
    check_empty_dims,
    check_nonempty_input,
    out_shape,
    reduce_dims,
)

# ----------------------------------------------------------------------------- amax / max / argmax


def amax_check(name: str, shape: tuple[int, ...], dim: Any) -> None:
    """amax/amin on an empty input: dims must be given, and be non-empty."""
    if not dim:
        check_nonempty_input(name, shape)
    check_empty_dims(name, shape, dim)


def _amax_meta(name: str, self: Tensor, dim: Any, keepdim: bool) -> Tensor:
    shape = shape_of(self)
    dims = reduce_dims(len(shape), dim)
    amax_check(name, shape, dim)
    return new_meta(out_shape(shape, dims, keepdim), self._dtype)


@meta("amax(Tensor self, int[1] dim=[], bool keepdim=False) -> Tensor")
def amax(self, dim=(), keepdim=False):
    return _amax_meta("amax", self, dim, keepdim)


@meta("amin(Tensor self, int[1] dim=[], bool keepdim=False) -> Tensor")
def amin(self, dim=(), keepdim=False):
    return _amax_meta("amin", self, dim, keepdim)


for _name in ("amax", "amin"):
    out_variant(
        f"{_name}.out(Tensor self, int[1] dim=[], bool keepdim=False, *, Tensor(a!) out) "
        f"-> Tensor(a!)",
        _name,
        check=same_dtype_as_input,
    )


@meta("max(Tensor self) -> Tensor")
def max_default(self):
    check_nonempty_input("max", shape_of(self))
    return new_meta((), self._dtype)


@meta("min(Tensor self) -> Tensor")
def min_default(self):
    check_nonempty_input("min", shape_of(self))
    return new_meta((), self._dtype)


def _max_dim_meta(name: str, self: Tensor, dim: int, keepdim: bool) -> tuple[Tensor, Tensor]:
    shape = shape_of(self)
    d = _shape.wrap_dim(dim, len(shape))
    check_dim_nonempty(name, shape, d)
    oshape = out_shape(shape, (d,), keepdim)
    return new_meta(oshape, self._dtype), new_meta(oshape, int64)


@meta("max.dim(Tensor self, int dim, bool keepdim=False) -> (Tensor values, Tensor indices)")
def max_dim(self, dim, keepdim=False):
    return _max_dim_meta("max", self, dim, keepdim)


@meta("min.dim(Tensor self, int dim, bool keepdim=False) -> (Tensor values, Tensor indices)")
def min_dim(self, dim, keepdim=False):
    return _max_dim_meta("min", self, dim, keepdim)


out_variant(
    "max.dim_max(Tensor self, int dim, bool keepdim=False, *, Tensor(a!) max, Tensor(b!) "
    "max_values) -> (Tensor(a!) values, Tensor(b!) indices)",
    "max.dim",
    ("max", "max_values"),
    check=same_dtype,
)
out_variant(
    "min.dim_min(Tensor self, int dim, bool keepdim=False, *, Tensor(a!) min, Tensor(b!) "
    "min_indices) -> (Tensor(a!) values, Tensor(b!) indices)",
    "min.dim",
    ("min", "min_indices"),
    check=same_dtype,
)
out_variant("max.unary_out(Tensor self, *, Tensor(a!) out) -> Tensor(a!)", "max", check=castable)
out_variant("min.unary_out(Tensor self, *, Tensor(a!) out) -> Tensor(a!)", "min", check=castable)


@composite("max.other(Tensor self, Tensor other) -> Tensor")
def max_other(self, other):
    return aten("maximum")(self, other)


@composite("min.other(Tensor self, Tensor other) -> Tensor")
def min_other(self, other):
    return aten("minimum")(self, other)


@composite("max.out(Tensor self, Tensor other, *, Tensor(a!) out) -> Tensor(a!)")
def max_out(self, other, *, out):
    return aten("maximum.out")(self, other, out=out)


@composite("min.out(Tensor self, Tensor other, *, Tensor(a!) out) -> Tensor(a!)")
def min_out(self, other, *, out):
    return aten("minimum.out")(self, other, out=out)


def argmax_check(name: str, self: Tensor, dim: Any) -> tuple[int, ...]:
    """argmax/argmin: dtype and emptiness checks; the reduced dims."""
    d = self._dtype
    check(d is not bool_, f"{name}(): does not support bool input")
    check(not d.is_complex, f"{name}(): does not support complex input")
    shape = shape_of(self)
    if dim is None:
        if _shape.numel(shape) == 0:
            raise IndexError(
                f"{name}(): Expected reduction dim to be specified for input.numel() == 0."
            )
        return tuple(range(len(shape)))
    w = _shape.wrap_dim(dim, len(shape))
    check_dim_nonempty(name, shape, w)
    return (w,)


def _argmax_meta(name: str, self: Tensor, dim: Any, keepdim: bool) -> Tensor:
    dims = argmax_check(name, self, dim)
    return new_meta(out_shape(shape_of(self), dims, keepdim), int64)


@meta("argmax(Tensor self, int? dim=None, bool keepdim=False) -> Tensor")
def argmax(self, dim=None, keepdim=False):
    return _argmax_meta("argmax", self, dim, keepdim)


@meta("argmin(Tensor self, int? dim=None, bool keepdim=False) -> Tensor")
def argmin(self, dim=None, keepdim=False):
    return _argmax_meta("argmin", self, dim, keepdim)


out_variant(
    "argmax.out(Tensor self, int? dim=None, bool keepdim=False, *, Tensor(a!) out) -> Tensor(a!)",
    "argmax",
    check=same_dtype,
)
out_variant(
    "argmin.out(Tensor self, int? dim=None, bool keepdim=False, *, Tensor(a!) out) -> Tensor(a!)",
    "argmin",
    check=same_dtype,
)


def aminmax_check(self: Tensor, dim: Any) -> tuple[int, ...]:
    shape = shape_of(self)
    if dim is None:
        if _shape.numel(shape) == 0:
            raise RuntimeError(
                "aminmax(): cannot compute aminmax over an empty dimension as the operation has "
                "no identity."
            )
        return tuple(range(len(shape)))
    w = _shape.wrap_dim(dim, len(shape))
    check_dim_nonempty("aminmax", shape, w, ":")
    return (w,)


@meta("aminmax(Tensor self, *, int? dim=None, bool keepdim=False) -> (Tensor min, Tensor max)")
def aminmax(self, *, dim=None, keepdim=False):
    shape = out_shape(shape_of(self), aminmax_check(self, dim), keepdim)
    return new_meta(shape, self._dtype), new_meta(shape, self._dtype)


out_variant(
    "aminmax.out(Tensor self, *, int? dim=None, bool keepdim=False, Tensor(a!) min, Tensor(b!) "
    "max) -> (Tensor(a!) min, Tensor(b!) max)",
    "aminmax",
    ("min", "max"),
    check=same_dtype,
)
