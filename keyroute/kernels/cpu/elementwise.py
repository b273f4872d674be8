"""CPU kernels of the elementwise operators: NumPy ufuncs with PyTorch's dtype rules.

The result dtype comes from PyTorch's promotion (aten/_promotion.py), never NumPy's: operands
are cast to the *compute* dtype before the ufunc runs (float32 for float16/bfloat16 results,
as PyTorch's CPU kernels compute them in float32 "opmath" and round once), Python scalars are
converted as c10 converts them (integers wrap into the tensor's type), and the result is cast
to the result dtype. Outputs get TensorIterator's strides (`_finish`).

The hot kernels (add/sub/mul/div, exp, neg, relu, sigmoid, tanh, silu, gelu, add_/mul_...)
start with a fast path for same-dtype floating operands that calls the ufunc and wraps its
result with no further Python calls; anything else takes the general path. NumPy's
floating-point warnings are silenced for this module (PyTorch computes inf/nan silently).
"""

from __future__ import annotations

import math
import warnings
from collections.abc import Callable
from typing import Any

import numpy as np

from ...aten import elementwise as ew
from ...aten._promotion import _python_scalar, result_type
from ...aten._scalars import check_python_int
from ...aten._shape import broadcast_shapes, elementwise_strides
from ...tensor._tensor import CPU_KEYS, Tensor
from ...tensor.dtype import bool_, float32, float64
from . import fma as _fma
from ._kernel import check_no_internal_overlap
from ._kernel import kernel as _register

ndarray = np.ndarray
_new = object.__new__
_ZERO32 = np.zeros((), np.float32)  # 0-d operands are cheaper for NumPy than Python floats
_ZERO64 = np.zeros((), np.float64)
_ONE = 1  # CPython caches small ints: `alpha is _ONE` is the cheap "alpha is the int 1" test

# inf/nan are results, not warnings, in PyTorch: NumPy's floating-point warnings from the
# kernels are filtered out (kernels/cpu/__init__.py).


def kernel(*names: str) -> Callable[[Callable[..., Any]], Callable[..., Any]]:
    """Register a CPU kernel that runs with NumPy's floating-point warnings off."""

    def deco(fn: Callable[..., Any]) -> Callable[..., Any]:
        def quiet(*args: Any, **kwargs: Any) -> Any:
            with np.errstate(all="ignore"):
                return fn(*args, **kwargs)

        quiet.__name__ = fn.__name__
        quiet.__doc__ = fn.__doc__
        _register(*names)(quiet)
        return fn

    return deco


hot_kernel = _register  # the hot kernels: no wrapper (their general paths go quiet themselves)

# SciPy's erf/erfc when present (exact and fast), keyroute's own otherwise. Imported on first
# use: scipy.special costs 0.2 s, a fifth of keyroute's start-up, and most programs never
# call erf.
_UNLOADED: Any = object()
_scipy_erf: Any = _UNLOADED
_scipy_erfc: Any = _UNLOADED


def _load_scipy_erf() -> None:
    global _scipy_erf, _scipy_erfc
    try:
        from scipy.special import erf, erfc
    except ImportError:  # pragma: no cover - depends on the environment
        erf = erfc = None
    _scipy_erf, _scipy_erfc = erf, erfc


# ----------------------------------------------------------------------------- erf

_TWO_OVER_SQRT_PI = 2.0 / math.sqrt(math.pi)


def _erfc_cf(x: np.ndarray) -> np.ndarray:
    """erfc(x) for x >= 1.5 by its continued fraction, float64 (100 terms: ~1e-16 there)."""
    # erfc(x) = exp(-x^2)/sqrt(pi) * 1/(x + (1/2)/(x + 1/(x + (3/2)/(x + 2/(x + ...)))))
    frac = x.copy()
    for k in range(100, 0, -1):
        frac = x + (k / 2.0) / frac
    return np.exp(-x * x) / math.sqrt(math.pi) / frac


def _erf_series(x: np.ndarray) -> np.ndarray:
    """erf(x) for |x| < 1.5 by its Taylor series, float64 (terms below 1e-17 by n = 45)."""
    x2 = x * x
    term = x.copy()
    total = x.copy()
    for n in range(1, 48):
        term = term * (-x2) / n
        total = total + term / (2 * n + 1)
    return total * _TWO_OVER_SQRT_PI


_ERF_SPLIT = 1.5


def _erf_own(x: np.ndarray) -> np.ndarray:
    """erf in float64 to a few ulp: the series below |x| = 1.5, 1 - erfc (continued fraction)
    above; nan stays nan, +-inf give +-1, -0.0 stays -0.0."""
    x = np.asarray(x, dtype=np.float64)
    ax = np.abs(x)
    out = np.empty_like(x)
    small = ax < _ERF_SPLIT
    if small.any():
        out[small] = _erf_series(x[small])
    big = ~small & ~np.isnan(x)
    if big.any():
        xb = np.minimum(ax[big], 30.0)  # erfc underflows to 0 long before 30
        out[big] = np.copysign(1.0 - _erfc_cf(xb), x[big])
    out[np.isnan(x)] = np.nan
    zero = x == 0
    out[zero] = x[zero]  # erf(-0.0) is -0.0
    return out


def _erfc_own(x: np.ndarray) -> np.ndarray:
    """erfc in float64: 1 - erf below 1.5 (erfc >= 0.03 there: no cancellation), the
    continued fraction above."""
    x = np.asarray(x, dtype=np.float64)
    out = 1.0 - _erf_own(x)
    big = x >= _ERF_SPLIT
    if big.any():
        out[big] = _erfc_cf(np.minimum(x[big], 30.0))
        out[big & (x > 27.3)] = 0.0  # below the smallest double
    return out


def erf_array(a: np.ndarray) -> np.ndarray:
    """erf of a float array (float32 or float64), SciPy's when available."""
    if _scipy_erf is _UNLOADED:
        _load_scipy_erf()
    if _scipy_erf is not None:
        return _scipy_erf(a)
    return _erf_own(a).astype(a.dtype, copy=False)


def erfc_array(a: np.ndarray) -> np.ndarray:
    if _scipy_erfc is _UNLOADED:
        _load_scipy_erf()
    if _scipy_erfc is not None:
        return _scipy_erfc(a)
    return _erfc_own(a).astype(a.dtype, copy=False)


# ----------------------------------------------------------------------------- wrapping


def _wrap(r: ndarray, dt: Any) -> Tensor:
    t = _new(Tensor)
    t._data = r
    t._dtype = dt
    t._ks = CPU_KEYS
    t._ag = None
    t._base = None
    t._vc = None
    return t


def _finish(r: Any, dt: Any, ins: tuple[Any, ...]) -> Tensor:
    """The result tensor of dtype dt from ufunc output r (a NumPy scalar for 0-d inputs),
    laid out with TensorIterator's strides for inputs `ins`."""
    if r.__class__ is not ndarray:
        r = np.asarray(r)
    if r.dtype != dt.np:
        r = r.astype(dt.np)
    if r.ndim > 1 or (r.ndim == 1 and not r.size):
        r = _layout(r, ins)
    return _wrap(r, dt)


def _finish_same(r: Any, dt: Any, ins: tuple[Any, ...]) -> Tensor:
    """_finish for a result already of dtype dt (the hot kernels' same-dtype fast paths)."""
    if r.__class__ is not ndarray:
        r = np.asarray(r)  # 0-d inputs give a NumPy scalar
    elif r.ndim:
        r = _layout(r, ins)
    return _wrap(r, dt)


def _layout(r: ndarray, ins: tuple[Any, ...]) -> ndarray:
    """r, re-laid out (copied) if its strides are not the ones PyTorch's output would have."""
    for x in ins:
        if x.__class__ is Tensor and not x._data.flags.c_contiguous:
            break
    else:
        if r.size:
            return r  # contiguous inputs: NumPy's and PyTorch's outputs are both contiguous
    tensors = [x for x in ins if isinstance(x, Tensor)]
    shape = r.shape
    want = elementwise_strides(shape, [(x._data.shape, x.stride()) for x in tensors])
    item = r.itemsize
    if r.size and tuple(s // item for s in r.strides) == want:
        return r
    return _empty_strided_copy(r, want)


def _like(r: Any, dt: Any, self: Tensor) -> Tensor:
    """Wrap r laid out as empty_like(self) (the output of kernels that allocate that way)."""
    if r.__class__ is not ndarray:
        r = np.asarray(r)
    if r.dtype != dt.np:
        r = r.astype(dt.np)
    want = ew.like_strides(self)
    if tuple(s // r.itemsize for s in r.strides) != want or not r.size:
        r = _empty_strided_copy(r, want)
    return _wrap(r, dt)


def _contiguous(r: Any, dt: Any) -> Tensor:
    """Wrap r laid out contiguously."""
    if r.__class__ is not ndarray:
        r = np.asarray(r)
    r = np.ascontiguousarray(r, dtype=dt.np) if r.ndim else r.astype(dt.np, copy=False)
    if r.ndim and not r.size:
        from ...aten._shape import contiguous_strides

        r = _empty_strided_copy(r, contiguous_strides(r.shape))
    return _wrap(r, dt)


def _empty_strided_copy(r: ndarray, strides: tuple[int, ...]) -> ndarray:
    """A copy of r with the given (dense) element strides."""
    n = 1
    for s in r.shape:
        n *= s
    buf = np.empty(max(n, 0), dtype=r.dtype)
    out = np.ndarray(
        r.shape, dtype=r.dtype, buffer=buf, strides=tuple(s * r.itemsize for s in strides)
    )
    if n:
        np.copyto(out, r)
    return out


# ----------------------------------------------------------------------------- operands


def _compute_np(dt: Any) -> Any:
    """The NumPy dtype a result of dtype dt is computed in: float32 for the half types."""
    if dt.itemsize == 2 and dt.category == 2:
        return np.float32
    return dt.np


def _scalar(v: Any, dt: Any, np_dt: Any) -> Any:
    """A Python scalar converted as c10 converts a wrapped number to a tensor of dtype dt
    (integers wrap as C++ casts do), in NumPy form for computing in np_dt."""
    if v.__class__ not in (int, float, bool, complex):
        v = _python_scalar(v)
    check_python_int(v)  # where a Python int becomes a number (aten/_scalars.py)
    cat = dt.category
    if cat == 0:
        return np.bool_(bool(v))
    if cat == 1:
        if isinstance(v, complex):
            v = v.real
        if isinstance(v, float):
            if v != v or v in (math.inf, -math.inf):
                return np.array(v).astype(np_dt)[()]
            v = int(v)
        bits = np.dtype(np_dt).itemsize * 8
        v = int(v) & ((1 << bits) - 1)
        if np.dtype(np_dt).kind == "i" and v >= 1 << (bits - 1):
            v -= 1 << bits
        return np.dtype(np_dt).type(v)
    if cat == 2:
        if isinstance(v, complex):
            v = v.real
        return float(v)
    return complex(v)


def _operand(x: Any, dt: Any, np_dt: Any) -> Any:
    """x (tensor or Python scalar) as a NumPy operand of dtype np_dt."""
    if isinstance(x, Tensor):
        a = x._data
        return a if a.dtype == np_dt else a.astype(np_dt)
    return _scalar(x, dt, np_dt)


def _shape_check(*xs: Any) -> None:
    from ...aten._shape import broadcast_shapes

    broadcast_shapes(*(x._data.shape for x in xs if isinstance(x, Tensor)))


# ----------------------------------------------------------------------------- unary


def _sigmoid(a: np.ndarray) -> Any:
    # PyTorch's 1 / (1 + exp(-x)): exp overflows to inf for x << 0 and the result is 0
    r = np.negative(a)
    if r.__class__ is not ndarray:  # 0-d input: a NumPy scalar
        return 1 / (1 + np.exp(r))
    np.exp(r, r)
    r += 1
    return np.reciprocal(r, r)


def _rsqrt(a: np.ndarray) -> Any:
    r = np.sqrt(a)
    if r.__class__ is not ndarray:  # 0-d input: a NumPy scalar
        return np.reciprocal(r)
    return np.reciprocal(r, r)


_UNARY_FLOAT_FN: dict[str, Callable[[np.ndarray], Any]] = {
    "exp": np.exp,
    "exp2": np.exp2,
    "expm1": np.expm1,
    "log": np.log,
    "log1p": np.log1p,
    "log2": np.log2,
    "log10": np.log10,
    "sqrt": np.sqrt,
    "rsqrt": _rsqrt,
    "reciprocal": np.reciprocal,
    "sin": np.sin,
    "cos": np.cos,
    "tan": np.tan,
    "tanh": np.tanh,
    "sigmoid": _sigmoid,
    "erf": erf_array,
    "erfc": erfc_array,
    "asin": np.arcsin,
    "acos": np.arccos,
    "atan": np.arctan,
    "sinh": np.sinh,
    "cosh": np.cosh,
    "asinh": np.arcsinh,
    "acosh": np.arccosh,
    "atanh": np.arctanh,
}


def _unary_float(name: str, fn: Callable[[np.ndarray], Any]) -> Callable[[Tensor], Tensor]:
    def k(self: Tensor) -> Tensor:
        dt = self._dtype
        if dt is float32 or dt is float64:  # fast path
            r = fn(self._data)
            if r.ndim == 1 and r.size:  # a fresh 1-d result: wrap it inline
                t = _new(Tensor)
                t._data = r
                t._dtype = dt
                t._ks = CPU_KEYS
                t._ag = t._base = t._vc = None
                return t
            return _finish_same(r, dt, (self,))
        dt = ew.float_result(dt)
        ct = _compute_np(dt)
        a = self._data
        with np.errstate(all="ignore"):
            return _finish(fn(a if a.dtype == ct else a.astype(ct)), dt, (self,))

    k.__name__ = name
    return k


for _name, _fn in _UNARY_FLOAT_FN.items():
    hot_kernel(_name)(_unary_float(_name, _fn))


def _same(name: str) -> Callable[[Callable[[np.ndarray], Any]], Callable[[Tensor], Tensor]]:
    """A same-dtype unary kernel: fn gets the array (half types as float32)."""

    def deco(fn: Callable[[np.ndarray], Any]) -> Callable[[Tensor], Tensor]:
        def k(self: Tensor) -> Tensor:
            dt = self._dtype
            ew.check_unary_same(name, dt)
            ct = _compute_np(dt)
            a = self._data
            r = fn(a if a.dtype == ct else a.astype(ct))
            out_dt = dt.to_real() if name == "abs" else dt
            return _finish(r, out_dt, (self,))

        k.__name__ = name
        kernel(name)(k)
        return fn

    return deco


def _copy_if_exact(fn: Callable[[np.ndarray], Any]) -> Callable[[np.ndarray], Any]:
    """Rounding functions leave integers unchanged (a copy, never the input itself)."""

    def g(a: np.ndarray) -> Any:
        return a.copy() if a.dtype.kind in "iub" else fn(a)

    return g


_same("abs")(np.abs)
_same("floor")(_copy_if_exact(np.floor))
_same("ceil")(_copy_if_exact(np.ceil))
_same("round")(_copy_if_exact(np.round))
_same("trunc")(_copy_if_exact(np.trunc))


@_same("sign")
def _sign(a: np.ndarray) -> np.ndarray:
    if a.dtype.kind == "b":
        return a.copy()
    if a.dtype.kind == "f":
        # PyTorch: (0 < x) - (x < 0), so sign(nan) is 0 and sign(-0.0) is 0.0
        return (a > 0).astype(a.dtype) - (a < 0).astype(a.dtype)
    return np.sign(a)


@_same("sgn")
def _sgn(a: np.ndarray) -> np.ndarray:
    if a.dtype.kind == "c":
        mag = np.abs(a)
        return np.where(mag == 0, 0, a / np.where(mag == 0, 1, mag)).astype(a.dtype)
    return _sign(a)


@_same("frac")
def _frac(a: np.ndarray) -> np.ndarray:
    return a - np.trunc(a)


@_same("bitwise_not")
def _bitwise_not(a: np.ndarray) -> np.ndarray:
    return np.logical_not(a) if a.dtype.kind == "b" else np.invert(a)


@hot_kernel("neg")
def neg(self: Tensor) -> Tensor:
    dt = self._dtype
    if dt is float32 or dt is float64:  # fast path
        r = np.negative(self._data)
        if r.ndim == 1 and r.size:  # a fresh 1-d result: wrap it inline
            t = _new(Tensor)
            t._data = r
            t._dtype = dt
            t._ks = CPU_KEYS
            t._ag = t._base = t._vc = None
            return t
        return _finish_same(r, dt, (self,))
    ew.check_unary_same("neg", dt)
    return _finish(np.negative(self._data), dt, (self,))


@hot_kernel("relu")
def relu(self: Tensor) -> Tensor:
    dt = self._dtype
    if dt is float32 or dt is float64:  # fast path (NaN propagates through maximum)
        r = np.maximum(self._data, _ZERO32 if dt is float32 else _ZERO64)
        if r.ndim == 1 and r.size:  # a fresh 1-d result: wrap it inline
            t = _new(Tensor)
            t._data = r
            t._dtype = dt
            t._ks = CPU_KEYS
            t._ag = t._base = t._vc = None
            return t
        return _finish_same(r, dt, (self,))
    ew.check_unary_same("relu", dt)
    a = self._data
    return _finish(np.maximum(a, np.zeros((), a.dtype)), dt, (self,))


def _bool_unary(name: str, fn: Callable[[np.ndarray], Any]) -> None:
    def k(self: Tensor) -> Tensor:
        a = self._data
        cat = self._dtype.category
        if self._dtype.itemsize == 2 and cat == 2:
            a = a.astype(np.float32)
        if name == "isinf" and cat <= 1:
            return _like(np.zeros(a.shape, bool), bool_, self)  # zeros_like(self, bool)
        return _finish(fn(a), bool_, (self,))

    k.__name__ = name
    kernel(name)(k)


def _isposinf(a: np.ndarray) -> np.ndarray:
    return a == np.inf if a.dtype.kind == "f" else np.zeros(a.shape, bool)


def _isneginf(a: np.ndarray) -> np.ndarray:
    return a == -np.inf if a.dtype.kind == "f" else np.zeros(a.shape, bool)


def _signbit(a: np.ndarray) -> np.ndarray:
    if a.dtype.kind == "f":
        return np.signbit(a)
    return a < 0 if a.dtype.kind == "i" else np.zeros(a.shape, bool)


_bool_unary("logical_not", np.logical_not)
_bool_unary("isnan", np.isnan)
_bool_unary("isinf", np.isinf)
_bool_unary("signbit", _signbit)
_bool_unary("isposinf", _isposinf)
_bool_unary("isneginf", _isneginf)


# -- activations


def _activation(name: str) -> Callable[[Callable[..., Any]], Callable[..., Tensor]]:
    """A float-only unary kernel with parameters: fn(array, *params) -> array."""

    def deco(fn: Callable[..., Any]) -> Callable[..., Tensor]:
        def k(self: Tensor, *args: Any, **kwargs: Any) -> Tensor:
            dt = self._dtype
            if (dt is float32 or dt is float64) and not args and not kwargs:  # fast path
                r = fn(self._data)
                if r.ndim == 1 and r.size:  # a fresh 1-d result: wrap it inline
                    t = _new(Tensor)
                    t._data = r
                    t._dtype = dt
                    t._ks = CPU_KEYS
                    t._ag = t._base = t._vc = None
                    return t
                return _finish_same(r, dt, (self,))
            ew.check_activation(name, self, *args, **kwargs)
            ct = _compute_np(dt)
            a = self._data
            with np.errstate(all="ignore"):
                r = fn(a if a.dtype == ct else a.astype(ct), *args, **kwargs)
                return _finish(r, dt, (self,))

        k.__name__ = name
        hot_kernel(name)(k)
        return k

    return deco


@_activation("silu")
def _silu(a: np.ndarray) -> Any:
    # x / (1 + exp(-x)), with one temporary
    r = np.negative(a)
    if r.__class__ is not ndarray:  # 0-d input: a NumPy scalar
        return a / (1 + np.exp(r))
    np.exp(r, r)
    r += 1
    return np.divide(a, r, r)


@_activation("mish")
def _mish(a: np.ndarray) -> np.ndarray:
    return a * np.tanh(np.log1p(np.exp(a)))


@_activation("hardsigmoid")
def _hardsigmoid(a: np.ndarray) -> np.ndarray:
    return np.minimum(np.maximum(a + 3.0, 0.0), 6.0) / 6.0


@_activation("hardswish")
def _hardswish(a: np.ndarray) -> np.ndarray:
    return a * np.minimum(np.maximum(a + 3.0, 0.0), 6.0) / 6.0


_SQRT_2_OVER_PI = math.sqrt(2.0 / math.pi)
_SQRT1_2 = 1.0 / math.sqrt(2.0)


@_activation("gelu")
def _gelu(a: np.ndarray, *, approximate: str = "none") -> np.ndarray:
    if approximate == "tanh":
        inner = _SQRT_2_OVER_PI * (a + 0.044715 * (a * a * a))
        return 0.5 * a * (1.0 + np.tanh(inner))
    r = erf_array(a * _SQRT1_2)
    r += 1.0
    r *= a
    r *= 0.5
    if a.dtype == np.float32 and not np.isfinite(r).all():
        # PyTorch's vectorised float erf is nan at +inf, so its gelu(+inf) is nan (and gelu
        # keeps the sign of -0.0 and of underflowed negative results: no a - a trick here)
        r[np.isposinf(a)] = np.nan
    return r


@_activation("softplus")
def _softplus(a: np.ndarray, beta: Any = 1, threshold: Any = 20) -> np.ndarray:
    bx = a * beta
    return np.where(bx > threshold, a, np.log1p(np.exp(bx)) / beta)


def _elu_core(a: np.ndarray, alpha: Any, scale: Any, input_scale: Any) -> np.ndarray:
    neg = np.expm1(a * input_scale) * (alpha * scale)
    return np.where(a <= 0, neg, a * scale)


@_activation("elu")
def _elu(a: np.ndarray, alpha: Any = 1, scale: Any = 1, input_scale: Any = 1) -> np.ndarray:
    return _elu_core(a, alpha, scale, input_scale)


@_activation("celu")
def _celu(a: np.ndarray, alpha: Any = 1.0) -> np.ndarray:
    return _elu_core(a, alpha, 1.0, 1.0 / alpha)


@_activation("leaky_relu")
def _leaky_relu(a: np.ndarray, negative_slope: Any = 0.01) -> np.ndarray:
    return np.where(a > 0, a, a * negative_slope)


@kernel("hardtanh")
def hardtanh(self: Tensor, min_val: Any = -1, max_val: Any = 1) -> Tensor:
    ew.check_activation("hardtanh", self, min_val, max_val)
    dt = self._dtype
    ct = _compute_np(dt)
    a = self._data
    a = a if a.dtype == ct else a.astype(ct)
    lo, hi = _scalar(min_val, dt, ct), _scalar(max_val, dt, ct)
    return _like(_clamp_arrays(a, lo, hi), dt, self)


@kernel("threshold")
def threshold(self: Tensor, threshold: Any, value: Any) -> Tensor:
    dt = self._dtype
    ew.check_support("threshold", dt)
    ct = _compute_np(dt)
    a = self._data
    a = a if a.dtype == ct else a.astype(ct)
    th, v = _scalar(threshold, dt, ct), _scalar(value, dt, ct)
    return _finish(np.where(a <= th, v, a), dt, (self,))


@kernel("logit")
def logit(self: Tensor, eps: Any = None) -> Tensor:
    dt = ew.float_result(self._dtype)
    ct = _compute_np(dt)
    a = self._data
    a = a if a.dtype == ct else a.astype(ct)
    if eps is not None and eps >= 0:
        lo = np.asarray(eps, ct)
        hi = np.asarray(1 - eps, ct)
        a = np.where(a < lo, lo, np.where(a > hi, hi, a))
    r = np.where(a == 1, np.inf, np.log(a / (1 - a)))
    return _finish(r, dt, (self,))


@kernel("round.decimals")
def round_decimals(self: Tensor, *, decimals: int) -> Tensor:
    dt = self._dtype
    ew.check_round_decimals(dt, decimals)
    ct = _compute_np(dt)
    a = self._data
    a = a if a.dtype == ct else a.astype(ct)
    # PyTorch: nearbyint(x * 10^d) / 10^d (d > 0), nearbyint(x / 10^-d) * 10^-d (d < 0),
    # with the power of ten in the tensor's type.
    if decimals > 0:
        p = np.asarray(10.0**decimals if decimals < 309 else np.inf).astype(ct)
        r = np.rint(a * p) / p
    elif decimals < 0:
        p = np.asarray(10.0 ** (-decimals) if -decimals < 309 else np.inf).astype(ct)
        r = np.rint(a / p) * p
    else:
        r = np.rint(a)
    return _finish(r, dt, (self,))


@kernel("nan_to_num")
def nan_to_num(self: Tensor, nan: Any = None, posinf: Any = None, neginf: Any = None) -> Tensor:
    dt = self._dtype
    a = self._data
    if dt.category <= 1:
        return _finish(a.copy(), dt, (self,))
    from ...tensor.dtype import finfo

    info = finfo(dt.to_real())
    r = a.copy()
    parts = (r,) if dt.category == 2 else (r.real, r.imag)
    for p in parts:
        np.copyto(p, np.asarray(0.0 if nan is None else nan).astype(p.dtype), where=np.isnan(p))
        np.copyto(
            p, np.asarray(info.max if posinf is None else posinf).astype(p.dtype), where=p == np.inf
        )
        np.copyto(
            p,
            np.asarray(info.min if neginf is None else neginf).astype(p.dtype),
            where=p == -np.inf,
        )
    return _finish(r, dt, (self,))


# -- clamp


def _clamp_arrays(a: Any, lo: Any, hi: Any) -> Any:
    """PyTorch's clamp: min(max(a, lo), hi), a NaN input stays NaN and a NaN bound gives NaN."""
    out = a
    if lo is not None:
        out = np.maximum(out, lo)
    if hi is not None:
        out = np.minimum(out, hi)
    if out is a:
        out = a.copy()
    return out


def _clamp_common(self: Tensor, lo: Any, hi: Any, op: str) -> Tensor:
    dt = ew.clamp_dtype(self, lo, hi, op)
    ct = _compute_np(dt)
    if dt.category == 1:
        for b in (lo, hi):
            if b is not None and not isinstance(b, Tensor):
                ew.checked_scalar(b, dt)
    a = _operand(self, dt, ct)
    lo_ = None if lo is None else _operand(lo, dt, ct)
    hi_ = None if hi is None else _operand(hi, dt, ct)
    ins = (self, *(b for b in (lo, hi) if isinstance(b, Tensor)))
    _shape_check(*ins)
    return _finish(_clamp_arrays(a, lo_, hi_), dt, ins)


@kernel("clamp")
def clamp(self: Tensor, min: Any = None, max: Any = None) -> Tensor:  # noqa: A002
    return _clamp_common(self, min, max, "clamp")


@kernel("clamp.Tensor")
def clamp_Tensor(self: Tensor, min: Any = None, max: Any = None) -> Tensor:  # noqa: A002
    return _clamp_common(self, min, max, "clamp.Tensor")


@kernel("clamp_min")
def clamp_min(self: Tensor, min: Any) -> Tensor:  # noqa: A002
    return _clamp_common(self, min, None, "clamp_min")


@kernel("clamp_max")
def clamp_max(self: Tensor, max: Any) -> Tensor:  # noqa: A002
    return _clamp_common(self, None, max, "clamp_max")


@kernel("clamp_min.Tensor")
def clamp_min_Tensor(self: Tensor, min: Tensor) -> Tensor:  # noqa: A002
    return _clamp_common(self, min, None, "clamp_min.Tensor")


@kernel("clamp_max.Tensor")
def clamp_max_Tensor(self: Tensor, max: Tensor) -> Tensor:  # noqa: A002
    return _clamp_common(self, None, max, "clamp_max.Tensor")


# ----------------------------------------------------------------------------- binary


def _binary_general(op: str, ufunc: Callable[..., Any], self: Any, other: Any) -> Tensor:
    """The general binary kernel: PyTorch's result dtype, operands in the compute dtype."""
    with np.errstate(all="ignore"):
        return _binary_general_loud(op, ufunc, self, other)


def _binary_general_loud(op: str, ufunc: Callable[..., Any], self: Any, other: Any) -> Tensor:
    _shape_check(self, other)
    dt = ew.binary_dtype(op, self, other)
    if ew.BINARY_RULE[op] == "bool":
        cmp_dt = result_type(self, other)
        ew.check_support(op, cmp_dt)
        ct = _compute_np(cmp_dt)
        a, b = _operand(self, cmp_dt, ct), _operand(other, cmp_dt, ct)
        _shape_check(self, other)
        return _finish(ufunc(a, b), bool_, (self, other))
    ct = _compute_np(dt)
    a, b = _operand(self, dt, ct), _operand(other, dt, ct)
    _shape_check(self, other)
    return _finish(ufunc(a, b), dt, (self, other))


def _add_general(self: Any, other: Any, alpha: Any, sub: bool) -> Tensor:
    with np.errstate(all="ignore"):
        return _add_general_loud(self, other, alpha, sub)


def _add_general_loud(self: Any, other: Any, alpha: Any, sub: bool) -> Tensor:
    _shape_check(self, other)
    dt = ew.binary_dtype("sub" if sub else "add", self, other)
    if sub:
        ew.check_sub(self, other)
    if alpha is not _ONE:
        ew.check_alpha(dt, alpha)
    ct = _compute_np(dt)
    a, b = _operand(self, dt, ct), _operand(other, dt, ct)
    _shape_check(self, other)
    if alpha is not _ONE:
        al = _scalar(alpha, dt, ct)
        if dt.category == 2:  # floating: PyTorch's fmadd(other, alpha, self), one rounding
            return _finish(
                _fma.fma(b, np.asarray(-al if sub else al, ct), a, ct), dt, (self, other)
            )
        b = np.multiply(b, al).astype(ct, copy=False)
    return _finish(np.subtract(a, b) if sub else np.add(a, b), dt, (self, other))


# The hot binary kernels. Fast path: two tensors of the same dtype (add/mul: any dtype, sub:
# not bool, div: floating), or a float32/float64 tensor and a Python float/int.
_FAST_ERRORS = (AttributeError, ValueError, TypeError, OverflowError)
# Python scalars of the hot paths as cached 0-d arrays: NumPy combines a 0-d array of the
# tensor's dtype twice as fast as a Python float (same value: it converts the float to the
# array's dtype either way). Zero is never cached (0.0 == -0.0 as keys).
_SC32: dict[Any, ndarray] = {}
_SC64: dict[Any, ndarray] = {}


def _scalar_array(v: Any, dt: Any, cache: dict[Any, ndarray]) -> Any:
    if len(cache) > 256:
        cache.clear()
    check_python_int(v)  # a cache miss only: the hot path pays nothing
    try:
        z = np.asarray(v, dt.np)
    except OverflowError:
        return v
    cache[v] = z
    return z


_add_uf = np.add
_sub_uf = np.subtract
_mul_uf = np.multiply
_div_uf = np.true_divide


@hot_kernel("add.Tensor")
def add_Tensor(self: Any, other: Any, alpha: Any = 1) -> Tensor:
    if alpha is _ONE:
        try:
            dt = self._dtype
            oc = other.__class__
            if oc is Tensor:
                if other._dtype is dt:
                    r = _add_uf(self._data, other._data)
                    if r.ndim == 1 and r.size:  # a fresh 1-d result: wrap it inline
                        t = _new(Tensor)
                        t._data = r
                        t._dtype = dt
                        t._ks = CPU_KEYS
                        t._ag = t._base = t._vc = None
                        return t
                    return _finish_same(r, dt, (self, other))
            elif (oc is float or oc is int) and (dt is float32 or dt is float64) and other:
                cache = _SC32 if dt is float32 else _SC64
                z = cache.get(other)
                if z is None:
                    z = _scalar_array(other, dt, cache)
                r = _add_uf(self._data, z)
                if r.ndim == 1 and r.size:  # a fresh 1-d result: wrap it inline
                    t = _new(Tensor)
                    t._data = r
                    t._dtype = dt
                    t._ks = CPU_KEYS
                    t._ag = t._base = t._vc = None
                    return t
                return _finish_same(r, dt, (self,))
        except _FAST_ERRORS:
            pass  # a scalar self, shapes that do not broadcast: the general path words it
    return _add_general(self, other, alpha, False)


@hot_kernel("sub.Tensor")
def sub_Tensor(self: Any, other: Any, alpha: Any = 1) -> Tensor:
    if alpha is _ONE:
        try:
            dt = self._dtype
            oc = other.__class__
            if oc is Tensor:
                if other._dtype is dt and dt is not bool_:
                    r = _sub_uf(self._data, other._data)
                    if r.ndim == 1 and r.size:  # a fresh 1-d result: wrap it inline
                        t = _new(Tensor)
                        t._data = r
                        t._dtype = dt
                        t._ks = CPU_KEYS
                        t._ag = t._base = t._vc = None
                        return t
                    return _finish_same(r, dt, (self, other))
            elif (oc is float or oc is int) and (dt is float32 or dt is float64) and other:
                cache = _SC32 if dt is float32 else _SC64
                z = cache.get(other)
                if z is None:
                    z = _scalar_array(other, dt, cache)
                r = _sub_uf(self._data, z)
                if r.ndim == 1 and r.size:  # a fresh 1-d result: wrap it inline
                    t = _new(Tensor)
                    t._data = r
                    t._dtype = dt
                    t._ks = CPU_KEYS
                    t._ag = t._base = t._vc = None
                    return t
                return _finish_same(r, dt, (self,))
        except _FAST_ERRORS:
            pass  # a scalar self, shapes that do not broadcast: the general path words it
    return _add_general(self, other, alpha, True)


@hot_kernel("mul.Tensor")
def mul_Tensor(self: Any, other: Any) -> Tensor:
    try:
        dt = self._dtype
        oc = other.__class__
        if oc is Tensor:
            if other._dtype is dt:
                r = _mul_uf(self._data, other._data)
                if r.ndim == 1 and r.size:  # a fresh 1-d result: wrap it inline
                    t = _new(Tensor)
                    t._data = r
                    t._dtype = dt
                    t._ks = CPU_KEYS
                    t._ag = t._base = t._vc = None
                    return t
                return _finish_same(r, dt, (self, other))
        elif (oc is float or oc is int) and (dt is float32 or dt is float64) and other:
            cache = _SC32 if dt is float32 else _SC64
            z = cache.get(other)
            if z is None:
                z = _scalar_array(other, dt, cache)
            r = _mul_uf(self._data, z)
            if r.ndim == 1 and r.size:  # a fresh 1-d result: wrap it inline
                t = _new(Tensor)
                t._data = r
                t._dtype = dt
                t._ks = CPU_KEYS
                t._ag = t._base = t._vc = None
                return t
            return _finish_same(r, dt, (self,))
    except _FAST_ERRORS:
        pass
    return _binary_general("mul", _mul_uf, self, other)


@hot_kernel("div.Tensor")
def div_Tensor(self: Any, other: Any) -> Tensor:
    try:
        dt = self._dtype
        if dt is float32 or dt is float64:
            oc = other.__class__
            if oc is Tensor and other._dtype is dt:
                b = other._data
            elif (oc is float or oc is int) and other:
                cache = _SC32 if dt is float32 else _SC64
                b = cache.get(other)
                if b is None:
                    b = _scalar_array(other, dt, cache)
            else:
                b = None
            if b is not None:
                r = _div_uf(self._data, b)
                if r.ndim == 1 and r.size:  # a fresh 1-d result: wrap it inline
                    t = _new(Tensor)
                    t._data = r
                    t._dtype = dt
                    t._ks = CPU_KEYS
                    t._ag = t._base = t._vc = None
                    return t
                return _finish_same(r, dt, (self, other))
    except _FAST_ERRORS:
        pass
    return _binary_general("div", _div_uf, self, other)


@hot_kernel("add.Scalar")
def add_Scalar(self: Tensor, other: Any, alpha: Any = 1) -> Tensor:
    return add_Tensor(self, other, alpha)


@hot_kernel("sub.Scalar")
def sub_Scalar(self: Tensor, other: Any, alpha: Any = 1) -> Tensor:
    return sub_Tensor(self, other, alpha)


@hot_kernel("mul.Scalar")
def mul_Scalar(self: Tensor, other: Any) -> Tensor:
    return mul_Tensor(self, other)


@hot_kernel("div.Scalar")
def div_Scalar(self: Tensor, other: Any) -> Tensor:
    return div_Tensor(self, other)


def _rsub(self: Any, other: Any, alpha: Any = 1) -> Tensor:
    _shape_check(other, self)
    dt = ew.binary_dtype("sub", self, other)
    ew.check_sub(self, other)
    if alpha != 1 or isinstance(alpha, bool):
        ew.check_alpha(dt, alpha)
    ct = _compute_np(dt)
    a, b = _operand(self, dt, ct), _operand(other, dt, ct)
    _shape_check(self, other)
    if alpha != 1:
        a = np.multiply(a, _scalar(alpha, dt, ct))
    return _finish(np.subtract(b, a), dt, (other, self))


@kernel("rsub.Tensor")
def rsub_Tensor(self: Any, other: Any, alpha: Any = 1) -> Tensor:
    return _rsub(self, other, alpha)


@kernel("rsub.Scalar")
def rsub_Scalar(self: Tensor, other: Any, alpha: Any = 1) -> Tensor:
    return _rsub(self, other, alpha)


# -- integer division by zero, remainder, fmod, floor division


def _zero_division_check(b: Any, a: Any = None) -> None:
    if a is not None and not np.broadcast(a, b).size:
        return  # no element is computed
    if isinstance(b, ndarray):
        if b.dtype.kind in "iub" and not b.all():
            raise RuntimeError("ZeroDivisionError")
    elif isinstance(b, (np.integer, np.bool_)) and not b:
        raise RuntimeError("ZeroDivisionError")


def _remainder_fn(a: Any, b: Any) -> Any:
    if np.asarray(a).dtype.kind in "iu":
        _zero_division_check(b, a)
        return np.remainder(a, b)
    # PyTorch: mod = fmod(a, b); if mod != 0 and (b < 0) != (mod < 0): mod += b
    mod = np.fmod(a, b)
    fix = (mod != 0) & ((np.asarray(b) < 0) != (mod < 0))
    return np.where(fix, mod + b, mod)


def _fmod_fn(a: Any, b: Any) -> Any:
    if np.asarray(a).dtype.kind in "iu":
        _zero_division_check(b, a)
    return np.fmod(a, b)


def _div_floor_fn(a: Any, b: Any) -> Any:
    if np.asarray(a).dtype.kind in "iu":
        _zero_division_check(b, a)
        return np.floor_divide(a, b)
    # PyTorch's div_floor_floating (the same as Python's float floor division)
    a_, b_ = np.asarray(a), np.asarray(b)
    mod = np.fmod(a_, b_)
    div = (a_ - mod) / b_
    div = np.where((mod != 0) & ((b_ < 0) != (mod < 0)), div - 1, div)
    floordiv = np.floor(div)
    floordiv = np.where(div - floordiv > 0.5, floordiv + 1, floordiv)
    floordiv = np.where(div == 0, np.copysign(np.zeros((), div.dtype), a_ / b_), floordiv)
    return np.where(b_ == 0, a_ / b_, floordiv)


def _div_trunc_fn(a: Any, b: Any) -> Any:
    if np.asarray(a).dtype.kind in "iu":
        _zero_division_check(b, a)
        q = np.floor_divide(a, b)
        rem = np.subtract(a, np.multiply(q, b))
        fix = (rem != 0) & ((np.asarray(a) < 0) != (np.asarray(b) < 0))
        return q + fix.astype(q.dtype)
    return np.trunc(np.true_divide(a, b))


def _binary_kernel(op: str, ufunc: Callable[..., Any], *names: str) -> None:
    def k(self: Any, other: Any) -> Tensor:
        return _binary_general(op, ufunc, self, other)

    k.__name__ = names[0]
    kernel(*names)(k)


_binary_kernel(
    "remainder", _remainder_fn, "remainder.Tensor", "remainder.Scalar", "remainder.Scalar_Tensor"
)
_binary_kernel("fmod", _fmod_fn, "fmod.Tensor", "fmod.Scalar")
_binary_kernel("floor_divide", _div_floor_fn, "floor_divide", "floor_divide.Scalar")


def _compare_kernel(op: str, ufunc: Callable[..., Any]) -> None:
    """Comparisons (masks are everywhere): a fast path for same-dtype real tensors and for a
    float32/float64 tensor against a Python number (compared in the tensor's dtype, as
    PyTorch does); NumPy emits no floating-point warnings for them."""

    def k(self: Any, other: Any) -> Tensor:
        try:
            dt = self._dtype
            oc = other.__class__
            if oc is Tensor:
                b = other._data if other._dtype is dt and 0 < dt.category < 3 else None
            elif (oc is float or oc is int) and (dt is float32 or dt is float64):
                b = other
            else:
                b = None
            if b is not None:
                r = ufunc(self._data, b)
                if r.ndim == 1 and r.size:
                    t = _new(Tensor)
                    t._data = r
                    t._dtype = bool_
                    t._ks = CPU_KEYS
                    t._ag = t._base = t._vc = None
                    return t
                return _finish(r, bool_, (self, other))
        except _FAST_ERRORS:
            pass
        return _binary_general(op, ufunc, self, other)

    k.__name__ = op
    hot_kernel(f"{op}.Tensor", f"{op}.Scalar")(k)


for _name, _uf in (
    ("eq", np.equal),
    ("ne", np.not_equal),
    ("lt", np.less),
    ("le", np.less_equal),
    ("gt", np.greater),
    ("ge", np.greater_equal),
):
    _compare_kernel(_name, _uf)
for _name, _uf in (
    ("bitwise_and", np.bitwise_and),
    ("bitwise_or", np.bitwise_or),
    ("bitwise_xor", np.bitwise_xor),
):
    _binary_kernel(_name, _uf, f"{_name}.Tensor", f"{_name}.Scalar", f"{_name}.Scalar_Tensor")


def _shift(left: bool) -> Callable[[Any, Any], Any]:
    def fn(a: Any, b: Any) -> Any:
        a_ = np.asarray(a)
        bits = a_.dtype.itemsize * 8
        b_ = np.asarray(b)
        bad = (b_ < 0) | (b_ >= bits)
        safe = np.where(bad, 0, b_).astype(a_.dtype)
        if left:
            return np.where(bad, np.zeros((), a_.dtype), np.left_shift(a_, safe))
        # out-of-range right shifts fill with the sign bit, as PyTorch's kernel
        fill = np.right_shift(a_, np.asarray(bits - 1, a_.dtype))
        return np.where(bad, fill, np.right_shift(a_, safe))

    return fn


def _check_bitwise_scalars(op: str, self: Any, other: Any) -> None:
    dt = result_type(self, other)
    ew.check_support(op, dt)
    ew._check_scalar_kind(op, self, other, dt)


def _bitwise_scalar_kernels() -> None:
    for op, fn, names in (
        (
            "lshift",
            _shift(True),
            (
                "bitwise_left_shift.Tensor",
                "bitwise_left_shift.Tensor_Scalar",
                "bitwise_left_shift.Scalar_Tensor",
                "__lshift__.Tensor",
                "__lshift__.Scalar",
            ),
        ),
        (
            "rshift",
            _shift(False),
            (
                "bitwise_right_shift.Tensor",
                "bitwise_right_shift.Tensor_Scalar",
                "bitwise_right_shift.Scalar_Tensor",
                "__rshift__.Tensor",
                "__rshift__.Scalar",
            ),
        ),
    ):

        def k(self: Any, other: Any, op: str = op, fn: Any = fn) -> Tensor:
            _shape_check(self, other)
            _check_bitwise_scalars(op, self, other)
            return _binary_general(op, fn, self, other)

        kernel(*names)(k)


_bitwise_scalar_kernels()


for _name, _uf in (
    ("maximum", np.maximum),
    ("minimum", np.minimum),
    ("fmax", np.fmax),
    ("fmin", np.fmin),
    ("atan2", np.arctan2),
    ("hypot", np.hypot),
    ("logical_and", np.logical_and),
    ("logical_or", np.logical_or),
    ("logical_xor", np.logical_xor),
):
    _binary_kernel(_name, _uf, _name)
_binary_kernel("copysign", np.copysign, "copysign.Tensor", "copysign.Scalar")


def _xlogy_fn(a: Any, b: Any) -> Any:
    a_, b_ = np.asarray(a), np.asarray(b)
    return np.where(np.isnan(b_), np.nan, np.where(a_ == 0, 0.0, a_ * np.log(b_)))


_binary_kernel("xlogy", _xlogy_fn, "xlogy.Tensor", "xlogy.Scalar_Other", "xlogy.Scalar_Self")


@kernel("div.Tensor_mode", "div.Scalar_mode")
def div_mode(self: Any, other: Any, *, rounding_mode: str | None) -> Tensor:
    dt = ew.div_mode_dtype(self, other, rounding_mode)
    if rounding_mode is None:
        return div_Tensor(self, other)
    ct = _compute_np(dt)
    a, b = _operand(self, dt, ct), _operand(other, dt, ct)
    _shape_check(self, other)
    fn = _div_floor_fn if rounding_mode == "floor" else _div_trunc_fn
    return _finish(fn(a, b), dt, (self, other))


# -- pow


def _int_pow(a: Any, b: Any) -> Any:
    """Integer powers as PyTorch's powi: negative exponents give 1, -1 or 0 (no error)."""
    a_, b_ = np.asarray(a), np.asarray(b)
    neg = b_ < 0
    if not neg.any():
        return np.power(a_, b_)
    pos = np.power(a_, np.where(neg, 0, b_).astype(b_.dtype))
    one = np.ones((), a_.dtype)
    odd = (np.abs(b_) % 2) == 1
    minus_one = a_ == -1 if a_.dtype.kind == "i" else np.zeros((), bool)
    negres = np.where(a_ == 1, one, np.where(minus_one, np.where(odd, -one, one), 0))
    return np.where(neg, negres.astype(a_.dtype), pos)


def _pow_scalar_exp(a: np.ndarray, e: Any) -> Any:
    """PyTorch's special exponents for a floating tensor and a scalar exponent."""
    if e == 2:
        return a * a
    if e == 3:
        return a * a * a
    if e == 0.5:
        return np.sqrt(a)
    if e == -0.5:
        return np.reciprocal(np.sqrt(a))
    if e == -1:
        return np.reciprocal(a)
    if e == -2:
        return np.reciprocal(a * a)
    return np.power(a, e)


def _pow(self: Any, exponent: Any) -> Tensor:
    ec = exponent.__class__
    if (ec is int or ec is float) and self.__class__ is Tensor:
        dt = self._dtype
        if (dt is float32 or dt is float64) and exponent != 0 and exponent != 1:
            # Fast path: a float tensor to a real Python power keeps the tensor's dtype.
            r = _pow_scalar_exp(self._data, exponent)
            if r.__class__ is not ndarray:
                r = np.asarray(r)
            if r.dtype is not dt.np and r.dtype != dt.np:
                r = r.astype(dt.np)
            if r.ndim > 1 or (r.ndim == 1 and not r.size):
                r = _layout(r, (self,))
            return _wrap(r, dt)
    with np.errstate(all="ignore"):
        return _pow_general(self, exponent)


def _pow_general(self: Any, exponent: Any) -> Tensor:
    _shape_check(self, exponent)
    dt = ew.pow_dtype(self, exponent)
    ct = _compute_np(dt)
    a, b = _operand(self, dt, ct), _operand(exponent, dt, ct)
    if isinstance(self, Tensor) and not isinstance(exponent, Tensor):
        if exponent == 0:  # PyTorch fills ones, copies for 1 (no kernel: bool works too)
            return _finish(np.ones(a.shape, dt.np), dt, (self,))
        if exponent == 1:
            return _finish(self._data.astype(dt.np), dt, (self,))
        if dt.category == 2:
            return _finish(_pow_scalar_exp(a, b), dt, (self,))
    if dt.category == 1:
        r = _int_pow(a, b)
    else:
        r = np.power(a, b)
    if not isinstance(self, Tensor):
        return _contiguous(r, dt)  # pow.Scalar's output is contiguous
    return _finish(r, dt, (self, exponent))


hot_kernel("pow.Tensor_Tensor", "pow.Tensor_Scalar", "pow.Scalar")(_pow)


# -- lerp, addcmul, addcdiv


_lerp_arrays = _fma.lerp  # PyTorch's fused |w| < 0.5 ? a + w (b - a) : b - (b - a)(1 - w)


@kernel("lerp.Scalar")
def lerp_Scalar(self: Tensor, end: Tensor, weight: Any) -> Tensor:
    dt = ew.lerp_check(self, end, weight, "lerp.Scalar")
    ct = _compute_np(dt)
    a, b = _operand(self, dt, ct), _operand(end, dt, ct)
    _shape_check(self, end)
    w = _scalar(weight, dt, ct)
    return _finish(_lerp_arrays(a, b, w, ct), dt, (self, end))


@kernel("lerp.Tensor")
def lerp_Tensor(self: Tensor, end: Tensor, weight: Tensor) -> Tensor:
    dt = ew.lerp_check(self, end, weight, "lerp.Tensor")
    ct = _compute_np(dt)
    a, b, w = (_operand(x, dt, ct) for x in (self, end, weight))
    _shape_check(self, end, weight)
    return _finish(_lerp_arrays(a, b, w, ct), dt, (self, end, weight))


def _addc(op: str) -> Callable[..., Tensor]:
    def k(self: Tensor, tensor1: Tensor, tensor2: Tensor, *, value: Any = 1) -> Tensor:
        _shape_check(self, tensor1, tensor2)
        dt = ew.addc_dtype(op, self, tensor1, tensor2)
        ct = _compute_np(dt)
        a, t1, t2 = (_operand(x, dt, ct) for x in (self, tensor1, tensor2))
        v = _scalar(value, dt, ct)
        r = _fma.fma(v * t1, t2, a, ct) if op == "addcmul" else a + (v * t1) / t2
        return _finish(r, dt, (self, tensor1, tensor2))

    k.__name__ = op
    kernel(op)(k)
    return k


_addc_functional = {"addcmul": _addc("addcmul"), "addcdiv": _addc("addcdiv")}


# -- where, masked_fill


@kernel("where.self")
def where_self(condition: Tensor, self: Tensor, other: Tensor) -> Tensor:
    ew.check_where_condition(condition)
    if condition._dtype is not bool_:
        warnings.warn(
            "where received a uint8 condition tensor. This behavior is deprecated and will be "
            "removed in a future version of PyTorch. Use a boolean condition instead.",
            UserWarning,
            stacklevel=2,
        )
    dt = result_type(self, other)
    a, b = _operand(self, dt, dt.np), _operand(other, dt, dt.np)
    _shape_check(condition, self, other)
    c = condition._data
    if c.dtype != np.bool_:
        c = c.astype(bool)
    return _finish(np.where(c, a, b), dt, (condition, self, other))


def _masked_fill(self: Tensor, mask: Tensor, value: Any) -> Tensor:
    from ...aten._shape import broadcast_shapes

    shape = broadcast_shapes(mask._data.shape, self._data.shape)
    ew.masked_fill_check(self, mask, value)
    dt = self._dtype
    if isinstance(value, Tensor):
        value = value.item()
    v = ew.checked_scalar(value, dt)
    # self.expand(shape).clone(contiguous_format).masked_fill_(mask, value)
    out = np.empty(shape, dtype=self._data.dtype)
    np.copyto(out, self._data)
    np.copyto(out, np.asarray(v).astype(out.dtype), where=mask._data)
    return _contiguous(out, dt)


@kernel("masked_fill.Scalar")
def masked_fill_Scalar(self: Tensor, mask: Tensor, value: Any) -> Tensor:
    return _masked_fill(self, mask, value)


@kernel("masked_fill.Tensor")
def masked_fill_Tensor(self: Tensor, mask: Tensor, value: Tensor) -> Tensor:
    return _masked_fill(self, mask, value)


@kernel("masked_fill_.Scalar", "masked_fill_.Tensor")
def masked_fill_(self: Tensor, mask: Tensor, value: Any) -> Tensor:
    # Written in place, without an overlap check: PyTorch still allows (deprecated) masked
    # fills of expanded tensors.
    ew.masked_fill_check(self, mask, value)
    ew.check_inplace_shape(self, broadcast_shapes(mask._data.shape, self._data.shape))
    if isinstance(value, Tensor):
        value = value.item()
    v = ew.checked_scalar(value, self._dtype)
    np.copyto(self._data, np.asarray(v).astype(self._data.dtype), where=mask._data)
    return self


# ----------------------------------------------------------------------------- in-place


def _inplace_binary(
    ufunc: Any, name: str, functional: Callable[..., Tensor], has_alpha: bool
) -> Callable[..., Tensor]:
    """self op= other written in place: a ufunc with out= when the dtypes agree and other
    broadcasts to self; else the functional result checked and copied into self."""
    floating_only = name.startswith("div")
    no_bool = name.startswith("sub")

    def k(self: Tensor, other: Any, alpha: Any = 1) -> Tensor:
        a = self._data
        dt = self._dtype
        if 0 in a.strides:
            check_no_internal_overlap(a)  # (an expanded self)
        if alpha is _ONE:
            oc = other.__class__
            if oc is Tensor:
                if (
                    other._dtype is dt
                    and (other._data.shape == a.shape)
                    and not (floating_only and dt.category < 2)
                    and not (no_bool and dt is bool_)
                ):
                    ufunc(a, other._data, a)
                    return self
            elif (oc is float or oc is int) and (dt is float32 or dt is float64) and other:
                cache = _SC32 if dt is float32 else _SC64
                z = cache.get(other)
                if z is None:
                    z = _scalar_array(other, dt, cache)
                ufunc(a, z, a)
                return self
        result = functional(self, other, alpha) if has_alpha else functional(self, other)
        ew.check_inplace_shape(self, result._data.shape)
        ew._check_cast(result._dtype, dt)
        with np.errstate(all="ignore"):
            np.copyto(a, result._data, casting="unsafe")
        return self

    k.__name__ = name
    return k


for _name, _uf, _fn, _al in (
    ("add_", np.add, add_Tensor, True),
    ("sub_", np.subtract, sub_Tensor, True),
    ("mul_", np.multiply, mul_Tensor, False),
    ("div_", np.true_divide, div_Tensor, False),
):
    _k = _inplace_binary(_uf, _name, _fn, _al)
    hot_kernel(f"{_name}.Tensor", f"{_name}.Scalar")(_k)


# In-place forms of the optimizer's operators (lerp_, addcmul_, addcdiv_): computed into self
# with out= when every tensor has self's float dtype and shape; otherwise the functional result
# is checked and copied in, as the CompositeExplicitAutograd variant does.


def _same_float(self: Tensor, *others: Tensor) -> bool:
    dt = self._dtype
    if dt is not float32 and dt is not float64:
        return False
    shape = self._data.shape
    for o in others:
        if o.__class__ is not Tensor or o._dtype is not dt or o._data.shape != shape:
            return False
    return True


def _copy_result(self: Tensor, result: Tensor) -> Tensor:
    ew.check_inplace_shape(self, result._data.shape)
    ew._check_cast(result._dtype, self._dtype)
    with np.errstate(all="ignore"):
        np.copyto(self._data, result._data, casting="unsafe")
    return self


@hot_kernel("lerp_.Scalar")
def lerp__Scalar(self: Tensor, end: Tensor, weight: Any) -> Tensor:
    if weight.__class__ is float and _same_float(self, end):
        check_no_internal_overlap(self._data)
        np.copyto(self._data, _lerp_arrays(self._data, end._data, weight, self._data.dtype))
        return self
    return _copy_result(self, lerp_Scalar(self, end, weight))


def _addc_inplace(op: str, functional: Callable[..., Tensor]) -> None:

    def k(self: Tensor, tensor1: Tensor, tensor2: Tensor, *, value: Any = 1) -> Tensor:
        if (value.__class__ is float or value.__class__ is int) and _same_float(
            self, tensor1, tensor2
        ):
            check_no_internal_overlap(self._data)
            a, t1, t2 = self._data, tensor1._data, tensor2._data
            t1 = np.multiply(t1, np.asarray(value, a.dtype)) if value != 1 else t1
            if op == "addcmul":  # fused, as PyTorch's: fma(value * t1, t2, self)
                np.copyto(a, _fma.fma(t1, t2, a, a.dtype))
            else:
                np.add(a, np.true_divide(t1, t2), out=a)
            return self
        return _copy_result(self, functional(self, tensor1, tensor2, value=value))

    k.__name__ = op + "_"
    hot_kernel(op + "_")(k)


_addc_inplace("addcmul", _addc_functional["addcmul"])
_addc_inplace("addcdiv", _addc_functional["addcdiv"])
