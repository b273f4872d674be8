"""topk, sort and argsort (results laid out like their input, as PyTorch's sort does)."""

from __future__ import annotations

from typing import Any

from ...tensor._tensor import Tensor
from ...tensor.dtype import (
    bool_,
    int64,
)
from ...tensor.layout import strided
from .. import _shape
from .._define import aten, composite, composite_explicit, meta
from .._meta_util import check, meta_like, new_meta, shape_of
from .._variants import check_out_dtype_equal, out_variant, same_dtype, write_out

# ----------------------------------------------------------------------------- topk / sort


def topk_check(self: Tensor, k: int, dim: int) -> tuple[int, tuple[int, ...]]:
    """topk: the wrapped dim and the output shape."""
    shape = shape_of(self)
    d = _shape.wrap_dim(dim, len(shape))
    size = shape[d] if shape else 1
    check(0 <= k <= size, "selected index k out of range")
    check(self._dtype is not bool_, "topk does not support bool dtypes on CPU")
    if not shape:
        return d, ()
    return d, tuple(k if i == d else s for i, s in enumerate(shape))


@meta(
    "topk(Tensor self, SymInt k, int dim=-1, bool largest=True, bool sorted=True) -> "
    "(Tensor values, Tensor indices)"
)
def topk(self, k, dim=-1, largest=True, sorted=True):  # noqa: A002
    _, shape = topk_check(self, k, dim)
    return new_meta(shape, self._dtype), new_meta(shape, int64)


out_variant(
    "topk.values(Tensor self, SymInt k, int dim=-1, bool largest=True, bool sorted=True, *, "
    "Tensor(a!) values, Tensor(b!) indices) -> (Tensor(a!) values, Tensor(b!) indices)",
    "topk",
    ("values", "indices"),
    check=same_dtype,
)


def sort_check(self: Tensor, dim: int) -> int:
    check(not self._dtype.is_complex, "Sort does not support complex dtypes on CPU")
    return _shape.wrap_dim(dim, len(shape_of(self)))


def sort_strides(self: Tensor) -> tuple[int, ...]:
    """sort's output strides: self's when non-overlapping and dense (every empty tensor is),
    else dense ones in self's dim order."""
    if _shape.numel(shape_of(self)) == 0:
        return self.stride()
    return meta_like(self).stride()


def _sort_meta(self: Tensor, dim: int) -> tuple[Tensor, Tensor]:
    sort_check(self, dim)
    st = sort_strides(self)
    return new_meta(shape_of(self), self._dtype, st), new_meta(shape_of(self), int64, st)


@meta(
    "sort.stable(Tensor self, *, bool? stable, int dim=-1, bool descending=False) -> "
    "(Tensor values, Tensor indices)"
)
def sort_stable(self, *, stable, dim=-1, descending=False):
    return _sort_meta(self, dim)


@composite_explicit(
    "sort(Tensor self, int dim=-1, bool descending=False) -> (Tensor values, Tensor indices)"
)
def sort_default(self, dim=-1, descending=False):
    return aten("sort.stable")(self, stable=False, dim=dim, descending=descending)


def _sort_out(
    self: Any, stable: Any, dim: int, descending: bool, values: Tensor, indices: Tensor
) -> tuple[Tensor, Tensor]:
    v, i = aten("sort.stable")(self, stable=stable, dim=dim, descending=descending)
    check_out_dtype_equal(values, v._dtype)
    check_out_dtype_equal(indices, i._dtype)
    write_out(values, v)
    write_out(indices, i)
    return values, indices


@composite_explicit(
    "sort.values_stable(Tensor self, *, bool? stable, int dim=-1, bool descending=False, "
    "Tensor(a!) values, Tensor(b!) indices) -> (Tensor(a!) values, Tensor(b!) indices)"
)
def sort_values_stable(self, *, stable, dim=-1, descending=False, values, indices):
    return _sort_out(self, stable, dim, descending, values, indices)


@composite_explicit(
    "sort.values(Tensor self, int dim=-1, bool descending=False, *, Tensor(a!) values, "
    "Tensor(b!) indices) -> (Tensor(a!) values, Tensor(b!) indices)"
)
def sort_values(self, dim=-1, descending=False, *, values, indices):
    return _sort_out(self, False, dim, descending, values, indices)


@composite("argsort(Tensor self, int dim=-1, bool descending=False) -> Tensor")
def argsort(self, dim=-1, descending=False):
    return aten("sort")(self, dim, descending)[1]


@composite(
    "argsort.stable(Tensor self, *, bool stable, int dim=-1, bool descending=False) -> Tensor"
)
def argsort_stable(self, *, stable, dim=-1, descending=False):
    return aten("sort.stable")(self, stable=stable, dim=dim, descending=descending)[1]


@composite(
    "argsort.stable_out(Tensor self, *, bool stable, int dim=-1, bool descending=False, "
    "Tensor(a!) out) -> Tensor(a!)"
)
def argsort_stable_out(self, *, stable, dim=-1, descending=False, out):
    values = aten("empty.memory_format")([0], dtype=self._dtype, layout=strided, device=self.device)
    aten("sort.values_stable")(
        self, stable=stable, dim=dim, descending=descending, values=values, indices=out
    )
    return out
