"""CPU kernels of torch.special's functions (schemas in aten/special.py).

SciPy's Cephes-derived functions are used when SciPy is installed (PyTorch's kernels are
Cephes ports too, so the values agree to rounding); without SciPy each function has a NumPy
implementation here (series, recurrences and asymptotic expansions in float64), accurate to a
few ulp in float64 over the ranges programs use.
"""

from __future__ import annotations

import math
from collections.abc import Callable
from typing import Any

import numpy as np

from ._kernel import kernel
from ._special import erf_array, erfc_array
from .binary import _binary_kernel
from .unary import _unary_float

__all__ = ["SPECIAL_FUNCTIONS", "fallback"]

_UNLOADED = object()
_sc: Any = _UNLOADED


def _scipy() -> Any:
    global _sc
    if _sc is _UNLOADED:
        try:
            import scipy.special as sc
        except ImportError:  # pragma: no cover - depends on the environment
            sc = None
        _sc = sc
    return _sc


# ----------------------------------------------------------------------------- NumPy fallbacks


def _f64(a: Any) -> np.ndarray:
    return np.asarray(a, dtype=np.float64)


def erfinv_np(y: Any) -> np.ndarray:
    y = _f64(y)
    out = np.full(y.shape, np.nan)
    a = np.abs(y)
    ok = a < 1
    # Giles' single-precision approximation as the start, then Newton steps on erf.
    w = -np.log((1.0 - y[ok]) * (1.0 + y[ok]))
    small = w < 5.0
    ws = np.where(small, w - 2.5, np.sqrt(np.maximum(w, 5.0)) - 3.0)
    cs = (
        2.81022636e-08, 3.43273939e-07, -3.5233877e-06, -4.39150654e-06, 0.00021858087,
        -0.00125372503, -0.00417768164, 0.246640727, 1.50140941,
    )  # fmt: skip
    cl = (
        -0.000200214257, 0.000100950558, 0.00134934322, -0.00367342844, 0.00573950773,
        -0.0076224613, 0.00943887047, 1.00167406, 2.83297682,
    )  # fmt: skip
    p = np.where(small, cs[0], cl[0])
    for c_s, c_l in zip(cs[1:], cl[1:]):
        p = np.where(small, c_s, c_l) + p * ws
    x = p * y[ok]
    for _ in range(3):
        err = erf_array(x) - y[ok]
        x = x - err / (2.0 / math.sqrt(math.pi) * np.exp(-x * x))
    out[ok] = x
    out[a == 1] = np.copysign(np.inf, y[a == 1])
    return out


def lgamma_np(x: Any) -> np.ndarray:
    x = _f64(x)

    def one(v: float) -> float:
        try:
            return math.lgamma(v)
        except ValueError:  # the poles (non-positive integers)
            return math.inf

    return np.vectorize(one, otypes=[np.float64])(x) if x.size else x.copy()


def digamma_np(x: Any) -> np.ndarray:
    x = _f64(x)
    out = np.empty_like(x)
    neg = x < 0.5
    # Reflection: psi(1 - x) - psi(x) = pi cot(pi x).
    xr = np.where(neg, 1.0 - x, x)
    acc = np.zeros_like(x)
    v = xr.copy()
    while True:
        lo = v < 6
        if not lo.any():
            break
        acc = acc - np.where(lo, 1.0 / np.where(lo, v, 1.0), 0.0)
        v = np.where(lo, v + 1, v)
    inv = 1.0 / v
    inv2 = inv * inv
    series = inv2 * (
        1 / 12 - inv2 * (1 / 120 - inv2 * (1 / 252 - inv2 * (1 / 240 - inv2 * (1 / 132))))
    )
    res = np.log(v) - 0.5 * inv - series + acc
    with np.errstate(all="ignore"):
        refl = res - math.pi / np.tan(math.pi * x)
    out[...] = np.where(neg, refl, res)
    out[(x <= 0) & (x == np.floor(x))] = np.nan
    out[x == 0] = np.copysign(np.inf, -x[x == 0]) if (x == 0).any() else out[x == 0]
    return out


def zeta_np(s: Any, q: Any) -> np.ndarray:
    """The Hurwitz zeta function by Euler-Maclaurin summation (s > 1, q > 0)."""
    s, q = np.broadcast_arrays(_f64(s), _f64(q))
    n = 12
    acc = np.zeros(s.shape)
    for k in range(n):
        acc += (q + k) ** -s
    a = q + n
    acc += a ** (1 - s) / (s - 1) + 0.5 * a**-s
    # Bernoulli terms B_2k / (2k)!
    b = (1 / 12, -1 / 720, 1 / 30240, -1 / 1209600, 1 / 47900160, -691 / 1307674368000)
    fac = s * a ** (-s - 1)
    for j, bj in enumerate(b):
        acc += bj * fac
        fac = fac * (s + 2 * j + 1) * (s + 2 * j + 2) / (a * a)
    acc = np.where(s == 1, np.inf, acc)
    return np.where((s < 1) | (q <= 0), np.nan, acc)


def polygamma_np(n: int, x: Any) -> np.ndarray:
    x = _f64(x)
    if n == 0:
        return digamma_np(x)
    sign = -1.0 if n % 2 == 0 else 1.0
    return sign * math.factorial(n) * zeta_np(np.full(x.shape, n + 1.0), x)


def _i_series(x: np.ndarray, nu: int) -> np.ndarray:
    h = x / 2
    term = h**nu / math.factorial(nu)
    acc = term.copy()
    for k in range(1, 200):
        term = term * h * h / (k * (k + nu))
        acc = acc + term
    return acc


def _i_asym(ax: np.ndarray, nu: int) -> np.ndarray:
    """exp(-x) I_nu(x) for large x."""
    mu = 4.0 * nu * nu
    term = np.ones_like(ax)
    acc = term.copy()
    for k in range(1, 30):
        term = -term * (mu - (2 * k - 1) ** 2) / (k * 8 * ax)
        acc = acc + term
    return acc / np.sqrt(2 * math.pi * ax)


def _ie(x: Any, nu: int) -> np.ndarray:
    x = _f64(x)
    ax = np.abs(x)
    big = ax > 30
    with np.errstate(all="ignore"):
        small_v = _i_series(np.where(big, 0.0, ax), nu) * np.exp(-np.where(big, 0.0, ax))
        big_v = _i_asym(np.where(big, ax, 31.0), nu)
    r = np.where(big, big_v, small_v)
    return np.copysign(r, x) if nu == 1 else r


def i0e_np(x: Any) -> np.ndarray:
    return _ie(x, 0)


def i1e_np(x: Any) -> np.ndarray:
    return _ie(x, 1)


def i0_np(x: Any) -> np.ndarray:
    with np.errstate(over="ignore"):
        return _ie(x, 0) * np.exp(np.abs(_f64(x)))


def i1_np(x: Any) -> np.ndarray:
    with np.errstate(over="ignore"):
        return _ie(x, 1) * np.exp(np.abs(_f64(x)))


def ndtri_np(p: Any) -> np.ndarray:
    return math.sqrt(2.0) * erfinv_np(2.0 * _f64(p) - 1.0)


def erfcx_np(x: Any) -> np.ndarray:
    x = _f64(x)
    out = np.empty_like(x)
    big = x > 25
    with np.errstate(over="ignore"):
        out[~big] = np.exp(x[~big] ** 2) * erfc_array(x[~big])
    xb = x[big]
    # Asymptotic: erfcx(x) ~ 1/(x sqrt(pi)) (1 - 1/(2x^2) + 3/(4x^4) - ...)
    inv2 = 1.0 / (2 * xb * xb)
    out[big] = (1 - inv2 * (1 - 3 * inv2 * (1 - 5 * inv2))) / (xb * math.sqrt(math.pi))
    return out


def log_ndtr_np(x: Any) -> np.ndarray:
    x = _f64(x)
    out = np.empty_like(x)
    lo = x < -5
    with np.errstate(divide="ignore"):
        out[~lo] = np.log1p(-0.5 * erfc_array(x[~lo] / math.sqrt(2.0)))
        mid = ~lo & (x < 0)
        out[mid] = np.log(0.5 * erfc_array(-x[mid] / math.sqrt(2.0)))
    t = -x[lo] / math.sqrt(2.0)
    out[lo] = np.log(0.5 * erfcx_np(t)) - t * t
    return out


def fallback(name: str) -> Callable[..., np.ndarray]:
    """The NumPy implementation of a special function (used without SciPy; tests call it)."""
    return _FALLBACK[name]


_FALLBACK: dict[str, Callable[..., np.ndarray]] = {
    "erfinv": erfinv_np,
    "lgamma": lgamma_np,
    "digamma": digamma_np,
    "i0": i0_np,
    "special_i0e": i0e_np,
    "special_i1": i1_np,
    "special_i1e": i1e_np,
    "special_ndtri": ndtri_np,
    "special_log_ndtr": log_ndtr_np,
    "special_erfcx": erfcx_np,
}
_SCIPY_NAME = {
    "erfinv": "erfinv",
    "lgamma": "gammaln",
    "digamma": "psi",
    "i0": "i0",
    "special_i0e": "i0e",
    "special_i1": "i1",
    "special_i1e": "i1e",
    "special_ndtri": "ndtri",
    "special_log_ndtr": "log_ndtr",
    "special_erfcx": "erfcx",
}


def _special(name: str) -> Callable[[np.ndarray], Any]:
    def fn(a: np.ndarray) -> Any:
        sc = _scipy()
        f = getattr(sc, _SCIPY_NAME[name]) if sc is not None else _FALLBACK[name]
        r = np.asarray(f(a))
        if name == "lgamma":
            r = np.where(np.isneginf(a), np.inf, r)
        return r.astype(a.dtype, copy=False)

    fn.__name__ = name
    return fn


def _entr(a: np.ndarray) -> Any:
    with np.errstate(all="ignore"):
        r = np.where(a > 0, -a * np.log(np.where(a > 0, a, 1)), np.where(a == 0, 0.0, -np.inf))
    return np.where(np.isnan(a), np.nan, r).astype(a.dtype, copy=False)


def _sinc(a: np.ndarray) -> Any:
    with np.errstate(all="ignore"):
        pa = np.pi * a
        r = np.where(a == 0, 1.0, np.sin(pa) / np.where(a == 0, 1, pa))
    return r.astype(a.dtype, copy=False)


SPECIAL_FUNCTIONS: dict[str, Callable[[np.ndarray], Any]] = {
    **{n: _special(n) for n in _FALLBACK},
    "special_entr": _entr,
    "sinc": _sinc,
}

for _name, _fn in SPECIAL_FUNCTIONS.items():
    kernel(_name)(_unary_float(_name, _fn))


@kernel("polygamma")
def polygamma_k(n: int, self: Any) -> Any:
    from ...aten.special import _polygamma_check

    _polygamma_check(n, self)

    def fn(a: np.ndarray) -> Any:
        sc = _scipy()
        if n == 0:
            return SPECIAL_FUNCTIONS["digamma"](a)
        r = sc.polygamma(n, a) if sc is not None else polygamma_np(n, a)
        return np.asarray(r).astype(a.dtype, copy=False)

    return _unary_float("polygamma", fn)(self)


def _xlog1py(a: Any, b: Any) -> Any:
    a_, b_ = np.asarray(a), np.asarray(b)
    with np.errstate(all="ignore"):
        return np.where(np.isnan(b_), np.nan, np.where(a_ == 0, 0.0, a_ * np.log1p(b_)))


def _zeta(a: Any, b: Any) -> Any:
    sc = _scipy()
    r = sc.zeta(a, b) if sc is not None else zeta_np(a, b)
    dt = np.result_type(np.asarray(a), np.asarray(b))
    return np.asarray(r).astype(dt if dt.kind == "f" else np.float64, copy=False)


_binary_kernel(
    "special_xlog1py",
    _xlog1py,
    "special_xlog1py",
    "special_xlog1py.self_scalar",
    "special_xlog1py.other_scalar",
)
_binary_kernel(
    "special_zeta", _zeta, "special_zeta", "special_zeta.self_scalar", "special_zeta.other_scalar"
)
