"""Record PyTorch's float32 results for the rounding the public programs depend on
(tests/programs/test_rounding.py): thin mm/addmm (MKL's sequential order,
keyroute/kernels/cpu/gemm_order.py), mse_loss's reduction (a cascade sum, then a division)
and float32 x ** e (Sleef's powf on blocks of 16, keyroute/kernels/cpu/sleef_pow.py).

    python tools/record_program_rounding.py

Inputs are drawn from numpy.random.default_rng(seed) as the test draws them; only PyTorch's
outputs are stored (hex of the little-endian float32 bytes) in tests/data/program_rounding.json.
"""

from __future__ import annotations

import json
import pathlib

import numpy as np

ROOT = pathlib.Path(__file__).resolve().parents[1]
OUT = ROOT / "tests/data/program_rounding.json"

# (M, K, N, a transposed, b transposed): the modelled thin shapes (nn.Linear(3 or 4, 1) forward
# and its weight gradient, vector-matrix products).
GEMM = [
    (1, 2000, 3, 0, 0),
    (1, 2000, 3, 1, 0),
    (1, 32, 4, 0, 0),
    (1, 784, 10, 0, 0),
    (1, 256, 64, 1, 0),
    (1, 64, 1, 0, 0),
    (200, 3, 1, 0, 0),
    (200, 3, 1, 0, 1),
    (32, 4, 1, 0, 1),
    (100, 16, 1, 1, 0),
    (4, 2000, 1, 1, 0),
    (100, 4, 1, 0, 0),
]
POW = [(5, 4.0), (16, 4.0), (37, 5.0), (100, 1.5), (100, -3.0), (37, 0.5001), (64, 7.0)]
MSE = [(5, "sum"), (100, "mean"), (2000, "sum"), (2000, "mean"), (40000, "sum"), (231, "mean")]


def gemm_inputs(case: tuple[int, ...], seed: int) -> tuple[np.ndarray, ...]:
    m, k, n, ta, tb = case
    rng = np.random.default_rng(seed)
    a = rng.standard_normal((k, m) if ta else (m, k)).astype(np.float32)
    b = rng.standard_normal((n, k) if tb else (k, n)).astype(np.float32)
    bias = rng.standard_normal(n).astype(np.float32)
    return a, b, bias


def pow_inputs(n: int, seed: int) -> np.ndarray:
    x = np.random.default_rng(seed).uniform(-4, 4, n).astype(np.float32)
    x[:4] = [0.0, 1.0, -2.0, 1e-40]  # zero, one, a negative integer base, a subnormal
    return x


def mse_inputs(n: int, seed: int) -> tuple[np.ndarray, np.ndarray]:
    rng = np.random.default_rng(seed)
    return rng.standard_normal(n).astype(np.float32), rng.standard_normal(n).astype(np.float32)


def main() -> None:
    import torch

    torch.set_num_threads(1)
    record: dict = {"torch": torch.__version__, "gemm": [], "mse_loss": []}
    for i, case in enumerate(GEMM):
        a, b, bias = gemm_inputs(case, i)
        ta, tb = torch.from_numpy(a), torch.from_numpy(b)
        if case[3]:
            ta = ta.t()
        if case[4]:
            tb = tb.t()
        mm = (ta @ tb).numpy()
        addmm = torch.addmm(torch.from_numpy(bias), ta, tb).numpy()
        record["gemm"].append(
            {
                "case": list(case),
                "seed": i,
                "mm": mm.tobytes().hex(),
                "addmm": addmm.tobytes().hex(),
            }
        )
    for i, (n, reduction) in enumerate(MSE):
        x, y = mse_inputs(n, 100 + i)
        r = torch.nn.functional.mse_loss(
            torch.from_numpy(x), torch.from_numpy(y), reduction=reduction
        )
        record["mse_loss"].append(
            {"n": n, "reduction": reduction, "seed": 100 + i, "out": r.numpy().tobytes().hex()}
        )
    record["pow"] = []
    for i, (n, e) in enumerate(POW):
        r = (torch.from_numpy(pow_inputs(n, 200 + i)) ** e).numpy()
        record["pow"].append({"n": n, "exponent": e, "seed": 200 + i, "out": r.tobytes().hex()})
    OUT.write_text(json.dumps(record, indent=1) + "\n")
    print(f"wrote {OUT.relative_to(ROOT)}")


if __name__ == "__main__":
    main()
