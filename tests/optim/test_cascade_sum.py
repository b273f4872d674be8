"""float32/float64 sum and mean round as PyTorch's CPU kernel (SumKernel.cpp's cascade order),
bit for bit, on full, inner, outer and multi-dim reductions recorded by
tools/record_cascade_sums.py; and NumPy's pairwise order would not have matched."""

from __future__ import annotations

import pathlib

import numpy as np
import pytest

import keyroute as kr
from tests.optim.sum_cases import CASES, DTYPES, inputs, run

DATA = np.load(pathlib.Path(__file__).parents[1] / "data" / "cascade_sums.npz")


@pytest.fixture(scope="module")
def ours() -> dict[str, np.ndarray]:
    return run(kr)


def test_every_reduction_recorded(ours: dict[str, np.ndarray]) -> None:
    assert sorted(ours) == sorted(DATA.files)


@pytest.mark.parametrize("key", sorted(DATA.files))
def test_bit_identical_to_pytorch(key: str, ours: dict[str, np.ndarray]) -> None:
    exp, got = DATA[key], ours[key]
    assert got.shape == exp.shape and got.dtype == exp.dtype
    assert got.tobytes() == exp.tobytes()  # the same bits (and -0.0 apart from 0.0)


def test_numpy_order_differs_somewhere() -> None:
    """The recording can tell the orders apart: NumPy's own sums miss some of it."""
    misses = 0
    for i, (shape, dim) in enumerate(CASES):
        for dt in DTYPES:
            x = inputs(i, shape, dt)
            misses += not np.array_equal(np.add.reduce(x, axis=dim), DATA[f"{i}/{dt}/sum"])
    assert misses > 10
