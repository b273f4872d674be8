"""CPU kernels of the unary elementwise operators: the float and same-dtype tables, neg and relu
(hot), the bool predicates, activations, rounding, nan_to_num and clamp."""

from __future__ import annotations

import math
from collections.abc import Callable
from typing import Any

import numpy as np

from ...aten import elementwise as aten_elementwise
from ...tensor._tensor import CPU_KEYS, Tensor  # noqa: F401  (CPU_KEYS: generated kernels)
from ...tensor.dtype import bool_, float32, float64  # noqa: F401  (generated kernels)
from ._elementwise_util import (  # noqa: F401  (the generated kernels read some of these)
    _ZERO32,
    _ZERO64,
    _compute_np,
    _finish,
    _finish_same,
    _like,
    _new,
    _operand,
    _scalar,
    _shape_check,
    hot_kernel_function,
    ndarray,
    wrap_1d,
)
from ._kernel import kernel
from ._special import erf_array, erfc_array

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


# The hot unary kernel, one template for the float table, neg, relu and the activations: a
# float32/float64 tensor (and, for the activations, no parameters) takes the fast path, whose
# fresh 1-d results are wrapped inline; everything else takes `{general}`.
_UNARY_HOT = """\
def {name}(self{params}):
    dt = self._dtype
    if (dt is float32 or dt is float64){test}:  # fast path
        r = {compute}
{wrap}
        return _finish_same(r, dt, (self,))
    return {general}
"""


def _unary_hot(name: str, compute: str, general: str, namespace: dict[str, Any], **kw: str) -> Any:
    fields = {"params": "", "test": "", **kw}
    return hot_kernel_function(
        _UNARY_HOT,
        name,
        {**globals(), **namespace},
        __file__,
        compute=compute,
        general=general,
        wrap=wrap_1d(8),
        **fields,
    )


def _unary_float_general(fn: Callable[[np.ndarray], Any], self: Tensor) -> Tensor:
    dt = aten_elementwise.float_result(self._dtype)
    ct = _compute_np(dt)
    a = self._data
    with np.errstate(all="ignore"):
        return _finish(fn(a if a.dtype == ct else a.astype(ct)), dt, (self,))


def _unary_float(name: str, fn: Callable[[np.ndarray], Any]) -> Callable[[Tensor], Tensor]:
    return _unary_hot(name, "fn(self._data)", "_unary_float_general(fn, self)", {"fn": fn})


for _name, _fn in _UNARY_FLOAT_FN.items():
    kernel(_name, leaf=True)(_unary_float(_name, _fn))


def _same(name: str) -> Callable[[Callable[[np.ndarray], Any]], Callable[[Tensor], Tensor]]:
    """A same-dtype unary kernel: fn gets the array (half types as float32)."""

    def deco(fn: Callable[[np.ndarray], Any]) -> Callable[[Tensor], Tensor]:
        def k(self: Tensor) -> Tensor:
            dt = self._dtype
            aten_elementwise.check_unary_same(name, dt)
            ct = _compute_np(dt)
            a = self._data
            r = fn(a if a.dtype == ct else a.astype(ct))
            out_dt = dt.to_real() if name == "abs" else dt
            return _finish(r, out_dt, (self,))

        k.__name__ = name
        kernel(name, quiet=True, leaf=True)(k)
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


def _neg_general(self: Tensor) -> Tensor:
    aten_elementwise.check_unary_same("neg", self._dtype)
    return _finish(np.negative(self._data), self._dtype, (self,))


def _relu_general(self: Tensor) -> Tensor:
    aten_elementwise.check_unary_same("relu", self._dtype)
    a = self._data
    return _finish(np.maximum(a, np.zeros((), a.dtype)), self._dtype, (self,))


neg = kernel("neg", leaf=True)(
    _unary_hot("neg", "np.negative(self._data)", "_neg_general(self)", {})
)
# NaN propagates through maximum, as through PyTorch's relu.
relu = kernel("relu", leaf=True)(
    _unary_hot(
        "relu",
        "np.maximum(self._data, _ZERO32 if dt is float32 else _ZERO64)",
        "_relu_general(self)",
        {},
    )
)


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
    kernel(name, quiet=True, leaf=True)(k)


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
        k = _unary_hot(
            name,
            "fn(self._data)",
            "_activation_general(name, fn, self, args, kwargs)",
            {"fn": fn, "name": name},
            params=", *args, **kwargs",
            test=" and not args and not kwargs",
        )
        kernel(name, leaf=True)(k)
        return k

    return deco


def _activation_general(
    name: str, fn: Callable[..., Any], self: Tensor, args: tuple[Any, ...], kwargs: dict[str, Any]
) -> Tensor:
    dt = self._dtype
    aten_elementwise.check_activation(name, self, *args, **kwargs)
    ct = _compute_np(dt)
    a = self._data
    with np.errstate(all="ignore"):
        r = fn(a if a.dtype == ct else a.astype(ct), *args, **kwargs)
        return _finish(r, dt, (self,))


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


@kernel("hardtanh", quiet=True, leaf=True)
def hardtanh(self: Tensor, min_val: Any = -1, max_val: Any = 1) -> Tensor:
    aten_elementwise.check_activation("hardtanh", self, min_val, max_val)
    dt = self._dtype
    ct = _compute_np(dt)
    a = self._data
    a = a if a.dtype == ct else a.astype(ct)
    lo, hi = _scalar(min_val, dt, ct), _scalar(max_val, dt, ct)
    return _like(_clamp_arrays(a, lo, hi), dt, self)


@kernel("threshold", quiet=True, leaf=True)
def threshold(self: Tensor, threshold: Any, value: Any) -> Tensor:
    dt = self._dtype
    aten_elementwise.check_support("threshold", dt)
    ct = _compute_np(dt)
    a = self._data
    a = a if a.dtype == ct else a.astype(ct)
    th, v = _scalar(threshold, dt, ct), _scalar(value, dt, ct)
    return _finish(np.where(a <= th, v, a), dt, (self,))


@kernel("logit", quiet=True, leaf=True)
def logit(self: Tensor, eps: Any = None) -> Tensor:
    dt = aten_elementwise.float_result(self._dtype)
    ct = _compute_np(dt)
    a = self._data
    a = a if a.dtype == ct else a.astype(ct)
    if eps is not None and eps >= 0:
        lo = np.asarray(eps, ct)
        hi = np.asarray(1 - eps, ct)
        a = np.where(a < lo, lo, np.where(a > hi, hi, a))
    r = np.where(a == 1, np.inf, np.log(a / (1 - a)))
    return _finish(r, dt, (self,))


@kernel("round.decimals", quiet=True, leaf=True)
def round_decimals(self: Tensor, *, decimals: int) -> Tensor:
    dt = self._dtype
    aten_elementwise.check_round_decimals(dt, decimals)
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


@kernel("nan_to_num", quiet=True, leaf=True)
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
    elif out.dtype.kind == "f" and out.dtype == np.asarray(a).dtype and np.ndim(out):
        # a value equal to a bound is the input's own (clamp(-0.0, min=0.0) is -0.0)
        np.copyto(out, a, where=out == a)
    return out


def _clamp_common(self: Tensor, lo: Any, hi: Any, op: str) -> Tensor:
    dt = aten_elementwise.clamp_dtype(self, lo, hi, op)
    ct = _compute_np(dt)
    if dt.category == 1:
        for b in (lo, hi):
            if b is not None and not isinstance(b, Tensor):
                aten_elementwise.checked_scalar(b, dt)
    a = _operand(self, dt, ct)
    lo_ = None if lo is None else _operand(lo, dt, ct)
    hi_ = None if hi is None else _operand(hi, dt, ct)
    ins = (self, *(b for b in (lo, hi) if isinstance(b, Tensor)))
    _shape_check(*ins)
    return _finish(_clamp_arrays(a, lo_, hi_), dt, ins)


@kernel("clamp", quiet=True, leaf=True)
def clamp(self: Tensor, min: Any = None, max: Any = None) -> Tensor:  # noqa: A002
    return _clamp_common(self, min, max, "clamp")


@kernel("clamp.Tensor", quiet=True, leaf=True)
def clamp_Tensor(self: Tensor, min: Any = None, max: Any = None) -> Tensor:  # noqa: A002
    return _clamp_common(self, min, max, "clamp.Tensor")


@kernel("clamp_min", quiet=True, leaf=True)
def clamp_min(self: Tensor, min: Any) -> Tensor:  # noqa: A002
    return _clamp_common(self, min, None, "clamp_min")


@kernel("clamp_max", quiet=True, leaf=True)
def clamp_max(self: Tensor, max: Any) -> Tensor:  # noqa: A002
    return _clamp_common(self, None, max, "clamp_max")


@kernel("clamp_min.Tensor", quiet=True, leaf=True)
def clamp_min_Tensor(self: Tensor, min: Tensor) -> Tensor:  # noqa: A002
    return _clamp_common(self, min, None, "clamp_min.Tensor")


@kernel("clamp_max.Tensor", quiet=True, leaf=True)
def clamp_max_Tensor(self: Tensor, max: Tensor) -> Tensor:  # noqa: A002
    return _clamp_common(self, None, max, "clamp_max.Tensor")
