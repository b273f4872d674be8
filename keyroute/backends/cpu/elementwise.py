"""CPU kernels of the elementwise operators: NumPy ufuncs with PyTorch's dtype rules.

The result dtype comes from PyTorch's promotion (aten/_promotion.py); operands are cast to it
before the ufunc runs, so NumPy's own promotion never decides. Half-precision inputs compute in
float32 where PyTorch's CPU kernels do (transcendentals), then round once.
"""

from __future__ import annotations

import math
from collections.abc import Callable
from typing import Any

import numpy as np

from ...aten._promotion import binary_result_dtype, result_type
from ...tensor._tensor import CPU_KEYS, Tensor
from ...tensor.dtype import bool_, float32, get_default_dtype
from ._kernel import kernel, raise_from_meta

ndarray = np.ndarray
_new = object.__new__

try:  # SciPy's erf when present (exact and fast); keyroute's own otherwise.
    from scipy.special import erf as _scipy_erf
except ImportError:  # pragma: no cover - depends on the environment
    _scipy_erf = None


# ----------------------------------------------------------------------------- erf


def _erf_own(x: np.ndarray) -> np.ndarray:
    """erf to ~1e-15 relative in float64: Taylor series for |x| < 2.5, continued fraction for
    erfc above (both vectorised)."""
    x = np.asarray(x, dtype=np.float64)
    ax = np.abs(x)
    out = np.empty_like(x)
    small = ax < 2.5
    if small.any():
        xs = x[small]
        x2 = xs * xs
        term = xs.copy()
        total = xs.copy()
        for n in range(1, 60):
            term = term * (-x2) / n
            total += term / (2 * n + 1)
        out[small] = total * (2.0 / math.sqrt(math.pi))
    big = ~small
    if big.any():
        xb = ax[big]
        # erfc(x) = exp(-x^2)/sqrt(pi) * 1/(x + (1/2)/(x + 1/(x + (3/2)/(x + 2/(x + ...)))))
        frac = xb.copy()
        for k in range(60, 0, -1):
            frac = xb + (k / 2.0) / frac
        erfc = np.exp(-xb * xb) / math.sqrt(math.pi) / frac
        out[big] = np.copysign(1.0 - erfc, x[big])
    out[np.isnan(x)] = np.nan
    return out


def erf_array(a: np.ndarray) -> np.ndarray:
    if _scipy_erf is not None:
        return _scipy_erf(a)
    return _erf_own(a).astype(a.dtype if a.dtype.kind == "f" else np.float64)


# ----------------------------------------------------------------------------- dtype helpers


def _out(a: Any, dt: Any) -> Tensor:
    """Wrap a NumPy result as a CPU tensor of dtype dt (casting if NumPy chose another)."""
    if a.__class__ is not ndarray:
        a = np.asarray(a)
    if a.dtype != dt.np:
        a = a.astype(dt.np)
    t = _new(Tensor)
    t._data = a
    t._dtype = dt
    t._ks = CPU_KEYS
    t._ag = None
    t._base = None
    t._vc = None
    return t


def _compute_np(dt: Any) -> Any:
    """The NumPy dtype to compute a transcendental in: half types go through float32."""
    if dt.itemsize == 2 and dt.category == 2:
        return np.float32
    return dt.np


def _as(a: Any, np_dtype: Any) -> Any:
    if a.__class__ is ndarray:
        return a if a.dtype == np_dtype else a.astype(np_dtype)
    return a


def _scalar_for(v: Any, dt: Any) -> Any:
    """A Python scalar ready to combine with an array of dtype dt (ints wrap like C++)."""
    if dt.category <= 1 and isinstance(v, float):
        return v
    if dt.category == 1 and isinstance(v, int) and not isinstance(v, bool):
        info = np.iinfo(dt.np)
        if not info.min <= v <= info.max:
            return np.array(v).astype(dt.np)[()]
    if dt.category == 2 and isinstance(v, complex):
        return v
    return v


def _operands(self: Any, other: Any) -> tuple[Any, Any, Any]:
    """NumPy operands cast to the PyTorch result dtype, and that dtype."""
    if isinstance(other, Tensor):
        if isinstance(self, Tensor) and self._dtype is other._dtype:
            return self._data, other._data, self._dtype
        dt = result_type(self, other)
        a = _as(self._data, dt.np) if isinstance(self, Tensor) else _scalar_for(self, dt)
        return a, _as(other._data, dt.np), dt
    dt = binary_result_dtype(self, other)
    return _as(self._data, dt.np), _scalar_for(other, dt), dt


# ----------------------------------------------------------------------------- unary


def _unary_float(fn: Callable[[np.ndarray], np.ndarray], name: str) -> Callable[[Tensor], Tensor]:
    def k(self: Tensor) -> Tensor:
        dt = self._dtype
        if dt.category < 2:
            dt = get_default_dtype()
        a = _as(self._data, _compute_np(dt))
        with np.errstate(all="ignore"):
            return _out(fn(a), dt)

    k.__name__ = name
    return k


def _unary_same(fn: Callable[[np.ndarray], np.ndarray], name: str) -> Callable[[Tensor], Tensor]:
    def k(self: Tensor) -> Tensor:
        with np.errstate(all="ignore"):
            return _out(fn(self._data), self._dtype)

    k.__name__ = name
    return k


def _unary_bool(fn: Callable[[np.ndarray], np.ndarray], name: str) -> Callable[[Tensor], Tensor]:
    def k(self: Tensor) -> Tensor:
        return _out(fn(self._data), bool_)

    k.__name__ = name
    return k


def _sigmoid(a: np.ndarray) -> np.ndarray:
    # Stable for large |x|: exp of a non-positive number only.
    e = np.exp(-np.abs(a))
    return np.where(a >= 0, 1.0 / (1.0 + e), e / (1.0 + e)).astype(a.dtype)


def _rsqrt(a: np.ndarray) -> np.ndarray:
    return 1.0 / np.sqrt(a)


def _round_half_even(a: np.ndarray) -> np.ndarray:
    return np.round(a) if a.dtype.kind in "fc" else a.copy()


def _int_passthrough(fn: Callable[[np.ndarray], np.ndarray]) -> Callable[[np.ndarray], np.ndarray]:
    def g(a: np.ndarray) -> np.ndarray:
        return a.copy() if a.dtype.kind in "iub" else fn(a)

    return g


def _sign(a: np.ndarray) -> np.ndarray:
    if a.dtype.kind == "b":
        return a.copy()
    return np.sign(a)


def _abs(a: np.ndarray) -> np.ndarray:
    return a.copy() if a.dtype.kind == "b" else np.abs(a)


def _neg(a: np.ndarray) -> np.ndarray:
    if a.dtype.kind == "b":
        raise RuntimeError(
            "Negation, the `-` operator, on a bool tensor is not supported. If you are trying "
            "to invert a mask, use the `~` or `logical_not()` operator instead."
        )
    return np.negative(a)


def _frac(a: np.ndarray) -> np.ndarray:
    return a - np.trunc(a)


def _relu(a: np.ndarray) -> np.ndarray:
    if a.dtype.kind == "b":
        raise RuntimeError("\"clamp_min_cpu\" not implemented for 'Bool'")
    return np.maximum(a, 0).astype(a.dtype, copy=False)


def _silu(a: np.ndarray) -> np.ndarray:
    return a * _sigmoid(a)


def _mish(a: np.ndarray) -> np.ndarray:
    return a * np.tanh(np.logaddexp(0, a))


def _bitwise_not(a: np.ndarray) -> np.ndarray:
    if a.dtype.kind == "f":
        raise RuntimeError("\"bitwise_not_cpu\" not implemented for 'Float'")
    return np.logical_not(a) if a.dtype.kind == "b" else np.invert(a)


_UNARY_FLOAT = {
    "exp": np.exp, "exp2": np.exp2, "expm1": np.expm1, "log": np.log, "log1p": np.log1p,
    "log2": np.log2, "log10": np.log10, "sqrt": np.sqrt, "rsqrt": _rsqrt,
    "reciprocal": np.reciprocal, "sin": np.sin, "cos": np.cos, "tan": np.tan, "tanh": np.tanh,
    "sigmoid": _sigmoid, "erf": erf_array, "erfc": lambda a: 1.0 - erf_array(a),
    "asin": np.arcsin, "acos": np.arccos, "atan": np.arctan, "sinh": np.sinh, "cosh": np.cosh,
    "asinh": np.arcsinh, "acosh": np.arccosh, "atanh": np.arctanh, "silu": _silu, "mish": _mish,
    "hardsigmoid": lambda a: np.clip(a / 6.0 + 0.5, 0.0, 1.0),
    "hardswish": lambda a: a * np.clip(a / 6.0 + 0.5, 0.0, 1.0),
}  # fmt: skip
_UNARY_SAME = {
    "abs": _abs, "neg": _neg, "sign": _sign, "floor": _int_passthrough(np.floor),
    "ceil": _int_passthrough(np.ceil), "round": _round_half_even,
    "trunc": _int_passthrough(np.trunc), "frac": _frac, "relu": _relu,
    "bitwise_not": _bitwise_not,
}  # fmt: skip
_UNARY_BOOL = {
    "logical_not": np.logical_not, "isnan": np.isnan, "isinf": np.isinf,
    "signbit": np.signbit, "isposinf": np.isposinf, "isneginf": np.isneginf,
}  # fmt: skip

for _name, _fn in _UNARY_FLOAT.items():
    kernel(_name)(_unary_float(_fn, _name))
for _name, _fn in _UNARY_SAME.items():
    kernel(_name)(_unary_same(_fn, _name))
for _name, _fn in _UNARY_BOOL.items():
    kernel(_name)(_unary_bool(_fn, _name))


def _float_unary_param(name: str) -> Callable[[Callable[..., Any]], Callable[..., Any]]:
    """Register a float-computing unary kernel with parameters: fn(a, *params) -> array."""

    def deco(fn: Callable[..., Any]) -> Callable[..., Any]:
        def k(self: Tensor, *args: Any, **kwargs: Any) -> Tensor:
            dt = self._dtype if self._dtype.category >= 2 else get_default_dtype()
            with np.errstate(all="ignore"):
                return _out(fn(_as(self._data, _compute_np(dt)), *args, **kwargs), dt)

        k.__name__ = name
        kernel(name)(k)
        return fn

    return deco


@_float_unary_param("gelu")
def _gelu(a: np.ndarray, *, approximate: str = "none") -> np.ndarray:
    if approximate == "tanh":
        inner = math.sqrt(2.0 / math.pi) * (a + 0.044715 * a * a * a)
        return 0.5 * a * (1.0 + np.tanh(inner))
    if approximate != "none":
        raise RuntimeError("approximate argument must be either none or tanh.")
    return 0.5 * a * (1.0 + erf_array(a * (1.0 / math.sqrt(2.0))))


@_float_unary_param("softplus")
def _softplus(a: np.ndarray, beta: Any = 1, threshold: Any = 20) -> np.ndarray:
    bx = a * beta
    return np.where(bx > threshold, a, np.log1p(np.exp(np.minimum(bx, threshold))) / beta)


@_float_unary_param("elu")
def _elu(a: np.ndarray, alpha: Any = 1, scale: Any = 1, input_scale: Any = 1) -> np.ndarray:
    return np.where(a > 0, a * scale, alpha * scale * np.expm1(a * input_scale))


@_float_unary_param("celu")
def _celu(a: np.ndarray, alpha: Any = 1.0) -> np.ndarray:
    return np.maximum(a, 0) + np.minimum(0, alpha * np.expm1(a / alpha))


@_float_unary_param("logit")
def _logit(a: np.ndarray, eps: Any = None) -> np.ndarray:
    if eps is not None:
        a = np.clip(a, eps, 1.0 - eps)
    return np.log(a / (1.0 - a))


@kernel("leaky_relu")
def leaky_relu(self: Tensor, negative_slope: Any = 0.01) -> Tensor:
    a = self._data
    return _out(np.where(a > 0, a, a * negative_slope), self._dtype)


@kernel("hardtanh")
def hardtanh(self: Tensor, min_val: Any = -1, max_val: Any = 1) -> Tensor:
    if self._dtype is bool_:
        raise RuntimeError("Bool inputs not supported for hardtanh")
    return _out(np.clip(self._data, min_val, max_val), self._dtype)


@kernel("threshold")
def threshold(self: Tensor, threshold: Any, value: Any) -> Tensor:
    a = self._data
    return _out(np.where(a <= threshold, value, a), self._dtype)


@kernel("round.decimals")
def round_decimals(self: Tensor, *, decimals: int) -> Tensor:
    a = self._data
    if a.dtype.kind in "iub":
        if decimals != 0:
            raise RuntimeError("round_cpu not implemented for integer types with decimals != 0")
        return _out(a.copy(), self._dtype)
    return _out(np.round(a, decimals), self._dtype)


@kernel("nan_to_num")
def nan_to_num(self: Tensor, nan: Any = None, posinf: Any = None, neginf: Any = None) -> Tensor:
    a = self._data
    if a.dtype.kind in "iub":
        return _out(a.copy(), self._dtype)
    info = np.finfo(
        np.float32 if self._dtype.itemsize == 2 and self._dtype.name == "bfloat16" else a.dtype
    )
    if self._dtype.name == "bfloat16":
        import ml_dtypes

        info = ml_dtypes.finfo(a.dtype)
    out = np.nan_to_num(
        a, nan=0.0 if nan is None else nan,
        posinf=float(info.max) if posinf is None else posinf,
        neginf=float(info.min) if neginf is None else neginf,
    )  # fmt: skip
    return _out(out, self._dtype)


# -- clamp


def _clamp(a: np.ndarray, lo: Any, hi: Any) -> np.ndarray:
    out = a
    if lo is not None:
        out = np.where(np.isnan(out) if out.dtype.kind == "f" else False, out, np.maximum(out, lo))
    if hi is not None:
        out = np.where(np.isnan(out) if out.dtype.kind == "f" else False, out, np.minimum(out, hi))
    return out if out is not a else a.copy()


@kernel("clamp")
def clamp(self: Tensor, min: Any = None, max: Any = None) -> Tensor:  # noqa: A002
    if min is None and max is None:
        raise RuntimeError("torch.clamp: At least one of 'min' or 'max' must not be None")
    dt = result_type(self, *(v for v in (min, max) if v is not None))
    with np.errstate(invalid="ignore"):
        return _out(_clamp(_as(self._data, dt.np), min, max), dt)


@kernel("clamp.Tensor")
def clamp_Tensor(self: Tensor, min: Any = None, max: Any = None) -> Tensor:  # noqa: A002
    if min is None and max is None:
        raise RuntimeError("torch.clamp: At least one of 'min' or 'max' must not be None")
    dt = result_type(self, *(v for v in (min, max) if v is not None))
    lo = None if min is None else _as(min._data, dt.np)
    hi = None if max is None else _as(max._data, dt.np)
    return _out(_clamp(_as(self._data, dt.np), lo, hi), dt)


@kernel("clamp_min")
def clamp_min(self: Tensor, min: Any) -> Tensor:  # noqa: A002
    return clamp(self, min, None)


@kernel("clamp_max")
def clamp_max(self: Tensor, max: Any) -> Tensor:  # noqa: A002
    return clamp(self, None, max)


@kernel("clamp_min.Tensor")
def clamp_min_Tensor(self: Tensor, min: Tensor) -> Tensor:  # noqa: A002
    return clamp_Tensor(self, min, None)


@kernel("clamp_max.Tensor")
def clamp_max_Tensor(self: Tensor, max: Tensor) -> Tensor:  # noqa: A002
    return clamp_Tensor(self, None, max)


# ----------------------------------------------------------------------------- binary


def _check_alpha(dt: Any, alpha: Any) -> None:
    if isinstance(alpha, bool):
        if dt is not bool_:
            raise RuntimeError("Boolean alpha only supported for Boolean results.")
    elif isinstance(alpha, float) and dt.category <= 1:
        raise RuntimeError(
            "For integral input tensors, argument alpha must not be a floating point number."
        )


def _make_add(ufunc: Any, name: str, sub: bool) -> Callable[..., Tensor]:
    def k(self: Any, other: Any, *, alpha: Any = 1) -> Tensor:
        a, b, dt = _operands(self, other)
        if sub and dt is bool_:
            raise RuntimeError(
                "Subtraction, the `-` operator, with two bool tensors is not supported. Use the "
                "`^` or `logical_xor()` operator instead."
            )
        if alpha != 1:
            _check_alpha(dt, alpha)
            b = b * alpha
            if b.__class__ is ndarray and b.dtype != dt.np:
                b = b.astype(dt.np)
        try:
            r = ufunc(a, b)
        except (ValueError, TypeError) as exc:
            raise_from_meta(name, (self, other), {}, exc)
        if r.__class__ is not ndarray or r.dtype != dt.np:
            return _out(r, dt)
        t = _new(Tensor)
        t._data = r
        t._dtype = dt
        t._ks = CPU_KEYS
        t._ag = None
        t._base = None
        t._vc = None
        return t

    k.__name__ = name
    return k


add_Tensor = kernel("add.Tensor")(_make_add(np.add, "add.Tensor", False))
sub_Tensor = kernel("sub.Tensor")(_make_add(np.subtract, "sub.Tensor", True))


@kernel("add.Scalar")
def add_Scalar(self: Tensor, other: Any, alpha: Any = 1) -> Tensor:
    return add_Tensor(self, other, alpha=alpha)


@kernel("sub.Scalar")
def sub_Scalar(self: Tensor, other: Any, alpha: Any = 1) -> Tensor:
    return sub_Tensor(self, other, alpha=alpha)


@kernel("rsub.Tensor")
def rsub_Tensor(self: Tensor, other: Any, *, alpha: Any = 1) -> Tensor:
    return (
        sub_Tensor(other, self, alpha=alpha)
        if isinstance(other, Tensor)
        else _rsub_scalar(self, other, alpha)
    )


def _rsub_scalar(self: Tensor, other: Any, alpha: Any) -> Tensor:
    a, b, dt = _operands(self, other)
    if dt is bool_:
        raise RuntimeError(
            "Subtraction, the `-` operator, with two bool tensors is not supported. Use the `^` "
            "or `logical_xor()` operator instead."
        )
    return _out(np.subtract(b, a * alpha if alpha != 1 else a), dt)


@kernel("rsub.Scalar")
def rsub_Scalar(self: Tensor, other: Any, alpha: Any = 1) -> Tensor:
    return _rsub_scalar(self, other, alpha)


def _make_binary(ufunc: Any, name: str, rule: str = "same") -> Callable[..., Tensor]:
    def k(self: Any, other: Any) -> Tensor:
        a, b, dt = _operands(self, other)
        if rule == "float" and dt.category < 2:
            dt = get_default_dtype()
            a = _as(a, dt.np) if a.__class__ is ndarray else a
            b = _as(b, dt.np) if b.__class__ is ndarray else b
        try:
            with np.errstate(divide="ignore", invalid="ignore", over="ignore"):
                r = ufunc(a, b)
        except (ValueError, TypeError) as exc:
            raise_from_meta(name, (self, other), {}, exc)
        if rule == "bool":
            return _out(r, bool_)
        return _out(r, dt)

    k.__name__ = name
    return k


def _logical(fn: Any) -> Any:
    return lambda a, b: fn(a, b)


def _int_check(fn: Any, opname: str) -> Any:
    def g(a: Any, b: Any) -> Any:
        if np.asarray(a).dtype.kind == "f" or np.asarray(b).dtype.kind == "f":
            raise RuntimeError(f"\"{opname}_cpu\" not implemented for 'Float'")
        return fn(a, b)

    return g


def _int_div_check(fn: Any) -> Any:
    def g(a: Any, b: Any) -> Any:
        arr_b = np.asarray(b)
        if arr_b.dtype.kind in "iu" and np.asarray(a).dtype.kind in "iu" and (arr_b == 0).any():
            raise RuntimeError("ZeroDivisionError")
        return fn(a, b)

    return g


_BINARY_KERNELS = {
    "mul": (np.multiply, "same"),
    "div": (np.true_divide, "float"),
    "remainder": (_int_div_check(np.remainder), "same"),
    "fmod": (_int_div_check(np.fmod), "same"),
    "eq": (np.equal, "bool"), "ne": (np.not_equal, "bool"), "lt": (np.less, "bool"),
    "le": (np.less_equal, "bool"), "gt": (np.greater, "bool"), "ge": (np.greater_equal, "bool"),
    "bitwise_and": (_int_check(np.bitwise_and, "bitwise_and"), "same"),
    "bitwise_or": (_int_check(np.bitwise_or, "bitwise_or"), "same"),
    "bitwise_xor": (_int_check(np.bitwise_xor, "bitwise_xor"), "same"),
    "bitwise_left_shift": (_int_check(np.left_shift, "lshift"), "same"),
    "bitwise_right_shift": (_int_check(np.right_shift, "rshift"), "same"),
}  # fmt: skip
for _name, (_uf, _rule) in _BINARY_KERNELS.items():
    if _name == "mul":
        continue
    kernel(f"{_name}.Tensor")(_make_binary(_uf, f"{_name}.Tensor", _rule))
    kernel(f"{_name}.Scalar")(_make_binary(_uf, f"{_name}.Scalar", _rule))

mul_Tensor = kernel("mul.Tensor")(_make_binary(np.multiply, "mul.Tensor"))

for _name, _uf, _rule in (
    ("atan2", np.arctan2, "float"), ("maximum", np.maximum, "same"),
    ("minimum", np.minimum, "same"), ("fmax", np.fmax, "same"), ("fmin", np.fmin, "same"),
    ("logical_and", np.logical_and, "bool"), ("logical_or", np.logical_or, "bool"),
    ("logical_xor", np.logical_xor, "bool"), ("hypot", np.hypot, "float"),
    ("copysign.Tensor", np.copysign, "float"),
):  # fmt: skip
    kernel(_name)(_make_binary(_uf, _name, _rule))


@kernel("xlogy.Tensor")
def xlogy(self: Tensor, other: Tensor) -> Tensor:
    a, b, dt = _operands(self, other)
    if dt.category < 2:
        dt = get_default_dtype()
        a, b = _as(a, dt.np), _as(b, dt.np)
    with np.errstate(all="ignore"):
        r = np.where(a == 0, np.where(np.isnan(b), np.nan, 0.0), a * np.log(b))
    return _out(r, dt)


def _div_mode(self: Any, other: Any, rounding_mode: str | None) -> Tensor:
    a, b, dt = _operands(self, other)
    if rounding_mode is None:
        return div_Tensor(self, other)
    if dt is bool_:
        raise RuntimeError("\"div_floor_cpu\" not implemented for 'Bool'")
    with np.errstate(divide="ignore", invalid="ignore", over="ignore"):
        if dt.category <= 1:
            if (np.asarray(b) == 0).any():
                raise RuntimeError("ZeroDivisionError")
            if rounding_mode == "floor":
                return _out(np.floor_divide(a, b), dt)
            if rounding_mode == "trunc":
                q = np.floor_divide(a, b)
                rem = a - q * b
                fix = (rem != 0) & ((np.asarray(a) < 0) != (np.asarray(b) < 0))
                return _out(q + fix, dt)
        comp = _compute_np(dt)
        q = np.true_divide(_as(np.asarray(a), comp), _as(np.asarray(b), comp))
        if rounding_mode == "trunc":
            return _out(np.trunc(q), dt)
        if rounding_mode == "floor":
            return _out(np.floor(q), dt)
    raise RuntimeError(
        f"div expected rounding_mode to be one of None, 'trunc', or 'floor' but found "
        f"'{rounding_mode}'"
    )


div_Tensor = _make_binary(np.true_divide, "div.Tensor", "float")


@kernel("div.Tensor_mode")
def div_Tensor_mode(self: Tensor, other: Tensor, *, rounding_mode: str | None) -> Tensor:
    return _div_mode(self, other, rounding_mode)


@kernel("div.Scalar_mode")
def div_Scalar_mode(self: Tensor, other: Any, *, rounding_mode: str | None) -> Tensor:
    return _div_mode(self, other, rounding_mode)


def _pow(self: Any, exponent: Any) -> Tensor:
    a, b, dt = _operands(self, exponent)
    if dt.category == 1:
        bb = np.asarray(b)
        if (bb < 0).any():
            raise RuntimeError("Integers to negative integer powers are not allowed.")
    if dt is bool_:
        return _out(np.power(np.asarray(a, np.int64), np.asarray(b, np.int64)).astype(bool), dt)
    with np.errstate(all="ignore"):
        if isinstance(b, (int, float)) and not isinstance(b, bool) and a.__class__ is ndarray:
            if b == 2:
                return _out(np.multiply(a, a), dt)
            if b == 0.5 and dt.category >= 2:
                return _out(np.sqrt(a), dt)
            if b == 1:
                return _out(a.copy(), dt)
        comp = _compute_np(dt)
        return _out(np.power(_as(a, comp) if a.__class__ is ndarray else a,
                             _as(b, comp) if b.__class__ is ndarray else b), dt)  # fmt: skip


@kernel("pow.Tensor_Tensor")
def pow_Tensor_Tensor(self: Tensor, exponent: Tensor) -> Tensor:
    return _pow(self, exponent)


@kernel("pow.Tensor_Scalar")
def pow_Tensor_Scalar(self: Tensor, exponent: Any) -> Tensor:
    return _pow(self, exponent)


@kernel("pow.Scalar")
def pow_Scalar(self: Any, exponent: Tensor) -> Tensor:
    return _pow(self, exponent)


@kernel("lerp.Scalar")
def lerp_Scalar(self: Tensor, end: Tensor, weight: Any) -> Tensor:
    a, b, dt = _operands(self, end)
    with np.errstate(all="ignore"):
        return _out(
            np.where(abs(weight) < 0.5, a + weight * (b - a), b - (b - a) * (1 - weight)), dt
        )


@kernel("lerp.Tensor")
def lerp_Tensor(self: Tensor, end: Tensor, weight: Tensor) -> Tensor:
    a, b, dt = _operands(self, end)
    w = _as(weight._data, dt.np)
    with np.errstate(all="ignore"):
        return _out(np.where(np.abs(w) < 0.5, a + w * (b - a), b - (b - a) * (1 - w)), dt)


@kernel("addcmul")
def addcmul(self: Tensor, tensor1: Tensor, tensor2: Tensor, *, value: Any = 1) -> Tensor:
    dt = result_type(self, tensor1, tensor2)
    a, t1, t2 = (_as(x._data, dt.np) for x in (self, tensor1, tensor2))
    return _out(a + value * (t1 * t2), dt)


@kernel("addcdiv")
def addcdiv(self: Tensor, tensor1: Tensor, tensor2: Tensor, *, value: Any = 1) -> Tensor:
    dt = result_type(self, tensor1, tensor2)
    if dt.category <= 1:
        raise RuntimeError(
            "Integer division with addcdiv is no longer supported, and in a future release "
            "addcdiv will perform a true division of tensor1 and tensor2. The historic addcdiv "
            "behavior can be implemented as (input + value * torch.trunc(tensor1 / tensor2)).to("
            "input.dtype) for integer inputs and as (input + value * tensor1 / tensor2) for float "
            "inputs. The future addcdiv behavior is just the latter implementation: (input + "
            "value * tensor1 / tensor2), for all dtypes."
        )
    a, t1, t2 = (_as(x._data, dt.np) for x in (self, tensor1, tensor2))
    with np.errstate(all="ignore"):
        return _out(a + value * (t1 / t2), dt)


@kernel("where.self")
def where_self(condition: Tensor, self: Tensor, other: Tensor) -> Tensor:
    if condition._dtype is not bool_:
        raise RuntimeError(
            f"where expected condition to be a boolean tensor, but got a tensor with dtype "
            f"{condition._dtype._short}"
        )
    a, b, dt = _operands(self, other)
    return _out(np.where(condition._data, a, b), dt)


@kernel("masked_fill.Scalar")
def masked_fill_Scalar(self: Tensor, mask: Tensor, value: Any) -> Tensor:
    if mask._dtype is not bool_:
        raise RuntimeError(
            f"masked_fill_ only supports boolean masks, but got mask with dtype "
            f"{mask._dtype._short}"
        )
    a = self._data
    v = _scalar_for(value, self._dtype)
    if isinstance(v, float) and self._dtype.category <= 1:
        v = int(v) if self._dtype is not bool_ else bool(v)
    with np.errstate(invalid="ignore"):
        out = np.where(mask._data, np.asarray(v).astype(a.dtype), a)
    if out.shape != a.shape:
        raise_from_meta("masked_fill.Scalar", (self, mask, value), {}, RuntimeError(
            f"masked_fill: mask of shape {list(mask.shape)} is not broadcastable to self of "
            f"shape {list(a.shape)}"))  # fmt: skip
    return _out(out, self._dtype)


@kernel("masked_fill.Tensor")
def masked_fill_Tensor(self: Tensor, mask: Tensor, value: Tensor) -> Tensor:
    if value.dim() != 0:
        raise RuntimeError(
            f"masked_fill_ only supports a 0-dimensional value tensor, but got tensor with "
            f"{value.dim()} dimension(s)."
        )
    return masked_fill_Scalar(self, mask, value.item())


# ----------------------------------------------------------------------------- hot in-place ops


def _inplace_binary(
    ufunc: Any, name: str, functional: Callable[..., Tensor], alpha_op: bool
) -> Callable[..., Tensor]:
    """self op= other written in place with NumPy (no temporary for the result)."""

    def k(self: Tensor, other: Any, *args: Any, **kwargs: Any) -> Tensor:
        a = self._data
        if isinstance(other, Tensor) and other._dtype is self._dtype and not args and not kwargs:
            b = other._data
            if b.shape == a.shape or np.broadcast_shapes(a.shape, b.shape) == a.shape:
                if a.flags.writeable:
                    ufunc(a, b, out=a)
                    return self
        result = functional(self, other, *args, **kwargs)
        from ...aten._variants import check_inplace

        check_inplace(self, result._data.shape, result._dtype)
        np.copyto(a, result._data, casting="unsafe")
        return self

    k.__name__ = name
    return k


kernel("add_.Tensor")(_inplace_binary(np.add, "add_.Tensor", add_Tensor, True))
kernel("sub_.Tensor")(_inplace_binary(np.subtract, "sub_.Tensor", sub_Tensor, True))
kernel("mul_.Tensor")(_inplace_binary(np.multiply, "mul_.Tensor", mul_Tensor, False))
kernel("div_.Tensor")(_inplace_binary(np.true_divide, "div_.Tensor", div_Tensor, False))
del float32
