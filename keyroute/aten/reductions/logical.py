"""all, any and count_nonzero."""

from __future__ import annotations

from typing import Any

from ...tensor._tensor import Tensor
from ...tensor.dtype import (
    bool_,
    dtype,
    int64,
    uint8,
)
from .. import _shape
from .._define import aten, aten_lib, defop, meta
from .._meta_util import check, new_meta, shape_of
from .._variants import out_variant, same_dtype, write_out
from .rules import out_shape, reduce_dims

# ----------------------------------------------------------------------------- all / any


def logical_reduce_dtype(self: Tensor) -> dtype:
    """all/any keep uint8 (legacy); every other dtype gives bool."""
    return uint8 if self._dtype is uint8 else bool_


def all_dims(ndim: int, dim: Any) -> tuple[int, ...]:
    """all.dims/any.dims: None reduces every dim, [] reduces none."""
    if dim is None:
        return tuple(range(ndim))
    if isinstance(dim, int):
        return (_shape.wrap_dim(dim, ndim),)
    return _shape.wrap_dims(dim, ndim) if dim else ()


def _logical_meta(self: Tensor, dims: tuple[int, ...], keepdim: bool) -> Tensor:
    return new_meta(out_shape(shape_of(self), dims, keepdim), logical_reduce_dtype(self))


def _all_any(name: str) -> None:
    def default(self):
        return _logical_meta(self, tuple(range(len(shape_of(self)))), False)

    def dim_(self, dim, keepdim=False):
        return _logical_meta(self, (_shape.wrap_dim(dim, len(shape_of(self))),), keepdim)

    def dims_(self, dim=None, keepdim=False):
        return _logical_meta(self, all_dims(len(shape_of(self)), dim), keepdim)

    meta(f"{name}(Tensor self) -> Tensor")(default)
    meta(f"{name}.dim(Tensor self, int dim, bool keepdim=False) -> Tensor")(dim_)
    meta(f"{name}.dims(Tensor self, int[]? dim=None, bool keepdim=False) -> Tensor")(dims_)

    def out_form(schema: str, functional: str) -> None:
        op = defop(schema)
        fn = aten(functional)

        def out_kernel(*args, out, **kwargs):
            check(
                out._dtype in (bool_, uint8),
                f"{name} only supports bool tensor for result, got: {out._dtype._short}",
            )
            write_out(out, fn(*args, **kwargs))
            return out

        aten_lib.impl(op, out_kernel, "CompositeExplicitAutograd")

    out_form(
        f"{name}.out(Tensor self, int dim, bool keepdim=False, *, Tensor(a!) out) -> Tensor(a!)",
        f"{name}.dim",
    )
    out_form(
        f"{name}.dims_out(Tensor self, int[]? dim=None, bool keepdim=False, *, Tensor(a!) out) "
        f"-> Tensor(a!)",
        f"{name}.dims",
    )
    out_form(f"{name}.all_out(Tensor self, *, Tensor(a!) out) -> Tensor(a!)", name)


_all_any("all")
_all_any("any")


@meta("count_nonzero.dim_IntList(Tensor self, int[] dim) -> Tensor")
def count_nonzero_dim_IntList(self, dim):
    shape = shape_of(self)
    return new_meta(out_shape(shape, reduce_dims(len(shape), dim), False), int64)


@meta("count_nonzero(Tensor self, int? dim=None) -> Tensor")
def count_nonzero(self, dim=None):
    return count_nonzero_dim_IntList(self, [] if dim is None else [dim])


out_variant(
    "count_nonzero.dim_IntList_out(Tensor self, int[] dim, *, Tensor(a!) out) -> Tensor(a!)",
    "count_nonzero.dim_IntList",
    check=same_dtype,
)
out_variant(
    "count_nonzero.out(Tensor self, int? dim=None, *, Tensor(a!) out) -> Tensor(a!)",
    "count_nonzero",
    check=same_dtype,
)
