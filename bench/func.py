"""Per-sample gradients of an MLP (batch 64): keyroute's vmap(grad(f)) against a hand-written
NumPy per-sample gradient computation and against PyTorch's torch.func (when installed), one
BLAS thread, medians of interleaved rounds.

The MLP: 64 -> 128 (tanh) -> 10, mean-squared-error loss per sample.

    python bench/func.py
"""

from __future__ import annotations

import _common  # noqa: F401  (one BLAS thread; must come first)
import numpy as np
from _common import compare, table, torch_or_none

import keyroute
import keyroute.func
import keyroute.nn.functional

B, D, H, O = 64, 64, 128, 10


def numpy_per_sample(W1, b1, W2, b2, x, y):  # noqa: ANN001, ANN201, N803
    """Every sample's gradient of mean((tanh(x W1^T + b1) W2^T + b2 - y)^2), by hand."""
    h = np.tanh(x @ W1.T + b1)
    out = h @ W2.T + b2
    dout = (2.0 / out.shape[1]) * (out - y)  # (B, O)
    g_W2 = dout[:, :, None] * h[:, None, :]  # (B, O, H)
    dz = (dout @ W2) * (1.0 - h * h)  # (B, H)
    g_W1 = dz[:, :, None] * x[:, None, :]  # (B, H, D)
    return g_W1, dz, g_W2, dout


def make_lib_fn(lib):  # noqa: ANN001, ANN201
    F = lib.nn.functional  # noqa: N806

    def loss(p, xs, ys):  # noqa: ANN001, ANN202
        h = lib.tanh(F.linear(xs, p["W1"], p["b1"]))
        return F.mse_loss(F.linear(h, p["W2"], p["b2"]), ys)

    return lib.func.vmap(lib.func.grad(loss), in_dims=(None, 0, 0))


def main() -> None:
    rng = np.random.default_rng(0)
    f32 = np.float32
    arrays = {
        "W1": (rng.standard_normal((H, D)) * 0.1).astype(f32),
        "b1": (rng.standard_normal(H) * 0.1).astype(f32),
        "W2": (rng.standard_normal((O, H)) * 0.1).astype(f32),
        "b2": (rng.standard_normal(O) * 0.1).astype(f32),
    }
    x = rng.standard_normal((B, D)).astype(f32)
    y = rng.standard_normal((B, O)).astype(f32)

    kr_params = {k: keyroute.from_numpy(v) for k, v in arrays.items()}
    kx, ky = keyroute.from_numpy(x), keyroute.from_numpy(y)
    kr_fn = make_lib_fn(keyroute)
    ref = numpy_per_sample(arrays["W1"], arrays["b1"], arrays["W2"], arrays["b2"], x, y)
    got = kr_fn(kr_params, kx, ky)
    for name, r in zip(("W1", "b1", "W2", "b2"), ref):
        np.testing.assert_allclose(got[name].numpy(), r, rtol=1e-4, atol=1e-5)

    cases = {
        "numpy by hand": lambda: numpy_per_sample(
            arrays["W1"], arrays["b1"], arrays["W2"], arrays["b2"], x, y
        ),
        "keyroute vmap(grad)": lambda: kr_fn(kr_params, kx, ky),
    }
    torch = torch_or_none()
    if torch is not None:
        import torch.func  # noqa: F401

        t_params = {k: torch.from_numpy(v) for k, v in arrays.items()}
        tx, ty = torch.from_numpy(x), torch.from_numpy(y)
        t_fn = make_lib_fn(torch)
        cases["torch.func vmap(grad)"] = lambda: t_fn(t_params, tx, ty)
    times = compare(cases, rounds=11)
    ref_t = times["numpy by hand"]
    rows = [(name, t, ref_t) for name, t in times.items()]
    print(table(f"per-sample gradients, MLP {D}-{H}-{O}, batch {B}", rows, "numpy by hand"))
    if torch is not None:
        ratio = times["keyroute vmap(grad)"] / times["torch.func vmap(grad)"]
        print(f"keyroute / torch.func: {ratio:.2f}x")


if __name__ == "__main__":
    main()
