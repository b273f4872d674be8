"""Capture cost: make_fx of the seed's decode step (one Llama-style layer for one token with a
KV cache written by index_copy_: about 50 aten ops) on fake tensors, keyroute against PyTorch's
make_fx (when installed). Medians of repeats, one process.

    python bench/capture.py
"""

from __future__ import annotations

import statistics
import time

import _common  # noqa: F401  (one BLAS thread; before NumPy)
import numpy as np
from _common import torch_or_none

import keyroute

D, H, HD, T, FF = 64, 4, 16, 32, 128


def decode_step(lib):  # noqa: ANN001, ANN201  (keyroute or torch)
    F = lib.nn.functional

    def rms(x, g):
        return x * lib.rsqrt(x.pow(2).mean(-1, keepdim=True) + 1e-6) * g

    def step(x, pos, g1, wq, wk, wv, wo, g2, w1, w3, w2, kcache, vcache):
        h = rms(x, g1)
        q = F.linear(h, wq).view(1, H, HD).transpose(0, 1)
        k = F.linear(h, wk).view(1, H, HD).transpose(0, 1)
        v = F.linear(h, wv).view(1, H, HD).transpose(0, 1)
        kcache.index_copy_(1, pos, k)
        vcache.index_copy_(1, pos, v)
        att = lib.softmax((q @ kcache.transpose(-1, -2)) * (HD**-0.5), dim=-1)
        o = (att @ vcache).transpose(0, 1).reshape(1, D)
        x = x + F.linear(o, wo)
        h = rms(x, g2)
        return x + F.linear(F.silu(F.linear(h, w1)) * F.linear(h, w3), w2)

    rng = np.random.default_rng(0)

    def t(*shape):
        return lib.from_numpy(rng.standard_normal(shape).astype(np.float32))

    args = (
        t(1, D), lib.tensor([5]), t(D), t(D, D), t(D, D), t(D, D), t(D, D), t(D),
        t(FF, D), t(FF, D), t(D, FF), lib.zeros(H, T, HD), lib.zeros(H, T, HD),
    )  # fmt: skip
    return step, args


def _time(fn, repeats: int = 15) -> float:
    fn()
    times = []
    for _ in range(repeats):
        t0 = time.perf_counter()
        fn()
        times.append(time.perf_counter() - t0)
    return statistics.median(times)


def measure(lib, make_fx) -> tuple[float, int]:  # noqa: ANN001
    step, args = decode_step(lib)
    n = sum(
        1
        for nd in make_fx(step, tracing_mode="fake")(*args).graph.nodes
        if nd.op == "call_function"
    )
    return _time(lambda: make_fx(step, tracing_mode="fake")(*args)), n


def main() -> None:
    from keyroute.fx.experimental.proxy_tensor import make_fx

    kr, n = measure(keyroute, make_fx)
    print(f"keyroute make_fx (fake), decode step, {n} aten ops: {kr * 1e3:.2f} ms")
    torch = torch_or_none()
    if torch is not None:
        from torch.fx.experimental.proxy_tensor import make_fx as torch_make_fx

        pt, m = measure(torch, torch_make_fx)
        print(f"PyTorch  make_fx (fake), decode step, {m} aten ops: {pt * 1e3:.2f} ms")
        print(f"ratio keyroute / PyTorch: {kr / pt:.3f}x")


if __name__ == "__main__":
    main()
