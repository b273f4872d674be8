"""The numba kernels behind `_random_jit` (imported only when numba is installed).

Module-level functions, so numba's on-disk cache keeps them between processes. Each does the
IEEE operations of its NumPy counterpart in `random.py` / `_random_math.py` in the same order;
`_random_jit` checks the agreement on probe values before using them.
"""

from __future__ import annotations

import math

import numba
import numpy as np

from . import _random_math as _rm

_f32 = np.float32
_njit = numba.njit(cache=True, nogil=True)

# avx_mathfun's constants, shared with the NumPy versions (one definition, _random_math).
_LOG_P = tuple(_f32(c) for c in _rm._LOG_P)
_LOG_Q1, _LOG_Q2, _SQRTHF = _rm._LOG_Q1, _rm._LOG_Q2, _rm._SQRTHF
_MIN_NORM = _f32(1.17549435e-38)
_DP0, _DP1, _DP2 = _rm._DP
_S0, _S1, _S2 = _rm._SINCOF
_C0, _C1, _C2 = _rm._COSCOF
_FOPI = _rm._FOPI
_ONE_F, _HALF_F, _MINUS_TWO_F = _f32(1.0), _f32(0.5), _f32(-2.0)
_TWO_PI = 2.0 * math.pi
_TWO_PI_F = _f32(_TWO_PI)
_SPLIT = 134217729.0  # 2**27 + 1: Veltkamp's splitter
_P0, _P1, _P2, _P3, _P4, _P5, _P6, _P7, _P8 = _LOG_P


@_njit
def fma_f(a, b, c):  # float32 fma: product exact in double, one rounding of the sum
    return np.float32(np.float64(a) * np.float64(b) + np.float64(c))


@_njit
def log_ps(x):
    if x < _MIN_NORM:
        x = _MIN_NORM
    mant, ex = math.frexp(np.float64(x))  # x normal: the bit trick's mantissa and exponent
    m = np.float32(mant)
    e = np.float32(ex)
    if m < _SQRTHF:
        e = e - _ONE_F
        m = (m - _ONE_F) + m
    else:
        m = m - _ONE_F
    z = m * m
    y = fma_f(m, _P0, _P1)
    y = fma_f(y, m, _P2)
    y = fma_f(y, m, _P3)
    y = fma_f(y, m, _P4)
    y = fma_f(y, m, _P5)
    y = fma_f(y, m, _P6)
    y = fma_f(y, m, _P7)
    y = fma_f(y, m, _P8)
    y = y * m
    y = fma_f(y, z, e * _LOG_Q1)
    y = y - z * _HALF_F
    y = y + m
    y = y + e * _LOG_Q2
    return y


@_njit
def sincos_ps(x):
    sign_sin = x < 0 or (x == 0 and math.copysign(1.0, x) < 0)
    x = abs(x)
    j = np.int32(x * _FOPI)
    j = (j + 1) & ~1
    y = np.float32(j)
    if (j & 4) != 0:
        sign_sin = not sign_sin
    poly_sin = (j & 2) != 0
    x = fma_f(y, _DP0, x)
    x = fma_f(y, _DP1, x)
    x = fma_f(y, _DP2, x)
    sign_cos = ((j - 2) & 4) == 0
    z = x * x
    yc = fma_f(z, _C0, _C1)
    yc = fma_f(yc, z, _C2)
    yc = yc * z
    yc = fma_f(yc, z, -(z * _HALF_F))
    yc = yc + _ONE_F
    ys = fma_f(z, _S0, _S1)
    ys = fma_f(ys, z, _S2)
    ys = ys * z
    ys = fma_f(ys, x, x)
    s = yc if poly_sin else ys
    c = ys if poly_sin else yc
    if sign_sin:
        s = -s
    if sign_cos:
        c = -c
    return s, c


@_njit
def fill16_float(d, out, mean, std):
    # d, out: float32 (rows, 16); the AVX2 NormalFill16<float> per row
    for r in range(d.shape[0]):
        for k in range(8):
            u1 = _ONE_F - d[r, k]
            radius = np.sqrt(_MINUS_TWO_F * log_ps(u1))
            s, c = sincos_ps(_TWO_PI_F * d[r, k + 8])
            out[r, k] = fma_f(radius * c, std, mean)
            out[r, k + 8] = fma_f(radius * s, std, mean)


@_njit
def fma_d(a, b, c):  # std::fma in double: Dekker's product, Knuth's sum
    p = a * b
    t = _SPLIT * a
    ah = t - (t - a)
    al = a - ah
    t = _SPLIT * b
    bh = t - (t - b)
    bl = b - bh
    err = ((ah * bh - p) + ah * bl + al * bh) + al * bl
    s = p + c
    bp = s - p
    e2 = (p - (s - bp)) + (c - bp)
    r = s + (e2 + err)
    if not math.isfinite(r):
        r = a * b + c
    return r


@_njit
def fill16_double(d, out, mean, std, plain):
    # NormalFill16<double> per row: libm's log, cos and sin
    for r in range(d.shape[0]):
        for k in range(8):
            radius = math.sqrt(-2.0 * math.log(1.0 - d[r, k]))
            theta = _TWO_PI * d[r, k + 8]
            c = radius * math.cos(theta)
            s = radius * math.sin(theta)
            if plain:
                out[r, k] = c
                out[r, k + 8] = s
            else:
                out[r, k] = fma_d(c, std, mean)
                out[r, k + 8] = fma_d(s, std, mean)


@_njit
def box_muller(u, c_out, s_out):
    # normal_distribution<double> pairs from (u1, u2) uniforms interleaved in u
    for i in range(c_out.shape[0]):
        r = math.sqrt(-2.0 * math.log1p(-u[2 * i + 1]))
        theta = _TWO_PI * u[2 * i]
        c_out[i] = r * math.cos(theta)
        s_out[i] = r * math.sin(theta)


@_njit
def randperm_forward(words, perm):
    # randperm_cpu's forward Fisher-Yates: swap i with i + word % (n - i)
    n = perm.shape[0]
    for i in range(n):
        perm[i] = i
    for i in range(n - 1):
        j = i + np.int64(words[i] % np.uint64(n - i))
        t = perm[i]
        perm[i] = perm[j]
        perm[j] = t
