"""numba loops for the kernels whose NumPy form needs many array passes: PyTorch's fused
multiply-add family (fma.py) and its cascade-sum order (cascade_sum.py).

Each loop performs the same floating-point operations, in the same order, as the NumPy code it
replaces, so both give the same bits (numba compiles without fastmath: no reassociation and no
contraction of a*b + c into a hardware fma). Imported only through `_jit.kernels()`, which
falls back to the NumPy code when numba is missing.
"""

from __future__ import annotations

import numba
import numpy as np

_JIT = {"cache": True, "nogil": True}
_SPLIT = 134217729.0  # 2**27 + 1, as fma._fma64


# ----------------------------------------------------------------------------- fused multiply-add


@numba.njit(inline="always", **_JIT)
def _fma64_one(x, y, z):  # noqa: ANN001, ANN202
    """fma._fma64 for one element: Dekker's error-free product and Knuth's two-sum."""
    p = x * y
    t = _SPLIT * x
    xh = t - (t - x)
    t = _SPLIT * y
    yh = t - (t - y)
    xl = x - xh
    yl = y - yh
    perr = ((xh * yh - p) + xh * yl + xl * yh) + xl * yl
    s = p + z
    bb = s - p
    serr = (p - (s - bb)) + (z - bb)
    r = s + (perr + serr)
    if np.isfinite(r):
        return r
    return x * y + z


# An output that is also an input gets its own loop, written through that one array: numba
# cannot tell two array arguments are the same memory, and LLVM's runtime overlap check then
# falls back to a scalar loop (2.5x slower on AdamW's in-place updates).


@numba.njit(inline="always", **_JIT)
def _fma32_one(x, y, z):  # noqa: ANN001, ANN202
    return np.float32(np.float64(x) * np.float64(y) + np.float64(z))


@numba.njit(**_JIT)
def fma32(x, y, z, out):  # noqa: ANN001, ANN201
    """out = float32(x * y + z), one rounding (the float64 product of float32s is exact);
    x, y, z 1-d float32 of out's length, or of length 1 (one value for every element)."""
    n = out.shape[0]
    if y.shape[0] == 1 and x.shape[0] == n and z.shape[0] == n:  # add(alpha=), lerp(scalar)
        s = y[0]
        for i in range(n):
            out[i] = _fma32_one(x[i], s, z[i])
        return
    if x.shape[0] == 1 and y.shape[0] == n and z.shape[0] == n:
        s = x[0]
        for i in range(n):
            out[i] = _fma32_one(s, y[i], z[i])
        return
    sx = x.shape[0] != 1
    sy = y.shape[0] != 1
    sz = z.shape[0] != 1
    for i in range(n):
        out[i] = _fma32_one(x[i * sx], y[i * sy], z[i * sz])


@numba.njit(**_JIT)
def fma32_(x, y, z):  # noqa: ANN001, ANN201
    """fma32 into z (z of the result's length; x, y of it or of length 1)."""
    n = z.shape[0]
    if y.shape[0] == 1 and x.shape[0] == n:
        s = y[0]
        for i in range(n):
            z[i] = _fma32_one(x[i], s, z[i])
        return
    sx = x.shape[0] != 1
    sy = y.shape[0] != 1
    for i in range(n):
        z[i] = _fma32_one(x[i * sx], y[i * sy], z[i])


@numba.njit(**_JIT)
def fma64(x, y, z, out):  # noqa: ANN001, ANN201
    """out = x * y + z for float64, as fma._fma64; operands as fma32's (out may be z)."""
    n = out.shape[0]
    sx = x.shape[0] != 1
    sy = y.shape[0] != 1
    sz = z.shape[0] != 1
    for i in range(n):
        out[i] = _fma64_one(x[i * sx], y[i * sy], z[i * sz])


@numba.njit(inline="always", **_JIT)
def _lerp32_one(ai, bi, c, small):  # noqa: ANN001, ANN202
    d = np.float64(bi - ai)  # b - a rounded to float32 first, as PyTorch's
    return np.float32(c * d + np.float64(ai if small else bi))


@numba.njit(**_JIT)
def lerp32_scalar(a, b, w, out):  # noqa: ANN001, ANN201
    """fma.lerp with one float32 weight w (a 1-element array)."""
    wv = w[0]
    small = abs(wv) < 0.5
    c = np.float64(wv) if small else np.float64(wv - np.float32(1.0))
    for i in range(out.shape[0]):
        out[i] = _lerp32_one(a[i], b[i], c, small)


@numba.njit(**_JIT)
def lerp32_scalar_(a, b, w):  # noqa: ANN001, ANN201
    """lerp32_scalar into a."""
    wv = w[0]
    small = abs(wv) < 0.5
    c = np.float64(wv) if small else np.float64(wv - np.float32(1.0))
    for i in range(a.shape[0]):
        a[i] = _lerp32_one(a[i], b[i], c, small)


@numba.njit(**_JIT)
def lerp32_tensor(a, b, w, out):  # noqa: ANN001, ANN201
    """fma.lerp with a float32 weight per element."""
    one = np.float32(1.0)
    for i in range(out.shape[0]):
        wi = w[i]
        small = abs(wi) < 0.5
        c = np.float64(wi) if small else np.float64(wi - one)
        out[i] = _lerp32_one(a[i], b[i], c, small)


@numba.njit(**_JIT)
def addcmul32_(a, t1, t2, v):  # noqa: ANN001, ANN201
    """a = fma(v * t1, t2, a) with v a float32: PyTorch's addcmul_, in place."""
    for i in range(a.shape[0]):
        a[i] = _fma32_one(v * t1[i], t2[i], a[i])  # v * t1 the float32 product, as NumPy's


@numba.njit(error_model="numpy", **_JIT)  # x / 0 is inf or nan, as NumPy's, not an error
def addcdiv_(a, t1, t2, v):  # noqa: ANN001, ANN201
    """a = a + (v * t1) / t2 in a's dtype (v of it too): PyTorch's addcdiv_, in place, the
    same three roundings as the NumPy path's passes."""
    for i in range(a.shape[0]):
        a[i] = a[i] + (v * t1[i]) / t2[i]


# ----------------------------------------------------------------------------- cascade sum
# The functions below mirror cascade_sum.py's (_cascade, _row_sum, _inner, _outer) on a flat
# buffer with explicit element strides. Every running sum starts from +0.0, as PyTorch's
# accumulators do (so a sum is never -0.0; cascade_sum.py turns NumPy's -0.0 into +0.0).


@numba.njit(**_JIT)
def _ceil_log2(n):  # noqa: ANN001, ANN202
    r = 0
    while (1 << r) < n:
        r += 1
    return r


@numba.njit(**_JIT)
def _rows_into(buf, off, s0, s1, s2, r0, r1, g, c, acc):  # noqa: ANN001, ANN202, PLR0913
    """acc[j*c + k] += buf[off + i*s0 + j*s1 + k*s2] for i = r0, ..., r1 - 1 in that order
    (row by row, the columns innermost: independent sums, so the loop vectorizes; slices
    where the columns are contiguous, which spares numba's index checks)."""
    n = g * c
    if s2 == 1 and (g == 1 or s1 == c):  # a row's g * c columns are one contiguous run
        dst = acc[:n]
        for i in range(r0, r1):
            b = off + i * s0
            src = buf[b : b + n]
            for k in range(n):
                dst[k] += src[k]
    elif s2 == 1:
        for i in range(r0, r1):
            for j in range(g):
                b = off + i * s0 + j * s1
                src = buf[b : b + c]
                dst = acc[j * c : j * c + c]
                for k in range(c):
                    dst[k] += src[k]
    else:
        for i in range(r0, r1):
            for j in range(g):
                base = off + i * s0 + j * s1
                q = j * c
                for k in range(c):
                    acc[q + k] += buf[base + k * s2]


@numba.njit(**_JIT)
def _cascade(buf, off, s0, s1, s2, size, g, c, out, o, ws):  # noqa: ANN001, ANN202, PLR0913
    """out[o + j*c + k] = the cascade sum over i < size of buf[off + i*s0 + j*s1 + k*s2]
    (j < g, k < c): cascade_sum._cascade. ws: scratch of at least 6 * g * c elements."""
    nc = g * c
    p = max(4, _ceil_log2(size) // 4)
    step = 1 << p
    nb = size // step
    acc0 = ws[:nc]
    acc0[:] = 0
    _rows_into(buf, off, s0, s1, s2, nb * step, size, g, c, acc0)  # the rows after the blocks
    if nb:
        n1 = nb // step
        n2 = n1 // step
        blk = ws[nc : 2 * nc]
        cur1 = ws[2 * nc : 3 * nc]  # level 1: the blocks since its last carry
        cur2 = ws[3 * nc : 4 * nc]  # level 2: the current group of step level-1 sums
        tail2 = ws[4 * nc : 5 * nc]  # the level-1 sums after the last full level-2 group
        acc3 = ws[5 * nc : 6 * nc]  # level 3
        ws[2 * nc : 6 * nc] = 0
        for b in range(nb):
            blk[:] = 0
            _rows_into(buf, off, s0, s1, s2, b * step, (b + 1) * step, g, c, blk)
            for q in range(nc):
                cur1[q] += blk[q]
            if (b + 1) % step == 0:  # level-1 sum number (b + 1) // step - 1 is complete
                gi = (b + 1) // step - 1
                if gi < n2 * step:
                    for q in range(nc):
                        cur2[q] += cur1[q]
                    if (gi + 1) % step == 0:
                        for q in range(nc):
                            acc3[q] += cur2[q]
                            cur2[q] = 0
                else:
                    for q in range(nc):
                        tail2[q] += cur1[q]
                cur1[:] = 0
        for q in range(nc):
            acc0[q] += cur1[q]
        if n1:
            for q in range(nc):
                acc0[q] += tail2[q]
            if n2:
                for q in range(nc):
                    acc0[q] += acc3[q]
    for q in range(nc):
        out[o + q] = acc0[q]


@numba.njit(**_JIT)
def _row_sum(buf, off, rs, cs, n, c, out, o, ws):  # noqa: ANN001, ANN202, PLR0913
    """out[o + k] (k < c) = cascade_sum._row_sum of the (n, c) block at buf[off + i*rs + k*cs]:
    4 interleaved cascaded streams, stream 0, the leftover rows, streams 1, 2, 3. ws: scratch
    of at least 28 * c elements."""
    k4 = n // 4
    if k4 == 0:
        acc = ws[:c]
        acc[:] = 0
        _rows_into(buf, off, rs, 0, cs, 0, n, 1, c, acc)
        out[o : o + c] = acc
        return
    parts = ws[: 4 * c]
    _cascade(buf, off, 4 * rs, rs, cs, k4, 4, c, parts, 0, ws[4 * c :])
    for k in range(c):
        acc = parts[k]
        for i in range(4 * k4, n):
            acc += buf[off + i * rs + k * cs]
        acc += parts[c + k]
        acc += parts[2 * c + k]
        acc += parts[3 * c + k]
        out[o + k] = acc


@numba.njit(**_JIT)
def _inner(buf, off, n, w, ws):  # noqa: ANN001, ANN202
    """cascade_sum._inner for one contiguous row of n elements at buf[off]; w lanes; ws:
    scratch of at least 29 * w elements."""
    one = ws[:w]
    if n < w:
        _row_sum(buf, off, 1, 1, n, 1, one, 0, ws[w:])
        return one[0]
    v = n // w
    _row_sum(buf, off, w, 1, v, w, one, 0, ws[w:])
    if v * w < n:
        acc = buf[off + v * w]
        for i in range(v * w + 1, n):
            acc += buf[off + i]
        for k in range(w):
            acc += one[k]
    else:
        acc = one[0]
        for k in range(1, w):
            acc += one[k]
    return acc


@numba.njit(**_JIT)
def cascade_full(buf, w):  # noqa: ANN001, ANN201
    """The contiguous buffer summed in PyTorch's inner order (a full reduction)."""
    ws = np.empty(29 * w, buf.dtype)
    return _inner(buf, 0, buf.shape[0], w, ws)


@numba.njit(**_JIT)
def cascade_rows(buf, lead, n, w, out):  # noqa: ANN001, ANN201
    """out[r] = row r of the (lead, n) C-ordered buffer summed in PyTorch's inner order."""
    ws = np.empty(29 * w, buf.dtype)
    for r in range(lead):
        out[r] = _inner(buf, r * n, n, w, ws)


@numba.njit(**_JIT)
def cascade_outer(buf, lead, n, m, w, out):  # noqa: ANN001, ANN201
    """out (lead*m,) = the (lead, n, m) C-ordered buffer summed over n: cascade_sum._outer."""
    group = 4 * w if m >= w else 4
    split = (m // group) * group
    ws = np.empty(max(6 * split, 28 * (m - split)), buf.dtype)
    for p in range(lead):
        off = p * n * m
        if split:
            _cascade(buf, off, m, 0, 1, n, 1, split, out, p * m, ws)
        if split < m:
            _row_sum(buf, off + split, m, 1, n, m - split, out, p * m + split, ws)
