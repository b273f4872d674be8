"""Fused multiply-add as PyTorch's CPU kernels compute it.

PyTorch's AVX2/AVX512 kernels for `add(alpha=)` / `sub(alpha=)`, `lerp` and `addcmul` use
`vec::fmadd` (one rounding for x*y + z), and the scalar tails are compiled with FMA
contraction too, so every element is rounded once. NumPy has no fma ufunc; for float32 the
product of two float32 values is exact in float64, so x*y + z computed in float64 and rounded
to float32 gives the fused result (the double rounding differs from a true fma only when the
float64 sum lies within half a float64 ulp of a float32 rounding boundary: never seen in the
recorded samples). float64 has no wider exact type: there the product's rounding error is
recovered with Dekker's splitting (an error-free product) and added back, which gives the fused
result except in the same kind of rare double-rounding case.
"""

from __future__ import annotations

from typing import Any

import numpy as np

__all__ = ["fma", "lerp"]

_F32 = np.dtype(np.float32)
_F64 = np.dtype(np.float64)
_SPLIT = 134217729.0  # 2**27 + 1: splits a float64 into two 26-bit halves


def _fma64(x: Any, y: Any, z: Any) -> Any:
    x, y, z = (np.asarray(v, dtype=np.float64) for v in (x, y, z))
    p = x * y
    t = _SPLIT * x
    xh = t - (t - x)
    t = _SPLIT * y
    yh = t - (t - y)
    xl, yl = x - xh, y - yh
    perr = ((xh * yh - p) + xh * yl + xl * yh) + xl * yl  # p + perr == x * y exactly
    s = p + z
    bb = s - p
    serr = (p - (s - bb)) + (z - bb)  # s + serr == p + z exactly
    with np.errstate(invalid="ignore"):
        r = s + (perr + serr)
    # infinities and NaNs: the error terms are NaN there; the plain result is right
    return np.where(np.isfinite(r), r, x * y + z)


def fma(x: Any, y: Any, z: Any, ct: Any) -> Any:
    """x * y + z in compute dtype ct, rounded once when ct is float32."""
    if np.dtype(ct) == _F32:
        r = np.multiply(x, y, dtype=np.float64)
        if r.ndim and r.shape == np.shape(z):
            np.add(r, z, out=r)  # into the product's float64 buffer: one temporary, not two
        else:  # z broadcasts wider (or a 0-d product, which NumPy returns as a scalar)
            r = np.add(r, z, dtype=np.float64)
        return r.astype(np.float32)
    if np.dtype(ct) == _F64:
        return _fma64(x, y, z)
    return np.add(np.multiply(x, y), z)


def lerp(a: Any, b: Any, w: Any, ct: Any) -> Any:
    """PyTorch's lerp: fma(w, b - a, a) where |w| < 0.5, else fma(w - 1, b - a, b); a scalar
    weight is first rounded to the compute dtype, as weight.to<scalar_t>() does."""
    diff = np.subtract(b, a)
    if not isinstance(w, np.ndarray):  # one weight for every element
        wv = np.asarray(w, dtype=ct)
        if abs(wv.item()) < 0.5:
            return fma(wv, diff, a, ct)
        return fma(wv - np.asarray(1, dtype=ct), diff, b, ct)
    small = np.abs(w) < 0.5
    coeff = np.where(small, w, w - np.asarray(1, dtype=w.dtype))
    return fma(coeff, diff, np.where(small, a, b), ct)
