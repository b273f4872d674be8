"""var/std and var_mean/std_mean (the correction forms and the legacy unbiased overloads)."""

from __future__ import annotations

from typing import Any

from ...tensor._tensor import Tensor
from ...tensor.dtype import (
    dtype,
    promote_types,
)
from .._define import aten, aten_lib, composite, defop, meta
from .._meta_util import new_meta, shape_of
from .._variants import check_out_dtype, out_variant, same_dtype, write_out
from .rules import _to_type, out_shape, reduce_dims, var_dtype

# ----------------------------------------------------------------------------- var / std


def _var_meta(self: Tensor, dim: Any, keepdim: bool, name: str) -> tuple[tuple[int, ...], dtype]:
    dt = var_dtype(self, name)
    shape = shape_of(self)
    return out_shape(shape, reduce_dims(len(shape), dim), keepdim), dt


_CORR = "int[1]? dim=None, *, Scalar? correction=None, bool keepdim=False"


@meta(f"var.correction(Tensor self, {_CORR}) -> Tensor")
def var_correction(self, dim=None, *, correction=None, keepdim=False):
    return new_meta(*_var_meta(self, dim, keepdim, "std and var"))


@meta(f"std.correction(Tensor self, {_CORR}) -> Tensor")
def std_correction(self, dim=None, *, correction=None, keepdim=False):
    return new_meta(*_var_meta(self, dim, keepdim, "std and var"))


@meta(f"var_mean.correction(Tensor self, {_CORR}) -> (Tensor, Tensor)")
def var_mean_correction(self, dim=None, *, correction=None, keepdim=False):
    shape, dt = _var_meta(self, dim, keepdim, "var_mean")
    return new_meta(shape, dt), new_meta(shape, self._dtype)


@meta(f"std_mean.correction(Tensor self, {_CORR}) -> (Tensor, Tensor)")
def std_mean_correction(self, dim=None, *, correction=None, keepdim=False):
    shape, dt = _var_meta(self, dim, keepdim, "std_mean")
    return new_meta(shape, dt), new_meta(shape, self._dtype)


def _var_out(name: str) -> None:
    op = defop(f"{name}.correction_out(Tensor self, {_CORR}, Tensor(a!) out) -> Tensor(a!)")
    fn = aten(f"{name}.correction")

    def out_kernel(self, dim=None, *, correction=None, keepdim=False, out):
        var_dtype(self)
        od = out._dtype
        src = self
        if od.category == 2 and self._dtype.category == 2 and promote_types(self._dtype, od) is od:
            # The reduction runs in out's (wider) dtype, as PyTorch's TensorIterator does.
            src = _to_type(self, od)
        result = fn(src, dim, correction=correction, keepdim=keepdim)
        check_out_dtype(out, var_dtype(self))
        write_out(out, result)
        return out

    out_kernel.__name__ = op.__name__
    aten_lib.impl(op, out_kernel, "CompositeExplicitAutograd")


_var_out("var")
_var_out("std")
out_variant(
    f"var_mean.correction_out(Tensor self, {_CORR}, Tensor(a!) out0, Tensor(b!) out1) -> "
    f"(Tensor(a!), Tensor(b!))",
    "var_mean.correction",
    ("out0", "out1"),
    check=same_dtype,
)
out_variant(
    f"std_mean.correction_out(Tensor self, {_CORR}, Tensor(a!) out0, Tensor(b!) out1) -> "
    f"(Tensor(a!), Tensor(b!))",
    "std_mean.correction",
    ("out0", "out1"),
    check=same_dtype,
)


def _legacy_var(name: str) -> None:
    """The unbiased= overloads: CompositeImplicitAutograd onto `name.correction`."""
    corr = aten(f"{name}.correction")

    def default(self, unbiased=True):
        return corr(self, correction=1 if unbiased else 0)

    def dim_(self, dim, unbiased=True, keepdim=False):
        if keepdim:
            return corr(self, dim, correction=1 if unbiased else 0, keepdim=True)
        return corr(self, dim, correction=1 if unbiased else 0)

    ret = "(Tensor, Tensor)" if name.endswith("_mean") else "Tensor"
    composite(f"{name}(Tensor self, bool unbiased=True) -> {ret}")(default)
    composite(
        f"{name}.dim(Tensor self, int[1]? dim, bool unbiased=True, bool keepdim=False) -> {ret}"
    )(dim_)
    if name in ("var", "std"):
        corr_out = aten(f"{name}.correction_out")

        def out_(self, dim, unbiased=True, keepdim=False, *, out):
            c = 1 if unbiased else 0
            if keepdim:
                return corr_out(self, dim, correction=c, keepdim=True, out=out)
            return corr_out(self, dim, correction=c, out=out)

        composite(
            f"{name}.out(Tensor self, int[1]? dim, bool unbiased=True, bool keepdim=False, *, "
            f"Tensor(a!) out) -> Tensor(a!)"
        )(out_)


for _name in ("var", "std", "var_mean", "std_mean"):
    _legacy_var(_name)
