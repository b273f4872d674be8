"""Int8 dynamic activations for Q4_1 weights: the opt-in fast path of `--quantized`
(`load(quantized=True, int8_dynamic_activation=True)`, `keyroute generate --quantized
--int8-dynamic-activation`).

The scheme is llama.cpp's Q4_1 x Q8_1 dot product, and what torchao calls "int8 dynamic
activation, int4 weight" (`Int8DynamicActivationInt4WeightConfig`): at each call the float32
activations are quantized per block of 32, x ~ dx * xq with xq = rint(x / dx) in [-127, 127]
and dx = max|x| / 127, so the inner products are integer ones. For output i and block b:

    out[i] = sum_b  d[b, i] * dx[b] * (q[b, :, i] . xq[b, :])  +  m[b, i] * sum(x[b, :])

The minimum term uses the exact float32 sum of the block's activations; only the d * q part
sees the rounded activations, so the error against the float32 dequantized product is at most
sum_b |d[b, i]| * dx[b] / 2 * sum_j q[b, j, i] (plus float32 rounding), which the tests check
output by output. The default path (float32 activations) stays exact to float32 rounding.

Why it is faster: the codes are 0..15 and xq is within +-127, so each product fits int16, and
the 16 low-nibble (and the 16 high-nibble) products of a block sum to at most 16 * 15 * 127 =
30480 < 2**15: the kernel accumulates in two int16 vectors per block, twice as many lanes per
instruction as float32, and widens once per block. Measured on SmolLM2's 210 Q4_1 matrices
(one thread, cold cache): 17-19 ms per token against 28 ms for the float32-activation kernel.
Unpacking the nibbles to one int8 code per weight at load measured slower (25 ms: twice the
bytes to read), as did a row-major layout with the reduction innermost (5x slower).

Q8_0 weights keep float32 activations in this mode: their products (127 * 127) need int32
sums, which measured no faster than the float32 kernel (3.7 against 3.9 ms for the LM head).
"""

from __future__ import annotations

import numpy as np

from .gguf_file import QK

__all__ = ["quantize_activations", "q4_1_int8_matmul", "error_bound"]

try:  # the `compile` extra
    import numba

    HAVE_NUMBA = True
except ImportError:  # pragma: no cover - depends on the environment
    numba = None
    HAVE_NUMBA = False


def quantize_activations(x: np.ndarray) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """x (K,) float32 -> int8 codes (K,), per-block scales dx (K/32,), exact per-block sums
    (K/32,): x[j] ~ dx[j // 32] * codes[j], codes = rint(x / dx) (half to even)."""
    if HAVE_NUMBA:
        return _quantize_numba(x)
    xb = x.reshape(-1, QK)
    dx = np.abs(xb).max(1) / np.float32(127)
    inv = np.divide(np.float32(1), dx, out=np.zeros_like(dx), where=dx > 0)
    codes = np.rint(xb * inv[:, None]).astype(np.int8).ravel()
    return codes, dx, xb.sum(1, dtype=np.float32)


def _q4_1_int8_numpy(x: np.ndarray, codes: np.ndarray, d: np.ndarray, m: np.ndarray) -> np.ndarray:
    """The same arithmetic without numba: the rounded activations dx * xq against d * q,
    plus the minimums against the exact block sums (correct, not fast)."""
    xq, dx, xs = quantize_activations(x)
    nb, n = d.shape
    c = codes.reshape(nb, QK // 2, n)
    q = np.concatenate((c & 0x0F, c >> 4), axis=1).astype(np.float32)  # (nb, 32, n)
    xr = (xq.reshape(nb, QK).astype(np.float32) * dx[:, None]).reshape(nb, 1, QK)
    dots = np.matmul(xr, q)[:, 0]  # (nb, n): q[b, :, i] . (dx * xq)[b, :]
    return (d * dots).sum(0, dtype=np.float32) + xs @ m


if HAVE_NUMBA:

    @numba.njit(cache=True, fastmath=True, nogil=True)
    def _quantize_numba(x: np.ndarray) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
        nb = x.shape[0] // QK
        q = np.empty(x.shape[0], np.int8)
        dx = np.empty(nb, np.float32)
        sums = np.empty(nb, np.float32)
        for blk in range(nb):
            amax = np.float32(0.0)
            total = np.float32(0.0)
            for j in range(QK):
                v = x[blk * QK + j]
                amax = max(amax, abs(v))
                total += v
            f = amax / np.float32(127.0)
            inv = np.float32(1.0) / f if f > 0 else np.float32(0.0)
            for j in range(QK):
                q[blk * QK + j] = np.int8(np.rint(x[blk * QK + j] * inv))
            dx[blk] = f
            sums[blk] = total
        return q, dx, sums

    @numba.njit(cache=True, fastmath=True, nogil=True)
    def _q4_1_int8_row(
        xq: np.ndarray,
        dx: np.ndarray,
        xs: np.ndarray,
        codes: np.ndarray,
        d: np.ndarray,
        m: np.ndarray,
    ) -> np.ndarray:
        # codes (K/2, N): byte j of block b holds elements j (low nibble) and 16 + j (high).
        # lo / hi: the block's two half dot products, int16 (each at most 16 * 15 * 127).
        nb, n = d.shape
        out = np.zeros(n, np.float32)
        lo = np.empty(n, np.int16)
        hi = np.empty(n, np.int16)
        for blk in range(nb):
            lo[:] = 0
            hi[:] = 0
            base = blk * QK
            for j in range(QK // 2):
                xl = np.int16(xq[base + j])
                xh = np.int16(xq[base + QK // 2 + j])
                row = codes[blk * (QK // 2) + j]
                for i in range(n):
                    c = np.int16(row[i])
                    lo[i] += (c & 15) * xl
                    hi[i] += (c >> 4) * xh
            f, total = dx[blk], xs[blk]
            for i in range(n):
                s = np.float32(np.int32(lo[i]) + np.int32(hi[i]))
                out[i] += d[blk, i] * (f * s) + m[blk, i] * total
        return out


def q4_1_int8_matmul(x: np.ndarray, codes: np.ndarray, d: np.ndarray, m: np.ndarray) -> np.ndarray:
    """x (M, K) float32 times the Q4_1 weight (codes (K/2, N), d and m (K/32, N)), with each
    row of x quantized to int8 per block: (M, N) float32."""
    out = np.empty((x.shape[0], d.shape[1]), np.float32)
    for r in range(x.shape[0]):
        if HAVE_NUMBA:
            out[r] = _q4_1_int8_row(*_quantize_numba(x[r]), codes, d, m)
        else:
            out[r] = _q4_1_int8_numpy(x[r], codes, d, m)
    return out


def error_bound(x: np.ndarray, codes: np.ndarray, d: np.ndarray) -> np.ndarray:
    """The largest possible difference (M, N) between `q4_1_int8_matmul` and the float32
    dequantized product from rounding the activations: sum_b |d[b, i]| * dx[b] / 2 *
    sum_j q[b, j, i] (each activation moves by at most half its block's step dx)."""
    nb, n = d.shape
    c = codes.reshape(nb, QK // 2, n).astype(np.float64)
    qsum = (c % 16 + c // 16).sum(1)  # (nb, n): sum of the block's 32 codes
    dx = np.abs(x.reshape(x.shape[0], nb, QK)).max(-1) / 127.0  # (M, nb)
    return (dx / 2) @ (np.abs(d) * qsum)
