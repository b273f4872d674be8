"""The next step for `--quantized` (issue 19), measured before it goes into the model: one
SmolLM2 Q4_1 weight (mlp.up_proj, 1536 x 576) times one token's activations, three ways:
keyroute's current numba kernel (float32 activations), the same loop with the activations
quantized to int8 per block of 32 (llama.cpp's Q8 scheme) and int32 accumulation, and the
float32 gemv on the dequantized weight. It prints the time of each and the int8 path's error
relative to the largest output, which the model's token tests would have to tolerate.

    python bench/llm_int8.py [--rounds N]
"""

from __future__ import annotations

import argparse

import _common  # noqa: F401  (one BLAS thread: before NumPy loads)
import numpy as np
from _common import compare, fmt_time

from keyroute.models import quantized
from keyroute.models.gguf_file import QK, open_gguf

NAME = "layers.0.mlp.up_proj.weight"


def quantize_activations(x: np.ndarray) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """x (K,) float32 -> int8 codes (K,), per-block scales (K/32,), per-block sums (K/32,)."""
    xb = x.reshape(-1, QK)
    d = (np.abs(xb).max(1) / 127).astype(np.float32)
    inv = np.divide(1, d, out=np.zeros_like(d), where=d > 0)
    return np.rint(xb * inv[:, None]).astype(np.int8).ravel(), d, xb.sum(1, dtype=np.float32)


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--rounds", type=int, default=7)
    args = ap.parse_args()
    if not quantized.HAVE_NUMBA:
        raise SystemExit("numba (the `compile` extra) is needed for this benchmark")
    import numba

    @numba.njit(fastmath=True)
    def q4_1_int8(xq, xd, xsum, codes, d, mn):  # type: ignore[no-untyped-def]
        # Integer dot products per block (codes 0..15 times int8 x, summed in int32), then one
        # float multiply-add per block and output: d * dx * sum + m * sum(x).
        nb, n = d.shape
        out = np.zeros(n, np.float32)
        s = np.empty(n, np.int32)
        for blk in range(nb):
            s[:] = 0
            for j in range(QK // 2):
                xl = np.int32(xq[blk * QK + j])
                xh = np.int32(xq[blk * QK + QK // 2 + j])
                row = codes[blk * (QK // 2) + j]
                for i in range(n):
                    c = np.int32(row[i])
                    s[i] += (c & 15) * xl + (c >> 4) * xh
            f, ms = xd[blk], xsum[blk]
            for i in range(n):
                out[i] += d[blk, i] * f * np.float32(s[i]) + mn[blk, i] * ms
        return out

    g = open_gguf()
    b = quantized.blocks_of(quantized.quantized_tensor(g.tensors[NAME]))
    w = g.dequantized(NAME)
    x = np.random.default_rng(0).standard_normal(w.shape[1]).astype(np.float32)
    xq, xd, xs = quantize_activations(x)
    want = w @ x
    got = q4_1_int8(xq, xd, xs, b.codes, b.scales, b.mins)
    err = float(np.abs(got - want).max() / np.abs(want).max())
    times = compare(
        {
            "numba, float32 x": lambda: quantized._q4_1_row(x, b.codes, b.scales, b.mins),
            "numba, int8 x + int32 dot": lambda: q4_1_int8(
                *quantize_activations(x), b.codes, b.scales, b.mins
            ),
            "float32 gemv (BLAS)": lambda: w @ x,
        },
        rounds=args.rounds,
        min_time=0.05,
    )
    ref = times["float32 gemv (BLAS)"]
    print(f"Q4_1 {NAME} {w.shape}: int8-activation error {err:.2e} of the largest output")
    for name, t in times.items():
        print(f"{name:<30}{fmt_time(t):>12}   {t / ref:6.2f}x the float32 gemv")


if __name__ == "__main__":
    main()
