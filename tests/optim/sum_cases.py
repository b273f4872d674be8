"""Reductions whose float32/float64 rounding depends on PyTorch's cascade-sum order, shared by
tools/record_cascade_sums.py (PyTorch, one thread) and test_cascade_sum.py: inputs from a
fixed NumPy seed, so the recording holds only PyTorch's results."""

from __future__ import annotations

from typing import Any

import numpy as np

CASES: list[tuple[tuple[int, ...], Any]] = (
    [((n,), None) for n in (3, 5, 7, 8, 9, 17, 33, 100, 129, 257, 1000, 2000, 4097, 20000)]
    + [((3, n), 1) for n in (5, 8, 13, 100, 2000)]
    + [((n, m), 0) for n in (3, 50, 300) for m in (1, 3, 8, 12, 33, 70)]
    + [
        ((2, 5, 7), 1),
        ((4, 40, 9), 1),
        ((3, 4, 50), (1, 2)),
        ((30, 4, 5), (0, 1)),
        ((30, 40), None),
    ]
)
DTYPES = ("float32", "float64")


def inputs(i: int, shape: tuple[int, ...], dtype: str) -> np.ndarray:
    return np.random.default_rng(1000 + i).standard_normal(shape).astype(dtype)


def run(M: Any) -> dict[str, np.ndarray]:  # noqa: N803
    out = {}
    for i, (shape, dim) in enumerate(CASES):
        for dt in DTYPES:
            x = M.from_numpy(inputs(i, shape, dt))
            out[f"{i}/{dt}/sum"] = (x.sum() if dim is None else x.sum(dim)).numpy()
            out[f"{i}/{dt}/mean"] = (x.mean() if dim is None else x.mean(dim)).numpy()
    return out
