"""Reduction operators: schemas, meta functions, decompositions and their in-place/out= forms.

Reductions over dims (sum, mean, prod, nansum, amax/amin, max/min, argmax/argmin, aminmax,
var/std, var_mean/std_mean, norms, logsumexp, all/any, count_nonzero), scans (cumsum,
cumprod), softmax/log_softmax, and order statistics (topk, sort/argsort, median, nanmedian,
mode). The helpers at the top (`reduce_dims`, the zero-size checks, the dtype rules) are shared
with the CPU kernels so both layers raise PyTorch's errors from one place.

Output layout as PyTorch's: reductions, scans, softmax, topk and the order statistics return
contiguous tensors; sort/argsort return tensors laid out like their input (empty_like).
"""

from __future__ import annotations

import math
import warnings
from collections.abc import Sequence
from typing import Any

from ..tensor._tensor import Tensor
from ..tensor.dtype import (
    bool_,
    dtype,
    float32,
    float64,
    get_default_dtype,
    int64,
    promote_types,
    to_dtype,
    uint8,
)
from ..tensor.layout import strided
from . import _shape
from ._define import aten, aten_lib, composite, composite_explicit, defop, meta
from ._meta_util import check, meta_like, new_meta, shape_of
from ._variants import check_out_dtype, resize_output

__all__ = [
    "reduce_dims",
    "out_shape",
    "amax_check",
    "argmax_check",
    "aminmax_check",
    "check_nonempty_input",
    "not_implemented",
    "sort_check",
    "sort_strides",
    "median_check",
    "logsumexp_dims",
    "logsumexp_dtype",
    "all_dims",
    "cpp_type",
    "sum_dtype",
    "mean_dtype",
    "var_dtype",
    "check_empty_dims",
    "check_dim_nonempty",
    "correction_of",
    "warn_dof",
    "norm_dtypes",
    "norm_empty_check",
    "topk_check",
]

# ----------------------------------------------------------------------------- shared helpers

#: c10's C++ type names, as structured kernels print them in out= dtype errors.
_CPP = {
    "float32": "float",
    "float64": "double",
    "float16": "c10::Half",
    "bfloat16": "c10::BFloat16",
    "int64": "long int",
    "int32": "int",
    "int16": "short int",
    "int8": "signed char",
    "uint8": "unsigned char",
    "bool": "bool",
    "complex64": "c10::complex<float>",
    "complex128": "c10::complex<double>",
}


def cpp_type(dt: dtype) -> str:
    return _CPP[dt.name]


def _dt(d: Any) -> dtype | None:
    return None if d is None else to_dtype(d)


def reduce_dims(ndim: int, dim: Any) -> tuple[int, ...]:
    """The wrapped dims a reduction reduces: None or [] mean every dim (a 0-d tensor accepts
    0 and -1). Raises PyTorch's out-of-range and duplicate-dim errors."""
    if dim is None:
        return tuple(range(ndim))
    if isinstance(dim, int):
        return (_shape.wrap_dim(dim, ndim),)
    if len(dim) == 0:
        return tuple(range(ndim))
    if len(dim) == 1:
        return (_shape.wrap_dim(dim[0], ndim),)
    return _shape.wrap_dims(dim, ndim)


def out_shape(shape: tuple[int, ...], dims: tuple[int, ...], keepdim: bool) -> tuple[int, ...]:
    if not shape:
        return ()
    return _shape.reduced_shape(shape, dims, keepdim)


def sum_dtype(self: Tensor, dt: Any) -> dtype:
    """sum/prod/cumsum/nansum: bool and integers accumulate in int64 unless dtype= is given."""
    if dt is not None:
        return to_dtype(dt)
    return int64 if self._dtype.category <= 1 else self._dtype


def mean_dtype(self: Tensor, dt: Any) -> dtype:
    if dt is None:
        d = self._dtype
        check(
            d.category >= 2,
            f"mean(): could not infer output dtype. Input dtype must be either a floating point "
            f"or complex dtype. Got: {d._short}",
        )
        return d
    d = to_dtype(dt)
    check(
        d.category >= 2,
        f"mean(): could not infer output dtype. Optional dtype must be either a floating point "
        f"or complex dtype. Got: {d._short}",
    )
    return d


def var_dtype(self: Tensor, name: str = "std and var") -> dtype:
    """var/std results are real: complex inputs give their real dtype."""
    d = self._dtype
    check(d.category >= 2, f"{name} only support floating point and complex dtypes")
    return d.to_real()


def check_empty_dims(name: str, shape: tuple[int, ...], dim: Any, sep: str = "():") -> None:
    """amax/argmax-style checks: an empty input needs dims, and each reduced dim non-empty
    (the dims are printed as given, as zero_numel_check_dims does)."""
    if _shape.numel(shape) != 0 or not shape:
        return
    dims = [dim] if isinstance(dim, int) else list(dim) if dim is not None else []
    for d in dims:
        w = _shape.wrap_dim(d, len(shape))
        if shape[w] == 0:
            raise IndexError(f"{name}{sep} Expected reduction dim {d} to have non-zero size.")


def check_dim_nonempty(name: str, shape: tuple[int, ...], d: int, sep: str = "():") -> None:
    """The same check for one already-wrapped dim."""
    if shape and shape[d] == 0:
        raise IndexError(f"{name}{sep} Expected reduction dim {d} to have non-zero size.")


def check_nonempty_input(name: str, shape: tuple[int, ...]) -> None:
    if _shape.numel(shape) == 0:
        raise RuntimeError(
            f"{name}(): Expected reduction dim to be specified for input.numel() == 0. Specify "
            f"the reduction dim with the 'dim' argument."
        )


def correction_of(correction: Any) -> float:
    return 1.0 if correction is None else float(correction)


def warn_dof(n: int, correction: float) -> None:
    if n - correction <= 0:
        warnings.warn(
            "var(): degrees of freedom is <= 0. Correction should be strictly less than the "
            "reduction factor (input numel divided by output numel).",
            UserWarning,
            stacklevel=4,
        )


def not_implemented(kernel_name: str, dt: dtype) -> None:
    raise NotImplementedError(f"\"{kernel_name}\" not implemented for '{dt._short}'")


# ----------------------------------------------------------------------------- out= helpers


def _strict_out(out: Tensor, dt: dtype) -> None:
    """Structured kernels' out= check: the dtype must be exactly the result's."""
    if out._dtype is not dt:
        raise RuntimeError(
            f"Expected out tensor to have dtype {cpp_type(dt)}, but got {cpp_type(out._dtype)} "
            f"instead"
        )


def _write_out(out: Tensor, value: Tensor) -> None:
    resize_output(out, value._data.shape)
    aten("copy_")(out, value)


def _out_form(
    schema: str,
    functional: str,
    mode: str = "cast",
    outs: Sequence[str] = ("out",),
) -> None:
    """Define an out= form computed by `functional` with PyTorch's dtype rule for `out`:
    "cast" (can-cast check), "strict" (dtypes equal), "infer" (a missing dtype= is taken from
    out, as structured sum/prod/cumsum do)."""
    op = defop(schema)
    fn = aten(functional)
    names = tuple(outs)

    def out_kernel(*args: Any, **kwargs: Any) -> Any:
        targets = [kwargs.pop(n) for n in names]
        if mode == "infer" and kwargs.get("dtype") is None:
            kwargs["dtype"] = targets[0]._dtype
        result = fn(*args, **kwargs)
        results = result if isinstance(result, tuple) else (result,)
        for target, value in zip(targets, results):
            if mode != "cast":
                _strict_out(target, value._dtype)
            else:
                check_out_dtype(target, value._dtype)
        for target, value in zip(targets, results):
            _write_out(target, value)
        return targets[0] if len(targets) == 1 else tuple(targets)

    out_kernel.__name__ = op.__name__
    aten_lib.impl(op, out_kernel, "CompositeExplicitAutograd")


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


_out_form(
    "sum.IntList_out(Tensor self, int[1]? dim, bool keepdim=False, *, ScalarType? dtype=None, "
    "Tensor(a!) out) -> Tensor(a!)",
    "sum.dim_IntList",
    "infer",
)
_out_form(
    "sum.out(Tensor self, *, ScalarType? dtype=None, Tensor(a!) out) -> Tensor(a!)",
    "sum",
    "strict",
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
    _strict_out(out, dt)
    # PyTorch sums into out, then divides in place: an integral out refuses the float quotient.
    check(
        dt.category >= 2,
        f"result type {get_default_dtype()._short} can't be cast to the desired output type "
        f"{dt._short}",
    )
    _write_out(out, aten("mean.dim")(self, dim, keepdim, dtype=dt))
    return out


@composite_explicit(
    "mean.dtype_out(Tensor self, *, ScalarType? dtype=None, Tensor(a!) out) -> Tensor(a!)"
)
def mean_dtype_out(self, *, dtype=None, out):
    result = aten("mean")(self, dtype=dtype)
    _strict_out(out, result._dtype)
    _write_out(out, result)
    return out


@meta("prod(Tensor self, *, ScalarType? dtype=None) -> Tensor")
def prod_default(self, *, dtype=None):
    return new_meta((), sum_dtype(self, dtype))


@meta("prod.dim_int(Tensor self, int dim, bool keepdim=False, *, ScalarType? dtype=None) -> Tensor")
def prod_dim_int(self, dim, keepdim=False, *, dtype=None):
    shape = shape_of(self)
    oshape = out_shape(shape, reduce_dims(len(shape), dim), keepdim)
    return new_meta(oshape, sum_dtype(self, dtype))


_out_form(
    "prod.int_out(Tensor self, int dim, bool keepdim=False, *, ScalarType? dtype=None, "
    "Tensor(a!) out) -> Tensor(a!)",
    "prod.dim_int",
    "infer",
)
_out_form(
    "prod.out(Tensor self, *, ScalarType? dtype=None, Tensor(a!) out) -> Tensor(a!)",
    "prod",
    "strict",
)


@meta(
    "nansum(Tensor self, int[1]? dim=None, bool keepdim=False, *, ScalarType? dtype=None) -> Tensor"
)
def nansum(self, dim=None, keepdim=False, *, dtype=None):
    check(not self._dtype.is_complex, "nansum on CPU does not support complex inputs")
    shape = shape_of(self)
    oshape = out_shape(shape, reduce_dims(len(shape), dim), keepdim)
    return new_meta(oshape, sum_dtype(self, dtype))


_out_form(
    "nansum.out(Tensor self, int[1]? dim=None, bool keepdim=False, *, ScalarType? dtype=None, "
    "Tensor(a!) out) -> Tensor(a!)",
    "nansum",
    "infer",
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


def _amax_out(name: str) -> None:
    op = defop(
        f"{name}.out(Tensor self, int[1] dim=[], bool keepdim=False, *, Tensor(a!) out) "
        f"-> Tensor(a!)"
    )
    fn = aten(name)

    def out_kernel(self, dim=(), keepdim=False, *, out):
        result = fn(self, dim, keepdim)
        if out._dtype is not self._dtype:
            raise RuntimeError(
                f"Expected the dtype for input and out to match, but got {self._dtype._short} "
                f"for input's dtype and {out._dtype._short} for out's dtype."
            )
        _write_out(out, result)
        return out

    aten_lib.impl(op, out_kernel, "CompositeExplicitAutograd")


_amax_out("amax")
_amax_out("amin")


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


_out_form(
    "max.dim_max(Tensor self, int dim, bool keepdim=False, *, Tensor(a!) max, Tensor(b!) "
    "max_values) -> (Tensor(a!) values, Tensor(b!) indices)",
    "max.dim",
    "strict",
    ("max", "max_values"),
)
_out_form(
    "min.dim_min(Tensor self, int dim, bool keepdim=False, *, Tensor(a!) min, Tensor(b!) "
    "min_indices) -> (Tensor(a!) values, Tensor(b!) indices)",
    "min.dim",
    "strict",
    ("min", "min_indices"),
)
_out_form("max.unary_out(Tensor self, *, Tensor(a!) out) -> Tensor(a!)", "max", "cast")
_out_form("min.unary_out(Tensor self, *, Tensor(a!) out) -> Tensor(a!)", "min", "cast")


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


_out_form(
    "argmax.out(Tensor self, int? dim=None, bool keepdim=False, *, Tensor(a!) out) -> Tensor(a!)",
    "argmax",
    "strict",
)
_out_form(
    "argmin.out(Tensor self, int? dim=None, bool keepdim=False, *, Tensor(a!) out) -> Tensor(a!)",
    "argmin",
    "strict",
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


_out_form(
    "aminmax.out(Tensor self, *, int? dim=None, bool keepdim=False, Tensor(a!) min, Tensor(b!) "
    "max) -> (Tensor(a!) min, Tensor(b!) max)",
    "aminmax",
    "strict",
    ("min", "max"),
)


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
        _write_out(out, result)
        return out

    out_kernel.__name__ = op.__name__
    aten_lib.impl(op, out_kernel, "CompositeExplicitAutograd")


_var_out("var")
_var_out("std")
_out_form(
    f"var_mean.correction_out(Tensor self, {_CORR}, Tensor(a!) out0, Tensor(b!) out1) -> "
    f"(Tensor(a!), Tensor(b!))",
    "var_mean.correction",
    "strict",
    ("out0", "out1"),
)
_out_form(
    f"std_mean.correction_out(Tensor self, {_CORR}, Tensor(a!) out0, Tensor(b!) out1) -> "
    f"(Tensor(a!), Tensor(b!))",
    "std_mean.correction",
    "strict",
    ("out0", "out1"),
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


# ----------------------------------------------------------------------------- norms


def _fmt_ord(ord: Any) -> str:
    """A Scalar as c10 prints it (doubles with ostream's %g-like format)."""
    if isinstance(ord, bool):
        return str(int(ord))
    if isinstance(ord, int):
        return str(ord)
    return f"{float(ord):g}"


def norm_dtypes(self: Tensor, dt: Any) -> tuple[dtype, dtype]:
    """linalg.vector_norm: (dtype to compute in, result dtype), with PyTorch's checks."""
    sd = self._dtype
    check(
        sd.category >= 2,
        f"linalg.vector_norm: Expected a floating point or complex tensor as input. Got "
        f"{sd._short}",
    )
    if dt is None:
        return sd, sd.to_real()
    d = to_dtype(dt)
    check(
        d.category >= 2,
        f"linalg.vector_norm: dtype should be floating point or complex, but got {d._short}",
    )
    check(
        d.is_complex == sd.is_complex,
        f"linalg.vector_norm: dtype should be {'complex' if sd.is_complex else 'real'} for "
        f"{'complex' if sd.is_complex else 'real'} inputs, but got {d._short}",
    )
    check(
        promote_types(sd, d) is d,
        f"linalg.vector_norm: the dtype of the input ({sd._short}) should be convertible without "
        f"narrowing to the specified dtype ({d._short})",
    )
    return d, d.to_real()


def norm_empty_check(shape: tuple[int, ...], ord: Any, dim: Any) -> None:
    """Negative and infinite norms have no identity: refuse empty reductions."""
    if _shape.numel(shape) != 0:
        return
    o = float(ord)
    if not (o < 0 or o == math.inf):
        return
    if dim is None or (not isinstance(dim, int) and len(dim) == 0):
        raise RuntimeError(
            f"linalg.vector_norm cannot compute the {_fmt_ord(ord)} norm on an empty tensor "
            f"because the operation does not have an identity"
        )
    for d in [dim] if isinstance(dim, int) else dim:
        w = _shape.wrap_dim(d, len(shape))
        if shape and shape[w] == 0:
            raise RuntimeError(
                f"linalg.vector_norm cannot compute the {_fmt_ord(ord)} norm on the dimension "
                f"{d}because this dimension is empty and the operation does not have an identity"
            )


@meta(
    "linalg_vector_norm(Tensor self, Scalar ord=2, int[1]? dim=None, bool keepdim=False, *, "
    "ScalarType? dtype=None) -> Tensor"
)
def linalg_vector_norm(self, ord=2, dim=None, keepdim=False, *, dtype=None):
    _, out_dt = norm_dtypes(self, dtype)
    shape = shape_of(self)
    dims = reduce_dims(len(shape), dim)
    norm_empty_check(shape, ord, dim)
    return new_meta(out_shape(shape, dims, keepdim), out_dt)


_out_form(
    "linalg_vector_norm.out(Tensor self, Scalar ord=2, int[1]? dim=None, bool keepdim=False, *, "
    "ScalarType? dtype=None, Tensor(a!) out) -> Tensor(a!)",
    "linalg_vector_norm",
    "strict",
)


def _norm_checks(self: Tensor, dt: Any) -> None:
    check(
        self._dtype.category >= 2,
        f"norm(): input dtype should be either floating point or complex. Got "
        f"{self._dtype._short} instead.",
    )
    if dt is not None:
        d = to_dtype(dt)
        check(
            d.category >= 2,
            f"norm(): the desired output dtype should be either floating point or complex. Got "
            f"{d._short} instead.",
        )


def _norm(self: Tensor, p: Any, dim: Any, keepdim: bool, dt: Any) -> Tensor:
    _norm_checks(self, dt)
    vn = aten("linalg_vector_norm")
    p = 2 if p is None else p
    if dt is None:
        return vn(self, p, dim, keepdim)
    return vn(self, p, dim, keepdim, dtype=dt)


@composite_explicit("norm.Scalar(Tensor self, Scalar p=2) -> Tensor")
def norm_Scalar(self, p=2):
    return _norm(self, p, None, False, None)


@composite_explicit(
    "norm.ScalarOpt_dim(Tensor self, Scalar? p, int[1] dim, bool keepdim=False) -> Tensor"
)
def norm_ScalarOpt_dim(self, p, dim, keepdim=False):
    return _norm(self, p, dim, keepdim, None)


@composite_explicit(
    "norm.ScalarOpt_dim_dtype(Tensor self, Scalar? p, int[1] dim, bool keepdim, *, ScalarType "
    "dtype) -> Tensor"
)
def norm_ScalarOpt_dim_dtype(self, p, dim, keepdim, *, dtype):
    return _norm(self, p, dim, keepdim, dtype)


@composite_explicit("norm.ScalarOpt_dtype(Tensor self, Scalar? p, *, ScalarType dtype) -> Tensor")
def norm_ScalarOpt_dtype(self, p, *, dtype):
    return _norm(self, p, None, False, dtype)


_out_form(
    "norm.dtype_out(Tensor self, Scalar? p, int[1] dim, bool keepdim, *, ScalarType dtype, "
    "Tensor(a!) out) -> Tensor(a!)",
    "norm.ScalarOpt_dim_dtype",
    "strict",
)
_out_form(
    "norm.out(Tensor self, Scalar? p, int[1] dim, bool keepdim=False, *, Tensor(a!) out) -> "
    "Tensor(a!)",
    "norm.ScalarOpt_dim",
    "strict",
)
_out_form(
    "norm.ScalarOpt_dtype_out(Tensor self, Scalar? p, *, ScalarType dtype, Tensor(a!) out) -> "
    "Tensor(a!)",
    "norm.ScalarOpt_dtype",
    "strict",
)
_out_form(
    "norm.Scalar_out(Tensor self, Scalar p=2, *, Tensor(a!) out) -> Tensor(a!)",
    "norm.Scalar",
    "strict",
)


# ----------------------------------------------------------------------------- logsumexp


def logsumexp_dims(self: Tensor, dim: Any) -> tuple[int, ...]:
    shape = shape_of(self)
    if not isinstance(dim, int) and len(dim) == 0 and shape:
        # PyTorch adds amax(keepdim=True) (all ones) to a sum over no dims (shape []).
        raise RuntimeError(
            f"output with shape [] doesn't match the broadcast shape {[1] * len(shape)}"
        )
    return reduce_dims(len(shape), dim)


def logsumexp_dtype(self: Tensor) -> dtype:
    return self._dtype if self._dtype.category >= 2 else get_default_dtype()


@meta("logsumexp(Tensor self, int[1] dim, bool keepdim=False) -> Tensor")
def logsumexp(self, dim, keepdim=False):
    dims = logsumexp_dims(self, dim)
    return new_meta(out_shape(shape_of(self), dims, keepdim), logsumexp_dtype(self))


@composite_explicit(
    "logsumexp.out(Tensor self, int[1] dim, bool keepdim=False, *, Tensor(a!) out) -> Tensor(a!)"
)
def logsumexp_out(self, dim, keepdim=False, *, out):
    check(
        out._dtype.category >= 2,
        f"logsumexp(): Expected floating point type for result tensor, but got: "
        f"{out._dtype._short}",
    )
    src = self if self._dtype is out._dtype else aten("_to_copy")(self, dtype=out._dtype)
    result = aten("logsumexp")(src, dim, keepdim)
    _write_out(out, result)
    return out


# ----------------------------------------------------------------------------- softmax


def _softmax_meta(self: Tensor, dim: int, half_to_float: bool) -> Tensor:
    shape = shape_of(self)
    _shape.wrap_dim(dim, len(shape))
    return new_meta(shape, float32 if half_to_float else self._dtype)


@meta("_softmax(Tensor self, int dim, bool half_to_float) -> Tensor")
def _softmax(self, dim, half_to_float):
    return _softmax_meta(self, dim, half_to_float)


@meta("_log_softmax(Tensor self, int dim, bool half_to_float) -> Tensor")
def _log_softmax(self, dim, half_to_float):
    return _softmax_meta(self, dim, half_to_float)


_out_form(
    "_softmax.out(Tensor self, int dim, bool half_to_float, *, Tensor(a!) out) -> Tensor(a!)",
    "_softmax",
    "strict",
)
_out_form(
    "_log_softmax.out(Tensor self, int dim, bool half_to_float, *, Tensor(a!) out) -> Tensor(a!)",
    "_log_softmax",
    "strict",
)


def _to_type(self: Tensor, dt: Any) -> Tensor:
    """Tensor::toType: a copy in dtype dt (self when it already has it), as `_to_copy` with
    the options PyTorch passes."""
    d = to_dtype(dt)
    if d is self._dtype:
        return self
    return aten("_to_copy")(self, dtype=d, layout=strided, device=self.device)


def _softmax_composite(name: str) -> None:
    inner = aten(f"_{name}")

    def fn(self, dim, dtype=None):
        converted = self if dtype is None else _to_type(self, dtype)
        return inner(converted, dim, False)

    fn.__name__ = name
    composite(f"{name}.int(Tensor self, int dim, ScalarType? dtype=None) -> Tensor")(fn)

    op = defop(
        f"{name}.int_out(Tensor self, int dim, ScalarType? dtype=None, *, Tensor(a!) out) -> "
        f"Tensor(a!)"
    )

    def out_fn(self, dim, dtype=None, *, out):
        converted = self if dtype is None else _to_type(self, dtype)
        return aten(f"_{name}.out")(converted, dim, False, out=out)

    aten_lib.impl(op, out_fn, "CompositeExplicitAutograd")


_softmax_composite("softmax")
_softmax_composite("log_softmax")


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
            f"Bad in-place call: input tensor dtype {cpp_type(self._dtype)} and output tensor "
            f"dtype {cpp_type(to_dtype(dt))} should match"
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
_out_form(
    "cumsum.out(Tensor self, int dim, *, ScalarType? dtype=None, Tensor(a!) out) -> Tensor(a!)",
    "cumsum",
    "infer",
)
_out_form(
    "cumprod.out(Tensor self, int dim, *, ScalarType? dtype=None, Tensor(a!) out) -> Tensor(a!)",
    "cumprod",
    "infer",
)


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
            _write_out(out, fn(*args, **kwargs))
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


_out_form(
    "count_nonzero.dim_IntList_out(Tensor self, int[] dim, *, Tensor(a!) out) -> Tensor(a!)",
    "count_nonzero.dim_IntList",
    "strict",
)
_out_form(
    "count_nonzero.out(Tensor self, int? dim=None, *, Tensor(a!) out) -> Tensor(a!)",
    "count_nonzero",
    "strict",
)


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


_out_form(
    "topk.values(Tensor self, SymInt k, int dim=-1, bool largest=True, bool sorted=True, *, "
    "Tensor(a!) values, Tensor(b!) indices) -> (Tensor(a!) values, Tensor(b!) indices)",
    "topk",
    "strict",
    ("values", "indices"),
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
    _strict_out(values, v._dtype)
    _strict_out(indices, i._dtype)
    _write_out(values, v)
    _write_out(indices, i)
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
        _write_out(values, v)
        _write_out(indices, i)
        return values, indices

    aten_lib.impl(op, out_kernel, "CompositeExplicitAutograd")


_median_values_out("median")
_median_values_out("nanmedian")
_out_form("median.out(Tensor self, *, Tensor(a!) out) -> Tensor(a!)", "median", "strict")
_out_form("nanmedian.out(Tensor self, *, Tensor(a!) out) -> Tensor(a!)", "nanmedian", "strict")


@meta("mode(Tensor self, int dim=-1, bool keepdim=False) -> (Tensor values, Tensor indices)")
def mode(self, dim=-1, keepdim=False):
    d = self._dtype
    if d.is_complex:
        not_implemented("mode_cpu", d)
    shape = shape_of(self)
    w = _shape.wrap_dim(dim, len(shape))
    oshape = out_shape(shape, (w,), keepdim)
    return new_meta(oshape, d), new_meta(oshape, int64)


_out_form(
    "mode.values(Tensor self, int dim=-1, bool keepdim=False, *, Tensor(a!) values, Tensor(b!) "
    "indices) -> (Tensor(a!) values, Tensor(b!) indices)",
    "mode",
    "strict",
    ("values", "indices"),
)

del float64
