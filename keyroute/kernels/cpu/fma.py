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

With numba (the `compile` extra) each of these is one compiled loop over the elements
(_numba_kernels.py: the same arithmetic, so the same bits) instead of several NumPy passes
through float64 temporaries; the NumPy code below is the fallback and handles the layouts the
loops do not (broadcast operands, strided views, other dtypes).
"""

from __future__ import annotations

from typing import Any

import numpy as np

from . import _jit

__all__ = ["fma", "lerp", "addcmul_", "addcdiv_"]

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


def _flat(operands: tuple[Any, ...], ct: np.dtype, out: Any) -> tuple[Any, ...] | None:
    """The operands as 1-d views for a compiled loop (each the result's size, or one value for
    every element), and the 1-d output (out's, or a new array) last; None where the loop does
    not apply: a dtype other than ct, a broadcast other than a single value, a strided view,
    a 0-d result, or an output overlapping an operand other than itself."""
    shape: tuple[int, ...] = ()
    for v in operands:
        if v.__class__ is not np.ndarray or v.dtype != ct:
            return None
        if v.ndim > len(shape):
            shape = v.shape
    if not shape:
        return None
    flat = []
    for v in operands:
        if v.shape == shape:
            if not v.flags.c_contiguous:
                return None
        elif v.size != 1 or v.ndim > len(shape):
            return None
        flat.append(v.reshape(-1))
    if out is None:
        flat.append(np.empty(shape, ct).reshape(-1))
        return tuple(flat)
    if out.shape != shape or out.dtype != ct or not out.flags.c_contiguous:
        return None
    for v in operands:  # elementwise in order: only a partial overlap would change results
        if v is not out and np.may_share_memory(v, out):
            return None
    flat.append(out.reshape(-1))
    return tuple(flat)


def fma(x: Any, y: Any, z: Any, ct: Any, out: Any = None) -> Any:
    """x * y + z in compute dtype ct, rounded once when ct is float32 (into out when given:
    an array of the result's shape and dtype ct, which may be z itself)."""
    ct = np.dtype(ct)
    if ct == _F32 or ct == _F64:
        k = _jit.kernels(np.size(z))
        if k is not None:
            f = _flat((x, y, z), ct, out)
            if f is not None:
                if ct == _F32 and out is z:
                    k.fma32_(f[0], f[1], f[2])
                else:
                    (k.fma32 if ct == _F32 else k.fma64)(*f)
                return out if out is not None else f[-1].reshape(_shape(x, y, z))
    r = _fma_numpy(x, y, z, ct)
    if out is None:
        return r
    np.copyto(out, r)
    return out


def _shape(*vs: np.ndarray) -> tuple[int, ...]:
    """The result's shape where _flat accepted the operands: the one of most dimensions."""
    return max((v.shape for v in vs), key=len)


def _fma_numpy(x: Any, y: Any, z: Any, ct: np.dtype) -> Any:
    if ct == _F32:
        r = np.multiply(x, y, dtype=np.float64)
        if r.ndim and r.shape == np.shape(z):
            np.add(r, z, out=r)  # into the product's float64 buffer: one temporary, not two
        else:  # z broadcasts wider (or a 0-d product, which NumPy returns as a scalar)
            r = np.add(r, z, dtype=np.float64)
        return r.astype(np.float32)
    if ct == _F64:
        return _fma64(x, y, z)
    return np.add(np.multiply(x, y), z)


def lerp(a: Any, b: Any, w: Any, ct: Any, out: Any = None) -> Any:
    """PyTorch's lerp: fma(w, b - a, a) where |w| < 0.5, else fma(w - 1, b - a, b); a scalar
    weight is first rounded to the compute dtype, as weight.to<scalar_t>() does. Into out when
    given (an array of the result's shape and dtype ct, which may be a)."""
    ct = np.dtype(ct)
    if ct == _F32:
        k = _jit.kernels(np.size(a))
        if k is not None:
            scalar = not isinstance(w, np.ndarray)
            wv = np.asarray(w, dtype=ct).reshape(1) if scalar else w
            f = _flat((a, b) if scalar else (a, b, wv), ct, out)
            if f is not None and f[0].size == f[1].size == f[-1].size:
                if scalar and out is a:
                    k.lerp32_scalar_(f[0], f[1], wv)
                elif scalar:
                    k.lerp32_scalar(f[0], f[1], wv, f[-1])
                elif f[2].size == f[-1].size:
                    k.lerp32_tensor(*f)
                else:
                    f = None
                if f is not None:
                    return out if out is not None else f[-1].reshape(a.shape)
    r = _lerp_numpy(a, b, w, ct)
    if out is None:
        return r
    np.copyto(out, r)
    return out


def _lerp_numpy(a: Any, b: Any, w: Any, ct: np.dtype) -> Any:
    diff = np.subtract(b, a)
    if not isinstance(w, np.ndarray):  # one weight for every element
        wv = np.asarray(w, dtype=ct)
        if abs(wv.item()) < 0.5:
            return fma(wv, diff, a, ct)
        return fma(wv - np.asarray(1, dtype=ct), diff, b, ct)
    small = np.abs(w) < 0.5
    coeff = np.where(small, w, w - np.asarray(1, dtype=w.dtype))
    return fma(coeff, diff, np.where(small, a, b), ct)


def addcmul_(a: np.ndarray, t1: np.ndarray, t2: np.ndarray, value: float | int) -> None:
    """a += value * t1 * t2 in place as PyTorch's addcmul_: fma(value * t1, t2, a), the
    product value * t1 rounded to a's dtype first (a, t1, t2 of one floating dtype)."""
    if a.dtype == _F32:
        k = _jit.kernels(a.size)
        if k is not None:
            f = _flat((t1, t2, a), a.dtype, a)
            if f is not None and f[0].size == f[1].size == f[-1].size:
                k.addcmul32_(f[2], f[0], f[1], np.float32(value))
                return
    if value != 1:
        t1 = np.multiply(t1, np.asarray(value, a.dtype))
    fma(t1, t2, a, a.dtype, out=a)


def addcdiv_(a: np.ndarray, t1: np.ndarray, t2: np.ndarray, value: float | int) -> None:
    """a += value * t1 / t2 in place as PyTorch's addcdiv_ (no fma: a + (value * t1) / t2,
    each step rounded); kept next to addcmul_ as the optimizers' other fused update."""
    if a.dtype == _F32 or a.dtype == _F64:
        k = _jit.kernels(a.size)
        if k is not None:
            f = _flat((t1, t2, a), a.dtype, a)
            if f is not None and f[0].size == f[1].size == f[-1].size:
                k.addcdiv_(f[2], f[0], f[1], a.dtype.type(value))
                return
    if value != 1:
        t1 = np.multiply(t1, np.asarray(value, a.dtype))
    np.add(a, np.true_divide(t1, t2), out=a)
