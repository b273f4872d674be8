"""The scans cumsum and cumprod (functional, in-place and out= forms)."""

from __future__ import annotations

from typing import Any

from ...tensor._tensor import Tensor
from ...tensor.dtype import (
    to_dtype,
)
from .. import _shape
from .._define import aten, aten_lib, defop, meta
from .._meta_util import new_meta, shape_of
from .._variants import dtype_from_out, out_variant, same_dtype
from .rules import sum_dtype

# ----------------------------------------------------------------------------- cumsum / cumprod


def _scan_meta(self: Tensor, dim: int, dt: Any) -> Tensor:
    shape = shape_of(self)
    _shape.wrap_dim(dim, len(shape))
    return new_meta(shape, sum_dtype(self, dt))


@meta("cumsum(Tensor self, int dim, *, ScalarType? dtype=None) -> Tensor")
def cumsum(self, dim, *, dtype=None):
    return _scan_meta(self, dim, dtype)


@meta("cumprod(Tensor self, int dim, *, ScalarType? dtype=None) -> Tensor")
def cumprod(self, dim, *, dtype=None):
    return _scan_meta(self, dim, dtype)


def scan_inplace_check(self: Tensor, dt: Any) -> None:
    if dt is not None and to_dtype(dt) is not self._dtype:
        raise RuntimeError(
            f"Bad in-place call: input tensor dtype {self._dtype._cpp} and output tensor "
            f"dtype {to_dtype(dt)._cpp} should match"
        )


def _scan_inplace(name: str) -> None:
    op = defop(f"{name}_(Tensor(a!) self, int dim, *, ScalarType? dtype=None) -> Tensor(a!)")
    fn = aten(name)

    def inplace(self, dim, *, dtype=None):
        scan_inplace_check(self, dtype)
        # The in-place form computes in self's dtype (no int64 widening).
        result = fn(self, dim, dtype=self._dtype)
        aten("copy_")(self, result)
        return self

    aten_lib.impl(op, inplace, "CompositeExplicitAutograd")


_scan_inplace("cumsum")
_scan_inplace("cumprod")
out_variant(
    "cumsum.out(Tensor self, int dim, *, ScalarType? dtype=None, Tensor(a!) out) -> Tensor(a!)",
    "cumsum",
    check=same_dtype,
    before=dtype_from_out,
)
out_variant(
    "cumprod.out(Tensor self, int dim, *, ScalarType? dtype=None, Tensor(a!) out) -> Tensor(a!)",
    "cumprod",
    check=same_dtype,
    before=dtype_from_out,
)
