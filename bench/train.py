"""Training step cost: an MLP (batch 64, 784 -> 256 -> 10, ReLU, cross-entropy; forward,
backward and an AdamW step) in keyroute, written by hand in NumPy, and in PyTorch eager (when
installed); and the tiny (16,) add with requires_grad inputs against PyTorch's. One BLAS
thread, one process, medians of many repeats. Also a backward over a chain of 100 tiny ops
((16,) tensors, forward recorded and backward run each time) against PyTorch's.

    python bench/train.py [--mlp-only]

The MLP step runs a second time in a subprocess with OPENBLAS_CORETYPE and OPENBLAS_L2_SIZE
unset (when the machine sets them): the BLAS kernel OpenBLAS autodetects (bench/_common.py).
"""

from __future__ import annotations

import sys

import _common  # noqa: F401  (one BLAS thread; must come first)
import numpy as np
from _common import CLOCK, blas_kernel, compare, rerun_with_autodetected_blas, torch_or_none

import keyroute

BATCH, D_IN, D_HIDDEN, D_OUT = 64, 784, 256, 10
LR, BETAS, EPS, WD = 1e-3, (0.9, 0.999), 1e-8, 1e-2


class NumpyMLP:
    """The same step by hand: the floor a NumPy backend can reach."""

    def __init__(self, params: list[np.ndarray]) -> None:
        self.params = [p.copy() for p in params]  # w1 (256,784), b1, w2 (10,256), b2
        self.m = [np.zeros_like(p) for p in self.params]
        self.v = [np.zeros_like(p) for p in self.params]
        self.t = 0

    def step(self, x: np.ndarray, y: np.ndarray) -> float:
        w1, b1, w2, b2 = self.params
        h_pre = x @ w1.T + b1
        h = np.maximum(h_pre, 0)
        logits = h @ w2.T + b2
        shifted = logits - logits.max(axis=1, keepdims=True)
        logsumexp = np.log(np.exp(shifted).sum(axis=1, keepdims=True))
        logp = shifted - logsumexp
        n = x.shape[0]
        loss = -logp[np.arange(n), y].mean()
        g_logits = np.exp(logp)
        g_logits[np.arange(n), y] -= 1
        g_logits /= n
        g_w2 = g_logits.T @ h
        g_b2 = g_logits.sum(axis=0)
        g_h = g_logits @ w2
        g_h[h_pre <= 0] = 0
        g_w1 = g_h.T @ x
        g_b1 = g_h.sum(axis=0)
        self.t += 1
        b1c, b2c = 1 - BETAS[0] ** self.t, 1 - BETAS[1] ** self.t
        for p, g, m, v in zip(self.params, (g_w1, g_b1, g_w2, g_b2), self.m, self.v):
            p *= 1 - LR * WD
            m *= BETAS[0]
            m += (1 - BETAS[0]) * g
            v *= BETAS[1]
            v += (1 - BETAS[1]) * g * g
            denom = np.sqrt(v) / np.sqrt(b2c) + EPS
            p -= (LR / b1c) * m / denom
        return float(loss)


def lib_step(lib):  # noqa: ANN001, ANN202  (keyroute or torch: identical code)
    def make(params: list[np.ndarray]):  # noqa: ANN202
        model = lib.nn.Sequential(
            lib.nn.Linear(D_IN, D_HIDDEN), lib.nn.ReLU(), lib.nn.Linear(D_HIDDEN, D_OUT)
        )
        with lib.no_grad():
            for p, value in zip(model.parameters(), params):
                p.copy_(lib.from_numpy(value))
        opt = lib.optim.AdamW(model.parameters(), lr=LR, betas=BETAS, eps=EPS, weight_decay=WD)
        cross_entropy = lib.nn.functional.cross_entropy

        def step(x, y):  # noqa: ANN001, ANN202
            loss = cross_entropy(model(x), y)
            opt.zero_grad()
            loss.backward()
            opt.step()
            return loss

        return step, model

    return make


def main() -> None:
    rng = np.random.default_rng(0)
    x = rng.standard_normal((BATCH, D_IN)).astype(np.float32)
    y = rng.integers(0, D_OUT, BATCH).astype(np.int64)
    params = [
        (rng.standard_normal(s) * 0.05).astype(np.float32)
        for s in ((D_HIDDEN, D_IN), (D_HIDDEN,), (D_OUT, D_HIDDEN), (D_OUT,))
    ]

    # Same starting point: the three must compute the same losses.
    ref = NumpyMLP(params)
    kr_step, _ = lib_step(keyroute)(params)
    kx, ky = keyroute.from_numpy(x), keyroute.from_numpy(y)
    for _ in range(3):
        a, b = ref.step(x, y), kr_step(kx, ky).item()
        assert abs(a - b) < 1e-4 * max(1.0, abs(a)), (a, b)

    cases = {"np": lambda: ref.step(x, y), "kr": lambda: kr_step(kx, ky)}
    torch = torch_or_none()
    if torch is not None:
        th_step, _ = lib_step(torch)(params)
        tx, ty = torch.from_numpy(x), torch.from_numpy(y)
        cases["th"] = lambda: th_step(tx, ty)
    t = compare(cases, rounds=21)
    t_np, t_kr, t_th = t["np"], t["kr"], t.get("th")

    print(f"MLP step {D_IN}->{D_HIDDEN}->{D_OUT}, batch {BATCH}, fwd + bwd + AdamW, one thread")
    print(f"({CLOCK}) BLAS: {blas_kernel()}")
    print(f"{'':<26}{'time':>10}{'ratio to NumPy':>17}")
    print(f"{'NumPy by hand':<26}{t_np * 1e6:>8.0f}µs{1.0:>16.2f}x")
    print(f"{'keyroute':<26}{t_kr * 1e6:>8.0f}µs{t_kr / t_np:>16.2f}x")
    if t_th is not None:
        print(f"{'PyTorch eager':<26}{t_th * 1e6:>8.0f}µs{t_th / t_np:>16.2f}x")
        print(f"keyroute / PyTorch eager: {t_kr / t_th:.2f}x")
    if "--mlp-only" in sys.argv:
        return

    a = keyroute.ones(16, requires_grad=True)
    b = keyroute.ones(16, requires_grad=True)
    cases = {"kr": lambda: a + b}
    if torch is not None:
        ta, tb = torch.ones(16, requires_grad=True), torch.ones(16, requires_grad=True)
        cases["th"] = lambda: ta + tb
    t = compare(cases)
    print(f"\nadd (16,) with requires_grad inputs: keyroute {t['kr'] * 1e6:.2f}µs", end="")
    if torch is not None:
        print(f", PyTorch {t['th'] * 1e6:.2f}µs, ratio {t['kr'] / t['th']:.2f}x")
    else:
        print()

    cases = {"kr": _chain(keyroute)}
    if torch is not None:
        cases["th"] = _chain(torch)
    t = compare(cases, rounds=15)
    print(f"chain of 100 tiny ops, forward + backward: keyroute {t['kr'] * 1e6:.0f}µs", end="")
    if torch is not None:
        print(f", PyTorch {t['th'] * 1e6:.0f}µs, ratio {t['kr'] / t['th']:.2f}x")
    else:
        print()
    rerun_with_autodetected_blas(__file__, ["--mlp-only"])


def _chain(lib):  # noqa: ANN001, ANN202  (keyroute or torch: 50 x (mul, add), sum, backward)
    x = lib.ones(16, requires_grad=True)

    def run() -> None:
        y = x
        for _ in range(50):
            y = y * 1.01
            y = y + 0.5
        y.sum().backward()

    return run


if __name__ == "__main__":
    main()
