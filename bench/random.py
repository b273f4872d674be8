"""Random factories: keyroute (PyTorch's mt19937 streams, bit for bit) against PyTorch and
NumPy's own generator (np.random.Generator, PCG64: different numbers, the speed of a native
sampler), one thread, medians of interleaved rounds.

    python bench/random.py
"""

from __future__ import annotations

import _common  # noqa: F401  (one BLAS thread; must come first)
import numpy as np
from _common import compare, torch_or_none

import keyroute

SIZES = (16, 1000, 100_000)


def main() -> None:
    torch = torch_or_none()
    rng = np.random.default_rng(0)
    rows = []
    for n in SIZES:
        cases = {
            f"rand({n})": (
                lambda n=n: keyroute.rand(n),
                (lambda n=n: torch.rand(n)) if torch else None,
                lambda n=n: rng.random(n, dtype=np.float32),
            ),
            f"randn({n})": (
                lambda n=n: keyroute.randn(n),
                (lambda n=n: torch.randn(n)) if torch else None,
                lambda n=n: rng.standard_normal(n, dtype=np.float32),
            ),
            f"randn({n}, float64)": (
                lambda n=n: keyroute.randn(n, dtype=keyroute.float64),
                (lambda n=n: torch.randn(n, dtype=torch.float64)) if torch else None,
                lambda n=n: rng.standard_normal(n),
            ),
            f"randint(0, 10, ({n},))": (
                lambda n=n: keyroute.randint(0, 10, (n,)),
                (lambda n=n: torch.randint(0, 10, (n,))) if torch else None,
                lambda n=n: rng.integers(0, 10, n),
            ),
        }
        if n <= 1000:
            cases[f"randperm({n})"] = (
                lambda n=n: keyroute.randperm(n),
                (lambda n=n: torch.randperm(n)) if torch else None,
                lambda n=n: rng.permutation(n),
            )
        for name, (kr_fn, th_fn, np_fn) in cases.items():
            timed = {"kr": kr_fn, "np": np_fn}
            if th_fn is not None:
                timed["th"] = th_fn
            t = compare(timed, rounds=9)
            rows.append((name, t["kr"], t.get("th"), t["np"]))
    print("random factories, one thread (medians of interleaved rounds)")
    head = f"{'case':<26}{'keyroute':>11}{'NumPy':>11}{'kr/NumPy':>10}"
    if torch is not None:
        head += f"{'PyTorch':>11}{'kr/PyTorch':>12}"
    print(head)
    for name, t_kr, t_th, t_np in rows:
        line = f"{name:<26}{t_kr * 1e6:>9.2f}µs{t_np * 1e6:>9.2f}µs{t_kr / t_np:>9.2f}x"
        if t_th is not None:
            line += f"{t_th * 1e6:>9.2f}µs{t_kr / t_th:>11.2f}x"
        print(line)


if __name__ == "__main__":
    main()
