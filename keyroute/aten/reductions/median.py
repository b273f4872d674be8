"""median, nanmedian and mode."""

from __future__ import annotations

from ...tensor._tensor import Tensor
from ...tensor.dtype import (
    bool_,
    int64,
)
from .. import _shape
from .._define import aten, aten_lib, defop, meta
from .._meta_util import new_meta, shape_of
from .._variants import out_variant, same_dtype, write_out
from .rules import check_dim_nonempty, not_implemented, out_shape

# ----------------------------------------------------------------------------- median / mode


def median_check(self: Tensor, name: str = "median") -> None:
    d = self._dtype
    if d is bool_ or d.is_complex:
        not_implemented(f"{name}_cpu", d)


def _median_dim_meta(name: str, self: Tensor, dim: int, keepdim: bool) -> tuple[Tensor, Tensor]:
    median_check(self, name)
    shape = shape_of(self)
    d = _shape.wrap_dim(dim, len(shape))
    check_dim_nonempty(name, shape, d)
    oshape = out_shape(shape, (d,), keepdim)
    return new_meta(oshape, self._dtype), new_meta(oshape, int64)


@meta("median(Tensor self) -> Tensor")
def median_default(self):
    median_check(self)
    return new_meta((), self._dtype)


@meta("nanmedian(Tensor self) -> Tensor")
def nanmedian_default(self):
    median_check(self, "nanmedian")
    return new_meta((), self._dtype)


@meta("median.dim(Tensor self, int dim, bool keepdim=False) -> (Tensor values, Tensor indices)")
def median_dim(self, dim, keepdim=False):
    return _median_dim_meta("median", self, dim, keepdim)


@meta("nanmedian.dim(Tensor self, int dim, bool keepdim=False) -> (Tensor values, Tensor indices)")
def nanmedian_dim(self, dim, keepdim=False):
    return _median_dim_meta("nanmedian", self, dim, keepdim)


def _median_values_out(name: str) -> None:
    op = defop(
        f"{name}.dim_values(Tensor self, int dim, bool keepdim=False, *, Tensor(a!) values, "
        f"Tensor(b!) indices) -> (Tensor(a!) values, Tensor(b!) indices)"
    )
    fn = aten(f"{name}.dim")

    def out_kernel(self, dim, keepdim=False, *, values, indices):
        for arg, target, want in (("values", values, self._dtype), ("indices", indices, int64)):
            if target._dtype is not want:
                raise RuntimeError(
                    f"Expected tensor for '{arg}' to have the same type as tensor for argument "
                    f"#2 'self'; but type torch.{target._dtype._short}Tensor does not equal "
                    f"torch.{want._short}Tensor (while checking arguments for {name})"
                )
        v, i = fn(self, dim, keepdim)
        write_out(values, v)
        write_out(indices, i)
        return values, indices

    aten_lib.impl(op, out_kernel, "CompositeExplicitAutograd")


_median_values_out("median")
_median_values_out("nanmedian")
out_variant("median.out(Tensor self, *, Tensor(a!) out) -> Tensor(a!)", "median", check=same_dtype)
out_variant(
    "nanmedian.out(Tensor self, *, Tensor(a!) out) -> Tensor(a!)", "nanmedian", check=same_dtype
)


@meta("mode(Tensor self, int dim=-1, bool keepdim=False) -> (Tensor values, Tensor indices)")
def mode(self, dim=-1, keepdim=False):
    d = self._dtype
    if d.is_complex:
        not_implemented("mode_cpu", d)
    shape = shape_of(self)
    w = _shape.wrap_dim(dim, len(shape))
    oshape = out_shape(shape, (w,), keepdim)
    return new_meta(oshape, d), new_meta(oshape, int64)


out_variant(
    "mode.values(Tensor self, int dim=-1, bool keepdim=False, *, Tensor(a!) values, Tensor(b!) "
    "indices) -> (Tensor(a!) values, Tensor(b!) indices)",
    "mode",
    ("values", "indices"),
    check=same_dtype,
)
