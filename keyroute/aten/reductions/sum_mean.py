"""sum, mean, prod and nansum: meta functions and out= forms."""

from __future__ import annotations

from ...tensor.dtype import (
    get_default_dtype,
    to_dtype,
)
from .._define import aten, composite_explicit, meta
from .._meta_util import check, new_meta, shape_of
from .._variants import check_out_dtype_equal, dtype_from_out, out_variant, same_dtype, write_out
from .rules import mean_dtype, out_shape, reduce_dims, sum_dtype

# ----------------------------------------------------------------------------- sum / mean / prod


@meta("sum(Tensor self, *, ScalarType? dtype=None) -> Tensor")
def sum_default(self, *, dtype=None):
    return new_meta((), sum_dtype(self, dtype))


@meta(
    "sum.dim_IntList(Tensor self, int[1]? dim, bool keepdim=False, *, ScalarType? dtype=None) "
    "-> Tensor"
)
def sum_dim_IntList(self, dim, keepdim=False, *, dtype=None):
    shape = shape_of(self)
    oshape = out_shape(shape, reduce_dims(len(shape), dim), keepdim)
    return new_meta(oshape, sum_dtype(self, dtype))


out_variant(
    "sum.IntList_out(Tensor self, int[1]? dim, bool keepdim=False, *, ScalarType? dtype=None, "
    "Tensor(a!) out) -> Tensor(a!)",
    "sum.dim_IntList",
    check=same_dtype,
    before=dtype_from_out,
)
out_variant(
    "sum.out(Tensor self, *, ScalarType? dtype=None, Tensor(a!) out) -> Tensor(a!)",
    "sum",
    check=same_dtype,
)


@meta("mean(Tensor self, *, ScalarType? dtype=None) -> Tensor")
def mean_default(self, *, dtype=None):
    return new_meta((), mean_dtype(self, dtype))


@meta("mean.dim(Tensor self, int[1]? dim, bool keepdim=False, *, ScalarType? dtype=None) -> Tensor")
def mean_dim(self, dim, keepdim=False, *, dtype=None):
    dt = mean_dtype(self, dtype)
    shape = shape_of(self)
    return new_meta(out_shape(shape, reduce_dims(len(shape), dim), keepdim), dt)


@composite_explicit(
    "mean.out(Tensor self, int[1]? dim, bool keepdim=False, *, ScalarType? dtype=None, "
    "Tensor(a!) out) -> Tensor(a!)"
)
def mean_out(self, dim, keepdim=False, *, dtype=None, out):
    mean_dtype(self, dtype)  # the input's dtype is checked before out's is used
    dt = out._dtype if dtype is None else to_dtype(dtype)
    check_out_dtype_equal(out, dt)
    # PyTorch sums into out, then divides in place: an integral out refuses the float quotient.
    check(
        dt.category >= 2,
        f"result type {get_default_dtype()._short} can't be cast to the desired output type "
        f"{dt._short}",
    )
    write_out(out, aten("mean.dim")(self, dim, keepdim, dtype=dt))
    return out


@composite_explicit(
    "mean.dtype_out(Tensor self, *, ScalarType? dtype=None, Tensor(a!) out) -> Tensor(a!)"
)
def mean_dtype_out(self, *, dtype=None, out):
    result = aten("mean")(self, dtype=dtype)
    check_out_dtype_equal(out, result._dtype)
    write_out(out, result)
    return out


@meta("prod(Tensor self, *, ScalarType? dtype=None) -> Tensor")
def prod_default(self, *, dtype=None):
    return new_meta((), sum_dtype(self, dtype))


@meta("prod.dim_int(Tensor self, int dim, bool keepdim=False, *, ScalarType? dtype=None) -> Tensor")
def prod_dim_int(self, dim, keepdim=False, *, dtype=None):
    shape = shape_of(self)
    oshape = out_shape(shape, reduce_dims(len(shape), dim), keepdim)
    return new_meta(oshape, sum_dtype(self, dtype))


out_variant(
    "prod.int_out(Tensor self, int dim, bool keepdim=False, *, ScalarType? dtype=None, "
    "Tensor(a!) out) -> Tensor(a!)",
    "prod.dim_int",
    check=same_dtype,
    before=dtype_from_out,
)
out_variant(
    "prod.out(Tensor self, *, ScalarType? dtype=None, Tensor(a!) out) -> Tensor(a!)",
    "prod",
    check=same_dtype,
)


@meta(
    "nansum(Tensor self, int[1]? dim=None, bool keepdim=False, *, ScalarType? dtype=None) -> Tensor"
)
def nansum(self, dim=None, keepdim=False, *, dtype=None):
    check(not self._dtype.is_complex, "nansum on CPU does not support complex inputs")
    shape = shape_of(self)
    oshape = out_shape(shape, reduce_dims(len(shape), dim), keepdim)
    return new_meta(oshape, sum_dtype(self, dtype))


out_variant(
    "nansum.out(Tensor self, int[1]? dim=None, bool keepdim=False, *, ScalarType? dtype=None, "
    "Tensor(a!) out) -> Tensor(a!)",
    "nansum",
    check=same_dtype,
    before=dtype_from_out,
)
