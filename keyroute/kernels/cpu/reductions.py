"""CPU kernels of the reduction operators: NumPy's ufunc reductions with PyTorch's dtype rules.

Kernels call `np.add.reduce`, `np.maximum.reduce`, ... directly (the `ndarray.sum`-style
methods add a Python layer each). float16/bfloat16 accumulate in float32 and round once, as
PyTorch's CPU kernels do; integers and bool sum/prod/cumsum in int64. Validation (dims, dtypes,
empty reductions) comes from keyroute/aten/reductions/rules.py, shared with the meta functions.
"""

from __future__ import annotations

from typing import Any

import numpy as np

from ...aten import _shape
from ...aten import reductions as aten_reductions
from ...tensor._tensor import Tensor
from ...tensor.dtype import (
    bfloat16,
    bool_,
    dtype,
    float16,
    float32,
    float64,
    get_default_dtype,
    int64,
    to_dtype,
    uint8,
)
from ...tensor.meta_array import contiguous_strides
from ._kernel import kernel, wrap
from .cascade_sum import cascade_sum

ndarray = np.ndarray
_as_strided = np.lib.stride_tricks.as_strided
_add = np.add.reduce
_mul = np.multiply.reduce
_max = np.maximum.reduce
_min = np.minimum.reduce
_I64 = np.dtype(np.int64)


# ----------------------------------------------------------------------------- helpers


def _fix_empty(a: np.ndarray) -> np.ndarray:
    """NumPy gives zero-size arrays zero strides; PyTorch gives them contiguous ones."""
    item = a.itemsize
    st = tuple(s * item for s in contiguous_strides(a.shape))
    return _as_strided(np.empty(1, a.dtype), a.shape, st)


def _c_layout(a: np.ndarray) -> np.ndarray:
    """`a` with PyTorch's contiguous strides (NumPy reductions of a non-contiguous input follow
    the input's memory order, and size-1 dims may keep any stride)."""
    if not a.flags.c_contiguous:
        a = np.ascontiguousarray(a)
    if a.ndim < 2:
        return a
    item = a.itemsize
    st = tuple(s * item for s in contiguous_strides(a.shape))
    return a if a.strides == st else _as_strided(a, a.shape, st)


def _wrap(a: Any, dt: dtype, src: np.ndarray | None = None) -> Tensor:
    """A fresh result as a contiguous tensor of dtype dt (NumPy scalars become 0-d arrays).
    `src`, the input array, tells whether NumPy may have picked a non-C layout."""
    if a.__class__ is not ndarray:
        a = np.asarray(a, dtype=dt.np)
    elif a.dtype != dt.np:
        a = a.astype(dt.np)
    if a.size == 0:
        a = _fix_empty(a)
    elif src is not None and not src.flags.c_contiguous:
        a = _c_layout(a)
    return wrap(a, dt)


def _acc(dt: dtype) -> Any:
    """The NumPy dtype a reduction to dt accumulates in (half types: float32)."""
    if dt is float16 or dt is bfloat16:
        return np.float32
    return dt.np


def _cast(a: np.ndarray, np_dtype: Any) -> np.ndarray:
    return a if a.dtype == np_dtype else a.astype(np_dtype)


def _axis(ndim: int, dim: Any) -> Any:
    """NumPy's axis for a reduction over `dim` (None/[] = all): an int, a tuple, or None."""
    if dim is None:
        return None
    if dim.__class__ is int:
        d = dim
    else:
        n = len(dim)
        if n == 1:
            d = dim[0]
        elif n == 0:
            return None
        else:
            dims = aten_reductions.reduce_dims(ndim, dim)
            return dims if ndim else None
    if ndim and -ndim <= d < ndim:
        return d
    _shape.wrap_dim(d, ndim)  # raises unless a 0-d tensor's 0/-1
    return None


def _count(a: np.ndarray, r: Any) -> int:
    """Elements reduced into each output element."""
    rs = r.size if r.__class__ is ndarray else 1
    return a.size // rs if rs else 1


def _dim1(ndim: int, dim: int) -> int:
    """A single wrapped dim (0 for a 0-d tensor)."""
    if ndim and -ndim <= dim < ndim:
        return dim + ndim if dim < 0 else dim
    return _shape.wrap_dim(dim, ndim)


def _sort_layout(self: Tensor, np_dtype: Any) -> np.ndarray:
    """An uninitialised array laid out as sort's outputs: self's dense strides (see
    aten.reductions.sort_strides)."""
    a = self._data
    strides = aten_reductions.sort_strides(self)
    item = np.dtype(np_dtype).itemsize
    n = max(_shape.numel(a.shape), 1)
    return _as_strided(np.empty(n, np_dtype), a.shape, tuple(s * item for s in strides))


def _sortable(a: np.ndarray) -> np.ndarray:
    # bfloat16 sorts through float32 (exact) so NaNs order as NumPy's float sort orders them.
    return a.astype(np.float32) if a.dtype == bfloat16.np else a


def _argsort(a: np.ndarray, axis: int, descending: bool) -> np.ndarray:
    """Stable argsort along axis; NaN is the largest value (last ascending, first descending),
    equal values keep their original order in both directions."""
    a = _sortable(a)
    if not descending:
        return np.argsort(a, axis=axis, kind="stable")
    n = a.shape[axis]
    idx = np.argsort(np.flip(a, axis), axis=axis, kind="stable")
    return (n - 1) - np.flip(idx, axis)


# ----------------------------------------------------------------------------- sum / mean / prod


def _add_reduce(a: np.ndarray, axis: Any, keepdim: bool) -> Any:
    """A float32/float64 sum in PyTorch's cascade order where modelled; NumPy's otherwise."""
    if a.dtype.char in "fd":
        r = cascade_sum(a, axis, keepdim)
        if r is not None:
            return _c_layout(r)
    return _add(a, axis, None, None, keepdim)


def _sum_like(ufunc: Any, self: Tensor, dim: Any, keepdim: bool, dt: dtype) -> Tensor:
    a = self._data
    axis = _axis(a.ndim, dim)
    acc = _acc(dt)
    src = a
    if a.dtype != acc:
        a = a.astype(acc)
    if ufunc is _add:
        return _wrap(_add_reduce(a, axis, keepdim), dt, src)
    return _wrap(ufunc(a, axis, None, None, keepdim), dt, src)


@kernel("sum")
def sum_default(self: Tensor, *, dtype: Any = None) -> Tensor:
    return _sum_like(_add, self, None, False, aten_reductions.sum_dtype(self, dtype))


@kernel("sum.dim_IntList")
def sum_dim_IntList(self: Tensor, dim: Any, keepdim: bool = False, *, dtype: Any = None) -> Tensor:
    return _sum_like(_add, self, dim, keepdim, aten_reductions.sum_dtype(self, dtype))


@kernel("prod")
def prod_default(self: Tensor, *, dtype: Any = None) -> Tensor:
    return _sum_like(_mul, self, None, False, aten_reductions.sum_dtype(self, dtype))


@kernel("prod.dim_int")
def prod_dim_int(self: Tensor, dim: int, keepdim: bool = False, *, dtype: Any = None) -> Tensor:
    return _sum_like(_mul, self, dim, keepdim, aten_reductions.sum_dtype(self, dtype))


def _mean(self: Tensor, dim: Any, keepdim: bool, dtype: Any) -> Tensor:
    sdt = self._dtype
    dt = sdt if dtype is None and sdt.category >= 2 else aten_reductions.mean_dtype(self, dtype)
    a = self._data
    axis = _axis(a.ndim, dim)
    acc = _acc(dt)
    src = a
    if a.dtype != acc:
        a = a.astype(acc)
    r = _add_reduce(a, axis, keepdim)
    n = a.shape[axis] if axis.__class__ is int else _count(a, r)
    # np.errstate costs more than this whole kernel: only the empty case needs it (0/0).
    if not n:
        r = np.full(np.shape(r), np.nan, r.dtype)
    elif r.__class__ is ndarray:
        np.true_divide(r, n, out=r)
    else:
        r = r / n
    return _wrap(r, dt, src)


@kernel("mean")
def mean_default(self: Tensor, *, dtype: Any = None) -> Tensor:
    return _mean(self, None, False, dtype)


@kernel("mean.dim")
def mean_dim(self: Tensor, dim: Any, keepdim: bool = False, *, dtype: Any = None) -> Tensor:
    return _mean(self, dim, keepdim, dtype)


@kernel("nansum")
def nansum(self: Tensor, dim: Any = None, keepdim: bool = False, *, dtype: Any = None) -> Tensor:
    sdt = self._dtype
    if sdt.is_complex:
        raise RuntimeError("nansum on CPU does not support complex inputs")
    dt = aten_reductions.sum_dtype(self, dtype)
    if sdt.category <= 1:
        return _sum_like(_add, self, dim, keepdim, dt)
    if dt.category < 2:
        raise NotImplementedError(f"\"nansum_cpu\" not implemented for '{dt._short}'")
    a = self._data
    axis = _axis(a.ndim, dim)
    a = _cast(a, _acc(dt))
    src = self._data
    a = np.where(np.isnan(a), a.dtype.type(0), a)
    return _wrap(_add(a, axis, None, None, keepdim), dt, src)


# ----------------------------------------------------------------------------- amax / max / argmax


def _amax(name: str, ufunc: Any, self: Tensor, dim: Any, keepdim: bool) -> Tensor:
    a = self._data
    axis = _axis(a.ndim, dim)
    if a.size == 0:
        aten_reductions.amax_check(name, a.shape, dim)
    if self._dtype.is_complex:
        aten_reductions.not_implemented(f"{name[1:]}_values_cpu", self._dtype)
    r = ufunc(a, axis, None, None, keepdim)
    return _wrap(_first_of_zeros(r, a, axis, keepdim, ufunc is _max), self._dtype, a)


def _first_of_zeros(r: Any, a: np.ndarray, axis: Any, keepdim: bool, is_max: bool) -> Any:
    """-0.0 and 0.0 compare equal: PyTorch's amax/amin keep the first of them (their loops
    replace the running value only on a strict comparison), NumPy's keep a later one (as
    PyTorch's max()/min() of all elements do, so those are left to NumPy).
    Where the result is a zero, take the first extreme along the reduced dims (argmax/argmin
    give the first). Costs a pass only when a floating result holds a zero."""
    if a.dtype.kind != "f" or not a.size:
        return r
    zero = r == 0
    if not np.any(zero):
        return r
    axes = tuple(range(a.ndim)) if axis is None else (axis,) if axis.__class__ is int else axis
    axes = tuple(d % a.ndim for d in axes) if a.ndim else ()
    kept = [d for d in range(a.ndim) if d not in axes]
    b = a.transpose(*kept, *axes).reshape(*(a.shape[d] for d in kept), -1)
    pick = (np.argmax if is_max else np.argmin)(b, axis=-1)
    first = np.take_along_axis(b, pick[..., None], axis=-1)[..., 0]
    first = first.reshape(np.shape(r))
    if np.ndim(r) == 0:
        return first[()] if zero else r
    out = np.array(r, copy=True)
    np.copyto(out, first, where=zero)
    return out


@kernel("amax")
def amax(self: Tensor, dim: Any = (), keepdim: bool = False) -> Tensor:
    return _amax("amax", _max, self, dim, keepdim)


@kernel("amin")
def amin(self: Tensor, dim: Any = (), keepdim: bool = False) -> Tensor:
    return _amax("amin", _min, self, dim, keepdim)


@kernel("max")
def max_default(self: Tensor) -> Tensor:
    aten_reductions.check_nonempty_input("max", self._data.shape)
    if self._dtype.is_complex:
        aten_reductions.not_implemented("max_all", self._dtype)
    return _wrap(_max(self._data, None), self._dtype)


@kernel("min")
def min_default(self: Tensor) -> Tensor:
    aten_reductions.check_nonempty_input("min", self._data.shape)
    if self._dtype.is_complex:
        aten_reductions.not_implemented("min_all", self._dtype)
    return _wrap(_min(self._data, None), self._dtype)


def _max_dim(name: str, self: Tensor, dim: int, keepdim: bool) -> tuple[Tensor, Tensor]:
    a = self._data
    d = _dim1(a.ndim, dim)
    aten_reductions.check_dim_nonempty(name, a.shape, d)
    if self._dtype.is_complex:
        raise RuntimeError(f"{name}(): does not support complex input")
    if a.ndim == 0:
        return _wrap(a.copy(), self._dtype), _wrap(np.zeros((), np.int64), int64)
    s = _sortable(a)
    arg = np.argmax if name == "max" else np.argmin
    idx = arg(s, axis=d, keepdims=keepdim)
    values = (_max if name == "max" else _min)(a, d, None, None, keepdim)
    return _wrap(values, self._dtype, a), _wrap(idx, int64, a)


@kernel("max.dim")
def max_dim(self: Tensor, dim: int, keepdim: bool = False) -> tuple[Tensor, Tensor]:
    return _max_dim("max", self, dim, keepdim)


@kernel("min.dim")
def min_dim(self: Tensor, dim: int, keepdim: bool = False) -> tuple[Tensor, Tensor]:
    return _max_dim("min", self, dim, keepdim)


def _argmax(name: str, self: Tensor, dim: Any, keepdim: bool) -> Tensor:
    aten_reductions.argmax_check(name, self, dim)
    a = _sortable(self._data)
    arg = np.argmax if name == "argmax" else np.argmin
    if a.ndim == 0:
        return _wrap(np.zeros((), np.int64), int64)
    if dim is None:
        r = arg(a)
        if keepdim:
            r = np.full((1,) * a.ndim, r, np.int64)
        return _wrap(r, int64)
    return _wrap(arg(a, axis=dim, keepdims=keepdim), int64, a)


@kernel("argmax")
def argmax(self: Tensor, dim: Any = None, keepdim: bool = False) -> Tensor:
    return _argmax("argmax", self, dim, keepdim)


@kernel("argmin")
def argmin(self: Tensor, dim: Any = None, keepdim: bool = False) -> Tensor:
    return _argmax("argmin", self, dim, keepdim)


@kernel("aminmax")
def aminmax(self: Tensor, *, dim: Any = None, keepdim: bool = False) -> tuple[Tensor, Tensor]:
    dims = aten_reductions.aminmax_check(self, dim)
    if self._dtype.is_complex:
        aten_reductions.not_implemented("aminmax_cpu", self._dtype)
    a = self._data
    axis = None if dim is None or not a.ndim else dims[0]
    dt = self._dtype
    lo = _min(a, axis, None, None, keepdim)
    hi = _max(a, axis, None, None, keepdim)
    return _wrap(lo, dt, a), _wrap(hi, dt, a)


# ----------------------------------------------------------------------------- var / std


def _var(
    self: Tensor, dim: Any, correction: Any, keepdim: bool, name: str, sqrt: bool, with_mean: bool
) -> Any:
    dt = aten_reductions.var_dtype(self, name)
    sdt = self._dtype
    a = self._data
    axis = _axis(a.ndim, dim)
    # PyTorch's Welford kernel accumulates in double: compute in float64 (complex128).
    comp = np.complex128 if sdt.is_complex else np.float64
    x = _cast(a, comp)
    s = _add(x, axis, None, None, True)
    n = _count(x, s)
    c = aten_reductions.correction_of(correction)
    aten_reductions.warn_dof(n, c)
    with np.errstate(invalid="ignore", divide="ignore"):
        mean = s / n
        dev = x - mean
        sq = dev.real * dev.real + dev.imag * dev.imag if sdt.is_complex else dev * dev
        m2 = _add(sq, axis, None, None, keepdim)
        var = m2 / max(0.0, n - c)
        if sqrt:
            var = np.sqrt(var)
    out = _wrap(var, dt, a)
    if not with_mean:
        return out
    if not keepdim:
        mean = mean.reshape(np.shape(m2))
    return out, _wrap(mean, sdt, a)


@kernel("var.correction")
def var_correction(
    self: Tensor, dim: Any = None, *, correction: Any = None, keepdim: bool = False
) -> Tensor:
    return _var(self, dim, correction, keepdim, "std and var", False, False)


@kernel("std.correction")
def std_correction(
    self: Tensor, dim: Any = None, *, correction: Any = None, keepdim: bool = False
) -> Tensor:
    return _var(self, dim, correction, keepdim, "std and var", True, False)


@kernel("var_mean.correction")
def var_mean_correction(
    self: Tensor, dim: Any = None, *, correction: Any = None, keepdim: bool = False
) -> tuple[Tensor, Tensor]:
    return _var(self, dim, correction, keepdim, "var_mean", False, True)


@kernel("std_mean.correction")
def std_mean_correction(
    self: Tensor, dim: Any = None, *, correction: Any = None, keepdim: bool = False
) -> tuple[Tensor, Tensor]:
    return _var(self, dim, correction, keepdim, "std_mean", True, True)


# ----------------------------------------------------------------------------- norms


@kernel("linalg_vector_norm")
def linalg_vector_norm(
    self: Tensor, ord: Any = 2, dim: Any = None, keepdim: bool = False, *, dtype: Any = None
) -> Tensor:  # noqa: A002
    comp_dt, out_dt = aten_reductions.norm_dtypes(self, dtype)
    a = self._data
    axis = _axis(a.ndim, dim)
    if a.size == 0:
        aten_reductions.norm_empty_check(a.shape, ord, dim)
    x = _cast(a, _acc(comp_dt))
    o = float(ord)
    with np.errstate(over="ignore", invalid="ignore", divide="ignore"):
        if o == 2.0 and not self._dtype.is_complex:
            r = np.sqrt(_add(x * x, axis, None, None, keepdim))
        else:
            ab = np.abs(x)
            if o == 2.0:
                r = np.sqrt(_add(ab * ab, axis, None, None, keepdim))
            elif o == 1.0:
                r = _add(ab, axis, None, None, keepdim)
            elif o == np.inf:
                r = _max(ab, axis, None, None, keepdim)
            elif o == -np.inf:
                r = _min(ab, axis, None, None, keepdim)
            elif o == 0.0:
                r = _add(ab != 0, axis, ab.dtype, None, keepdim)
            else:
                r = np.power(_add(np.power(ab, o), axis, None, None, keepdim), 1.0 / o)
    return _wrap(r, out_dt, a)


# ----------------------------------------------------------------------------- logsumexp


@kernel("logsumexp")
def logsumexp(self: Tensor, dim: Any, keepdim: bool = False) -> Tensor:
    dims = aten_reductions.logsumexp_dims(self, dim)
    dt = aten_reductions.logsumexp_dtype(self)
    a = _cast(self._data, _acc(dt))
    axis = dims if a.ndim else None
    with np.errstate(over="ignore", invalid="ignore", divide="ignore"):
        if a.size == 0:
            return _wrap(np.log(_add(np.exp(a), axis, None, None, keepdim)), dt)
        m = _max(a.real if a.dtype.kind == "c" else a, axis, None, None, True)
        # Infinite maxima would give inf - inf: shift by 0 there, as PyTorch does.
        m = np.where(np.isinf(m), 0, m)  # (a 0-d input's maximum is a NumPy scalar)
        s = _add(np.exp(a - m), axis, None, None, keepdim)
        r = np.log(s) + (m if keepdim else m.reshape(np.shape(s)))
    return _wrap(r, dt, self._data)


# ----------------------------------------------------------------------------- softmax


def _softmax_prep(self: Tensor, dim: int, half_to_float: bool, log: bool) -> tuple[Any, int]:
    if half_to_float:
        raise RuntimeError("softmax with half to float conversion is not supported on CPU")
    a = self._data
    nd = a.ndim
    if nd and -nd <= dim < nd:
        d = dim + nd if dim < 0 else dim
    else:
        d = _shape.wrap_dim(dim, nd)
    dt = self._dtype
    if dt.category != 2 and a.size:
        last = d == nd - 1 or nd == 0
        kname = ("log_softmax" if log else "softmax") + ("_lastdim" if last else "")
        aten_reductions.not_implemented(f"{kname}_kernel_impl", dt)
    return a, d


@kernel("_softmax")
def _softmax(self: Tensor, dim: int, half_to_float: bool) -> Tensor:
    a, d = _softmax_prep(self, dim, half_to_float, False)
    dt = self._dtype
    if not a.ndim:
        return _wrap(np.ones((), dt.np), dt)
    if not a.size:
        return _wrap(np.empty(a.shape, dt.np), dt)
    comp = _acc(dt)
    e = np.empty(a.shape, comp)  # C order: PyTorch's softmax output is contiguous
    m = _max(a, d, None, None, True)
    with np.errstate(invalid="ignore", over="ignore", divide="ignore"):
        np.subtract(a, m, out=e)
        np.exp(e, out=e)
        # One reciprocal per row, then a multiply (cheaper than dividing every element).
        s = _add(e, d, None, None, True)
        np.multiply(e, np.reciprocal(s, out=s), out=e)
    return _wrap(e, dt)


@kernel("_log_softmax")
def _log_softmax(self: Tensor, dim: int, half_to_float: bool) -> Tensor:
    a, d = _softmax_prep(self, dim, half_to_float, True)
    dt = self._dtype
    if not a.ndim:
        return _wrap(np.zeros((), dt.np), dt)
    if not a.size:
        return _wrap(np.empty(a.shape, dt.np), dt)
    comp = _acc(dt)
    shifted = np.empty(a.shape, comp)
    m = _max(a, d, None, None, True)
    with np.errstate(invalid="ignore", over="ignore", divide="ignore"):
        np.subtract(a, m, out=shifted)
        lse = np.log(_add(np.exp(shifted), d, None, None, True))
        np.subtract(shifted, lse, out=shifted)
    return _wrap(shifted, dt)


# ----------------------------------------------------------------------------- cumsum / cumprod


def _scan(name: str, ufunc: Any, self: Tensor, dim: int, dtype: Any) -> Tensor:
    a = self._data
    d = _dim1(a.ndim, dim)
    dt = aten_reductions.sum_dtype(self, dtype)
    if dt is bool_:
        aten_reductions.not_implemented(f"{name}_out_cpu", dt)
    acc = _acc(dt)
    if not a.ndim:
        return _wrap(_cast(a, acc).copy(), dt)
    out = np.empty(a.shape, acc)  # C order, as PyTorch's
    ufunc.accumulate(_cast(a, acc), axis=d, out=out)
    if ufunc is np.add and out.dtype.kind in "fc":
        out += 0.0  # PyTorch's sum starts from +0.0, so a run of -0.0 sums to +0.0
    return _wrap(out, dt)


@kernel("cumsum")
def cumsum(self: Tensor, dim: int, *, dtype: Any = None) -> Tensor:
    return _scan("cumsum", np.add, self, dim, dtype)


@kernel("cumprod")
def cumprod(self: Tensor, dim: int, *, dtype: Any = None) -> Tensor:
    return _scan("cumprod", np.multiply, self, dim, dtype)


# ----------------------------------------------------------------------------- all / any


def _logical(ufunc: Any, self: Tensor, axis: Any, keepdim: bool) -> Tensor:
    a = self._data
    dt = uint8 if self._dtype is uint8 else bool_
    b = a if a.dtype == np.bool_ else np.not_equal(a, 0)
    if axis == ():
        return _wrap(_c_layout(b if b is not a else b.copy()), dt)
    return _wrap(ufunc(b, axis, None, None, keepdim), dt, a)


@kernel("all")
def all_default(self: Tensor) -> Tensor:
    return _logical(np.logical_and.reduce, self, None, False)


@kernel("any")
def any_default(self: Tensor) -> Tensor:
    return _logical(np.logical_or.reduce, self, None, False)


@kernel("all.dim")
def all_dim(self: Tensor, dim: int, keepdim: bool = False) -> Tensor:
    return _logical(np.logical_and.reduce, self, _axis(self._data.ndim, dim), keepdim)


@kernel("any.dim")
def any_dim(self: Tensor, dim: int, keepdim: bool = False) -> Tensor:
    return _logical(np.logical_or.reduce, self, _axis(self._data.ndim, dim), keepdim)


def _all_axes(self: Tensor, dim: Any) -> Any:
    nd = self._data.ndim
    dims = aten_reductions.all_dims(nd, dim)
    if not nd:
        return None
    return dims


@kernel("all.dims")
def all_dims(self: Tensor, dim: Any = None, keepdim: bool = False) -> Tensor:
    return _logical(np.logical_and.reduce, self, _all_axes(self, dim), keepdim)


@kernel("any.dims")
def any_dims(self: Tensor, dim: Any = None, keepdim: bool = False) -> Tensor:
    return _logical(np.logical_or.reduce, self, _all_axes(self, dim), keepdim)


@kernel("count_nonzero.dim_IntList")
def count_nonzero_dim_IntList(self: Tensor, dim: Any) -> Tensor:
    a = self._data
    axis = _axis(a.ndim, dim)
    b = a if a.dtype == np.bool_ else np.not_equal(a, 0)
    return _wrap(_add(b, axis, _I64, None, False), int64, a)


@kernel("count_nonzero")
def count_nonzero(self: Tensor, dim: Any = None) -> Tensor:
    return count_nonzero_dim_IntList(self, [] if dim is None else [dim])


# ----------------------------------------------------------------------------- topk / sort


@kernel("topk")
def topk(
    self: Tensor, k: int, dim: int = -1, largest: bool = True, sorted: bool = True
) -> tuple[Tensor, Tensor]:  # noqa: A002
    d, _ = aten_reductions.topk_check(self, k, dim)
    a = self._data
    dt = self._dtype
    if not a.ndim:
        return _wrap(a.copy(), dt), _wrap(np.zeros((), np.int64), int64)
    idx = _argsort(a, d, largest)
    idx = _c_layout(idx[(slice(None),) * d + (slice(0, k),)])
    values = np.take_along_axis(a, idx, d)
    return _wrap(_c_layout(values), dt), _wrap(_c_layout(idx), int64)


@kernel("sort.stable")
def sort_stable(
    self: Tensor, *, stable: Any, dim: int = -1, descending: bool = False
) -> tuple[Tensor, Tensor]:
    d = aten_reductions.sort_check(self, dim)
    a = self._data
    dt = self._dtype
    if not a.ndim:
        return _wrap(a.copy(), dt), _wrap(np.zeros((), np.int64), int64)
    idx = _argsort(a, d, descending)
    values = np.take_along_axis(a, idx, d)
    if a.size and (a.flags.c_contiguous or a.ndim == 1):
        return _wrap(_c_layout(values), dt), _wrap(_c_layout(idx), int64)
    # PyTorch's outputs are laid out like the input (dense strides kept, empty ones too).
    v_out = _sort_layout(self, a.dtype)
    i_out = _sort_layout(self, np.int64)
    v_out[...] = values
    i_out[...] = idx
    return wrap(v_out, dt), wrap(i_out, int64)


# ----------------------------------------------------------------------------- median / mode


def _lower_median_flat(a: np.ndarray, ignore_nan: bool) -> Any:
    x = _sortable(a).reshape(-1)
    if x.dtype.kind == "f":
        nan = np.isnan(x)
        if nan.any():
            if not ignore_nan:
                return np.nan
            x = x[~nan]
    if x.size == 0:
        return np.nan
    k = (x.size - 1) // 2
    return np.partition(x, k)[k]


@kernel("median")
def median_default(self: Tensor) -> Tensor:
    aten_reductions.median_check(self)
    return _wrap(np.asarray(_lower_median_flat(self._data, False)), self._dtype)


@kernel("nanmedian")
def nanmedian_default(self: Tensor) -> Tensor:
    aten_reductions.median_check(self, "nanmedian")
    return _wrap(np.asarray(_lower_median_flat(self._data, True)), self._dtype)


def _median_dim(name: str, self: Tensor, dim: int, keepdim: bool) -> tuple[Tensor, Tensor]:
    aten_reductions.median_check(self, name)
    a = self._data
    d = _dim1(a.ndim, dim)
    aten_reductions.check_dim_nonempty(name, a.shape, d)
    dt = self._dtype
    if not a.ndim:
        return _wrap(a.copy(), dt), _wrap(np.zeros((), np.int64), int64)
    s = _sortable(a)
    order = np.argsort(s, axis=d, kind="stable")  # NaNs last
    n = a.shape[d]
    is_float = s.dtype.kind == "f"
    nan = np.isnan(s) if is_float else None
    if name == "nanmedian" and is_float:
        valid = n - np.add.reduce(nan, d, np.int64, None, True)
        k = np.maximum(valid - 1, 0) // 2
    else:
        k = np.full(order.shape[:d] + (1,) + order.shape[d + 1 :], (n - 1) // 2, np.int64)
    idx = np.take_along_axis(order, k, d)
    if name == "median" and is_float:
        # Any NaN makes the median NaN, at the first NaN's index.
        has_nan = np.logical_or.reduce(nan, d, None, None, True)
        idx = np.where(has_nan, np.argmax(nan, axis=d, keepdims=True), idx)
    values = np.take_along_axis(a, idx, d)
    if not keepdim:
        values = values.squeeze(d)
        idx = idx.squeeze(d)
    return _wrap(_c_layout(values), dt), _wrap(_c_layout(idx), int64)


@kernel("median.dim")
def median_dim(self: Tensor, dim: int, keepdim: bool = False) -> tuple[Tensor, Tensor]:
    return _median_dim("median", self, dim, keepdim)


@kernel("nanmedian.dim")
def nanmedian_dim(self: Tensor, dim: int, keepdim: bool = False) -> tuple[Tensor, Tensor]:
    return _median_dim("nanmedian", self, dim, keepdim)


@kernel("mode")
def mode(self: Tensor, dim: int = -1, keepdim: bool = False) -> tuple[Tensor, Tensor]:
    dt = self._dtype
    if dt.is_complex:
        aten_reductions.not_implemented("mode_cpu", dt)
    a = self._data
    d = _dim1(a.ndim, dim)
    if not a.ndim:
        return _wrap(a.copy(), dt), _wrap(np.zeros((), np.int64), int64)
    n = a.shape[d]
    out_shape = aten_reductions.out_shape(a.shape, (d,), keepdim)
    if n == 0:
        return _wrap(np.empty(out_shape, a.dtype), dt), _wrap(np.empty(out_shape, np.int64), int64)
    # Sort each row (stably), find runs of equal values (NaN != NaN: each NaN its own run);
    # the mode is the smallest value among the longest runs, at its last original index.
    x = np.moveaxis(_sortable(a), d, -1)
    order = np.argsort(x, axis=-1, kind="stable")
    s = np.take_along_axis(x, order, -1)
    pos = np.arange(n)
    new_run = np.ones(s.shape, bool)
    new_run[..., 1:] = s[..., 1:] != s[..., :-1]
    starts = np.maximum.accumulate(np.where(new_run, pos, 0), axis=-1)
    count = pos - starts + 1
    best = np.argmax(count == np.max(count, axis=-1, keepdims=True), axis=-1)[..., None]
    idx = np.take_along_axis(order, best, -1)[..., 0]
    values = np.take_along_axis(np.moveaxis(a, d, -1), idx[..., None], -1)[..., 0]
    values, idx = _c_layout(values.reshape(out_shape)), _c_layout(idx.reshape(out_shape))
    return _wrap(values, dt), _wrap(idx, int64)


del float32, float64, get_default_dtype, to_dtype
