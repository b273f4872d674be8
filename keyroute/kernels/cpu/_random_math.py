"""The floating-point pieces PyTorch's CPU random kernels are made of, reproduced bit for bit.

- libm functions (`log`, `log1p`, `sin`, `cos`, `tan`, `exp` in double): PyTorch's kernels call
  the C library's. NumPy's float64 loops call the same libm on most builds, but some builds
  use their own SIMD versions (AVX-512 `log`, SVML `sin`/`cos`), which differ in the last bit
  now and then. The first use compares NumPy with Python's `math` (which calls libm) on a set
  of probes; a function that differs is then evaluated element by element through `math`.
- `log256_ps` / `sincos256_ps` (ATen's avx_mathfun.h, Cephes polynomials in float32): the AVX2
  `normal_` kernel uses them for float tensors of 16 or more elements. GCC contracts the
  multiply-add pairs of those intrinsics into FMA instructions (`-mfma`, `-ffp-contract=fast`);
  `fma32` rounds those once, as the hardware does.
- `fma64`: std::fma in double via an error-free product (Dekker) and sum (Knuth).
"""

from __future__ import annotations

import math
from collections.abc import Callable
from typing import Any

import numpy as np

__all__ = ["libm", "fma32", "fma64", "log256_ps", "sincos256_ps", "fill16_float", "fill16_double"]

_f32 = np.float32
_f64 = np.float64

# -- libm in double

_LIBM: dict[str, Callable[[np.ndarray], np.ndarray]] = {}
_PAIRS = {
    "log": (np.log, math.log),
    "log1p": (np.log1p, math.log1p),
    "sin": (np.sin, math.sin),
    "cos": (np.cos, math.cos),
    "tan": (np.tan, math.tan),
    "exp": (np.exp, math.exp),
}


def _probe_points() -> np.ndarray:
    rs = np.random.RandomState(1234)
    u = rs.random_sample(4096)
    return np.concatenate([u, -u, u * 50.0, 1.0 - u * 1e-9, u * 1e-12, 2 * math.pi * u])


def _via_math(fn: Callable[[float], float]) -> Callable[[np.ndarray], np.ndarray]:
    vec = np.frompyfunc(fn, 1, 1)

    def call(x: np.ndarray) -> np.ndarray:
        return vec(np.asarray(x, dtype=_f64)).astype(_f64)

    return call


def libm(name: str) -> Callable[[np.ndarray], np.ndarray]:
    """The C library's double `name` over a float64 array (NumPy's loop if it matches libm)."""
    fn = _LIBM.get(name)
    if fn is None:
        np_fn, py_fn = _PAIRS[name]
        x = _probe_points()
        if name in ("log", "log1p"):
            x = np.abs(x)
        if name == "exp":
            x = x - 25.0
        with np.errstate(all="ignore"):
            ours = np_fn(x)
        theirs = np.array([py_fn(v) for v in x.tolist()])
        same = np.array_equal(ours.view(np.int64), theirs.view(np.int64))
        fn = np_fn if same else _via_math(py_fn)
        _LIBM[name] = fn
    return fn


# -- fused multiply-add


def fma32(a: np.ndarray, b: np.ndarray, c: np.ndarray) -> np.ndarray:
    """fma(a, b, c) of float32 values with one rounding: the product of two floats is exact in
    double, the sum rounds once in double and once to float (the same result but in cases of
    ~2**-29 probability)."""
    return (_f64(1) * a * b + c).astype(_f32)


_SPLIT = _f64(134217729.0)  # 2**27 + 1: Veltkamp's splitter for doubles


def _two_prod(a: np.ndarray, b: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    p = a * b
    t = _SPLIT * a
    ah = t - (t - a)
    al = a - ah
    t = _SPLIT * b
    bh = t - (t - b)
    bl = b - bh
    err = ((ah * bh - p) + ah * bl + al * bh) + al * bl
    return p, err


def fma64(a: np.ndarray, b: np.ndarray, c: np.ndarray | float) -> np.ndarray:
    """std::fma for doubles: a*b + c rounded once (error-free product and sum)."""
    a = np.asarray(a, _f64)
    b = np.asarray(b, _f64)
    c = np.asarray(c, _f64)
    with np.errstate(all="ignore"):
        p, e = _two_prod(a, b)
        s = p + c
        bp = s - p
        e2 = (p - (s - bp)) + (c - bp)
        r = s + (e2 + e)
    finite = np.isfinite(r)
    if not finite.all():
        r = np.where(finite, r, a * b + c)
    return r


# -- avx_mathfun.h (Cephes, float32)

_LOG_P = [
    7.0376836292e-2,
    -1.1514610310e-1,
    1.1676998740e-1,
    -1.2420140846e-1,
    1.4249322787e-1,
    -1.6668057665e-1,
    2.0000714765e-1,
    -2.4999993993e-1,
    3.3333331174e-1,
]
_LOG_Q1 = _f32(-2.12194440e-4)
_LOG_Q2 = _f32(0.693359375)
_SQRTHF = _f32(0.707106781186547524)


def _fma_into(a: np.ndarray, b: Any, c: Any, out: np.ndarray) -> np.ndarray:
    """out (float32) = fma(a, b, c): a*b exact in double (a, b are floats), one rounding of the
    sum in double then to float (see fma32)."""
    return np.add(np.multiply(a, b, dtype=_f64), c, out=out, casting="unsafe")


def log256_ps(x: np.ndarray) -> np.ndarray:
    """avx_mathfun's log256_ps over float32 x (x > 0, normal; the random kernel's 1 - u), with
    GCC's contractions: each Horner step is an FMA, and `y*z + e*q1` fuses the `y*z`."""
    x = np.maximum(x.astype(_f32, copy=False), _f32(1.17549435e-38))
    bits = x.view(np.int32)
    e = ((bits >> 23) - 0x7F).astype(_f32)
    e += _f32(1)
    m = ((bits & ~0x7F800000) | 0x3F000000).view(_f32)  # the mantissa in [0.5, 1)
    small = m < _SQRTHF
    e -= small
    m = (m - _f32(1)) + m * small
    z = m * m
    y = np.empty_like(m)
    _fma_into(m, _f32(_LOG_P[0]), _f32(_LOG_P[1]), y)
    for c in _LOG_P[2:]:
        _fma_into(y, m, _f32(c), y)
    y *= m
    _fma_into(y, z, e * _LOG_Q1, y)
    y -= z * _f32(0.5)  # z * 0.5 is exact: fused or not, the same
    y += m
    y += e * _LOG_Q2  # e * q2 is exact (q2 has 9 significant bits)
    return y


_DP = (_f32(-0.78515625), _f32(-2.4187564849853515625e-4), _f32(-3.77489497744594108e-8))
_SINCOF = (_f32(-1.9515295891e-4), _f32(8.3321608736e-3), _f32(-1.6666654611e-1))
_COSCOF = (
    _f32(2.443315711809948e-005),
    _f32(-1.388731625493765e-003),
    _f32(4.166664568298827e-002),
)
_FOPI = _f32(1.27323954473516)


def sincos256_ps(x: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """avx_mathfun's sincos256_ps over float32 x: (sin x, cos x), with GCC's contractions (the
    three-part range reduction, the Horner steps, `y*z - z/2` and `y2*x + x` are FMAs)."""
    x = x.astype(_f32, copy=False)
    sign_sin = np.signbit(x)
    x = np.abs(x)
    j = (x * _FOPI).astype(np.int32)
    j += 1
    j &= ~1
    y = j.astype(_f32)
    sign_sin ^= (j & 4) != 0
    poly_sin = (j & 2) != 0  # the octant where sin takes the cosine polynomial
    _fma_into(y, _DP[0], x, x)
    _fma_into(y, _DP[1], x, x)
    _fma_into(y, _DP[2], x, x)
    sign_cos = ((j - 2) & 4) == 0
    z = x * x
    yc = np.empty_like(z)
    _fma_into(z, _COSCOF[0], _COSCOF[1], yc)
    _fma_into(yc, z, _COSCOF[2], yc)
    yc *= z
    _fma_into(yc, z, -(z * _f32(0.5)), yc)
    yc += _f32(1)
    ys = np.empty_like(z)
    _fma_into(z, _SINCOF[0], _SINCOF[1], ys)
    _fma_into(ys, z, _SINCOF[2], ys)
    ys *= z
    _fma_into(ys, x, x, ys)
    s = np.where(poly_sin, yc, ys)
    c = np.where(poly_sin, ys, yc)
    np.negative(s, out=s, where=sign_sin)
    np.negative(c, out=c, where=sign_cos)
    return s, c


# -- NormalFill16 (the normal_ kernel for 16 or more contiguous values)

_TWO_PI = 2.0 * math.pi
_TWO_PI_F = _f32(_TWO_PI)


def fill16_double(d: np.ndarray, mean: float, std: float) -> np.ndarray:
    """NormalFill16<double> on rows of 16 uniforms (the scalar template, libm's log/cos/sin)."""
    u1 = 1.0 - d[:, :8]
    u2 = d[:, 8:]
    radius = np.sqrt(-2.0 * libm("log")(u1.reshape(-1))).reshape(u1.shape)
    theta = _TWO_PI * u2
    cos = libm("cos")(theta.reshape(-1)).reshape(theta.shape)
    sin = libm("sin")(theta.reshape(-1)).reshape(theta.shape)
    out = np.empty_like(d)
    if std == 1.0 and mean == 0.0:
        out[:, :8] = radius * cos
        out[:, 8:] = radius * sin
    else:
        out[:, :8] = fma64(radius * cos, std, mean)
        out[:, 8:] = fma64(radius * sin, std, mean)
    return out


def fill16_float(d: np.ndarray, mean: float, std: float) -> np.ndarray:
    """The AVX2 NormalFill16<float> on rows of 16 float uniforms."""
    u1 = _f32(1) - d[:, :8]
    u2 = d[:, 8:]
    radius = np.sqrt(_f32(-2) * log256_ps(u1))
    theta = _TWO_PI_F * u2
    sin, cos = sincos256_ps(theta)
    out = np.empty_like(d)
    m, s = _f32(mean), _f32(std)
    out[:, :8] = fma32(radius * cos, s, m)
    out[:, 8:] = fma32(radius * sin, s, m)
    return out
