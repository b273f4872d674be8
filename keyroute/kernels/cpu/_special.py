"""erf and erfc on arrays: SciPy's when it is installed (loaded on first use), keyroute's own
(a series and a continued fraction) otherwise."""

from __future__ import annotations

import math
from typing import Any

import numpy as np

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
