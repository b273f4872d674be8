"""PyTorch's float32 `x ** e` for a scalar exponent e outside its special cases (2, 3, 0.5,
-0.5, -1, -2): on an AVX2 CPU the vectorised loop calls Sleef_powf8_u10 (exp(e * log|x|) in
double-float arithmetic, with fused multiply-adds), whose results differ from libm's powf (which
NumPy calls) in the last bit for a few percent of inputs. This module evaluates the same steps
as Sleef's algorithm (SLEEF, src/libm/sleefsimdsp.c: xpowf, logkf, expkf; src/common/df.h: the
FMA double-float operations) in NumPy float32 arithmetic, each fused multiply-add through the
exact float64 product, so the results are PyTorch's bit for bit (measured: 0 of 2.4 million
random inputs differ; tests/programs/test_rounding.py against recorded values).

PyTorch's loop runs the vector kernel on whole blocks of 16 elements (two 8-lane vectors) and
std::pow in double (the exponent not rounded to float32) on the remaining tail, and on every
element of an inner loop that is not contiguous; `powf_like_pytorch` does the same (one thread:
PyTorch's parallel split of tensors above 32768 elements starts a new tail per chunk, which is
not modelled).
"""

from __future__ import annotations

from typing import Any

import numpy as np

__all__ = ["sleef_powf", "powf_like_pytorch"]

f32 = np.float32
f64 = np.float64


# Every operand is a float32 array or a float32 scalar, so NumPy computes (and rounds) each
# +, -, * in float32 (NEP 50) without a cast.


def fma(a, b, c):  # float32 fused multiply-add: the float64 product of two floats is exact
    return (np.multiply(a, b, dtype=f64) + c).astype(f32)


def mul(a, b):
    return a * b


def add(a, b):
    return a + b


def sub(a, b):
    return a - b


def fmapn(x, y, z):
    return fma(x, y, -z)  # x*y - z


def fmanp(x, y, z):
    return fma(-x, y, z)  # -x*y + z


# double-float helpers (AVX2 build: FMA variants)
def dfadd2_ff(x, y):
    s = add(x, y)
    v = sub(s, x)
    return s, add(sub(x, sub(s, v)), sub(y, v))


def dfadd2_df_f(x, y):
    s = add(x[0], y)
    v = sub(s, x[0])
    t = add(sub(x[0], sub(s, v)), sub(y, v))
    return s, add(t, x[1])


def dfadd2_df_df(x, y):
    s = add(x[0], y[0])
    v = sub(s, x[0])
    t = add(sub(x[0], sub(s, v)), sub(y[0], v))
    return s, add(t, add(x[1], y[1]))


def dfadd_df_df(x, y):
    s = add(x[0], y[0])
    return s, add(add(add(sub(x[0], s), y[0]), x[1]), y[1])


def dfadd_f_df(x, y):
    s = add(x, y[0])
    return s, add(add(sub(x, s), y[0]), y[1])


def dfnormalize(t):
    s = add(t[0], t[1])
    return s, add(sub(t[0], s), t[1])


def dfscale(d, s):
    return mul(d[0], s), mul(d[1], s)


def dfdiv(n, d):
    t = (f32(1) / d[0]).astype(f32)
    s = mul(n[0], t)
    u = fmapn(t, n[0], s)
    v = fmanp(d[1], t, fmanp(d[0], t, np.full_like(t, 1)))
    return s, fma(s, v, fma(n[1], t, u))


def dfsqu(x):
    s = mul(x[0], x[0])
    return s, fma(add(x[0], x[0]), x[1], fmapn(x[0], x[0], s))


def dfmul_df_df(x, y):
    s = mul(x[0], y[0])
    return s, fma(x[0], y[1], fma(x[1], y[0], fmapn(x[0], y[0], s)))


def dfmul_df_f(x, y):
    s = mul(x[0], y)
    return s, fma(x[1], y, fmapn(x[0], y, s))


def c(v, like):  # a float32 constant (broadcasts against like)
    return f32(v)


def logkf(d):
    o = d < np.finfo(f32).tiny
    d = np.where(o, mul(d, c(float(f32(2.0**32) * f32(2.0**32)), d)), d)
    t0 = mul(d, c(1.0 / 0.75, d))
    e = ((t0.view(np.int32) >> 23) & 0xFF) - 0x7F
    m = (d.view(np.int32) - (e << 23)).view(f32)  # ldexp3: exponent field shifted
    e = np.where(o, e - 64, e)
    x = dfdiv(dfadd2_ff(c(-1, d), m), dfadd2_ff(c(1, d), m))
    x2 = dfsqu(x)
    t = c(0.240320354700088500976562, d)
    t = fma(t, x2[0], c(0.285112679004669189453125, d))
    t = fma(t, x2[0], c(0.400007992982864379882812, d))
    cc = (c(0.66666662693023681640625, d), c(3.69183861259614332084311e-09, d))
    s = dfmul_df_f((c(0.69314718246459960938, d), c(-1.904654323148236017e-09, d)), e.astype(f32))
    s = dfadd_df_df(s, dfscale(x, c(2, d)))
    s = dfadd_df_df(s, dfmul_df_df(dfmul_df_df(x2, x), dfadd2_df_df(dfmul_df_f(x2, t), cc)))
    return s


R_LN2f = f32(1.442695040888963407359924681001892137426645954152985934135449406931)
L2Uf = f32(0.693145751953125)
L2Lf = f32(1.428606765330187045e-06)


def expkf(d):
    u = mul(add(d[0], d[1]), np.full_like(d[0], R_LN2f))
    q = np.rint(u).astype(np.int32)
    qf = q.astype(f32)
    s = dfadd2_df_f(d, mul(qf, np.full_like(qf, -L2Uf)))
    s = dfadd2_df_f(s, mul(qf, np.full_like(qf, -L2Lf)))
    s = dfnormalize(s)
    x = s[0]
    u = c(0.00136324646882712841033936, x)
    u = fma(u, x, c(0.00836596917361021041870117, x))
    u = fma(u, x, c(0.0416710823774337768554688, x))
    u = fma(u, x, c(0.166665524244308471679688, x))
    u = fma(u, x, c(0.499999850988388061523438, x))
    t = dfadd_df_df(s, dfmul_df_f(dfsqu(s), u))
    t = dfadd_f_df(c(1, x), t)
    u = add(t[0], t[1])
    u = np.ldexp(u, q).astype(f32)
    return np.where(d[0] < -104, f32(0), u)


def sleef_powf(x: np.ndarray, y: Any) -> np.ndarray:
    """Sleef_powf_u10 of float32 x and exponent y (an array broadcastable to x, or a scalar),
    element by element, with its special values (0, inf, NaN, negative bases)."""
    x = np.asarray(x, f32)
    y = np.broadcast_to(np.asarray(y, f32), x.shape)
    with np.errstate(all="ignore"):
        r = expkf(dfmul_df_f(logkf(np.abs(x)), y))
        yisint = (np.trunc(y) == y) | (np.abs(y) > 2**24)
        yisodd = ((np.trunc(y).astype(np.int64) & 1) == 1) & yisint & (np.abs(y) < 2**24)
        r = np.where(np.isnan(r), f32(np.inf), r)
        neg = np.where(yisint, np.where(yisodd, f32(-1), f32(1)), f32(np.nan))
        r = mul(r, np.where(x > 0, f32(1), neg))
        efx = np.copysign(sub(np.abs(x), f32(1)), y)
        at_inf = np.where(efx < 0, f32(0), np.where(efx == 0, f32(1), f32(np.inf)))
        r = np.where(np.isinf(y), at_inf, r)
        zero_or_inf = np.where(np.signbit(y) ^ (x == 0), f32(0), f32(np.inf))
        r = np.where(
            np.isinf(x) | (x == 0), np.copysign(zero_or_inf, np.where(yisodd, x, f32(1))), r
        )
        r = np.where(np.isnan(x) | np.isnan(y), f32(np.nan), r)
        r = np.where((y == 0) | (x == 1), f32(1), r)
    return r.astype(f32)


def powf_like_pytorch(a: np.ndarray, e: Any) -> np.ndarray:
    """a ** e (float32 array, Python scalar exponent) as PyTorch's CPU loop computes it: Sleef
    on the blocks of 16 in memory order, double pow on the tail; a non-dense array is all
    tail."""
    if a.flags.c_contiguous:
        order = "C"
    elif a.flags.f_contiguous:
        order = "F"
    else:
        with np.errstate(all="ignore"):
            return np.power(a.astype(f64), float(e)).astype(f32)
    flat = a.ravel(order=order)
    n = flat.size - flat.size % 16
    out = np.empty_like(flat)
    out[:n] = sleef_powf(flat[:n], e)
    with np.errstate(all="ignore"):  # the tail: std::pow in double, the exponent unrounded
        out[n:] = np.power(flat[n:].astype(f64), float(e))
    return out.reshape(a.shape, order=order)
