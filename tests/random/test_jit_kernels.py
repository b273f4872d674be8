"""The compiled (numba) random kernels give the NumPy path's values bit for bit, and so
PyTorch's recorded streams (keyroute/kernels/cpu/_random_jit.py)."""

from __future__ import annotations

from collections.abc import Iterator

import numpy as np
import pytest

import keyroute as kr
from keyroute.kernels.cpu import _random_jit
from tests.random.cases import CASES
from tests.random.test_streams import GAPS, _mismatches


@pytest.fixture
def compiled(monkeypatch: pytest.MonkeyPatch) -> Iterator[None]:
    """Every draw takes the compiled kernels (loaded and checked now)."""
    pytest.importorskip("numba", reason="the compile extra (numba) is not installed")
    monkeypatch.setattr(_random_jit, "_CHECKED", False)
    monkeypatch.setattr(_random_jit, "_calls", _random_jit._WARM_CALLS)
    kernels = _random_jit.jit_kernels(0)
    assert kernels is not None, "numba's kernels disagree with the NumPy path on the probes"
    yield


@pytest.fixture
def numpy_path(monkeypatch: pytest.MonkeyPatch) -> Iterator[None]:
    monkeypatch.setattr(_random_jit, "_CHECKED", True)
    monkeypatch.setattr(_random_jit, "_KERNELS", None)
    yield


def _draws(seed: int) -> list[np.ndarray]:
    kr.manual_seed(seed)
    out = []
    for n in (1, 2, 3, 15, 16, 17, 31, 33, 100, 257, 1000):
        out.append(kr.randn(n).numpy().copy())
        out.append(kr.randn(n, dtype=kr.float64).numpy().copy())
        out.append(kr.empty(n).normal_(0.5, 3.0).numpy().copy())
        out.append(kr.empty(n, dtype=kr.float64).normal_(-2.0, 0.1).numpy().copy())
        out.append(kr.randperm(n).numpy().copy())
    out.append(kr.randn(4, 5, dtype=kr.complex64).numpy().copy())
    return out


@pytest.mark.parametrize("seed", [0, 1, 12345, 2**40 + 7])
def test_compiled_equals_numpy_path(seed: int, monkeypatch: pytest.MonkeyPatch) -> None:
    pytest.importorskip("numba", reason="the compile extra (numba) is not installed")
    monkeypatch.setattr(_random_jit, "_CHECKED", True)
    monkeypatch.setattr(_random_jit, "_KERNELS", None)
    want = _draws(seed)
    monkeypatch.setattr(_random_jit, "_CHECKED", False)
    monkeypatch.setattr(_random_jit, "_calls", _random_jit._WARM_CALLS)
    assert _random_jit.jit_kernels(0) is not None
    got = _draws(seed)
    for i, (g, w) in enumerate(zip(got, want)):
        assert g.dtype == w.dtype and g.tobytes() == w.tobytes(), f"draw {i} differs"


@pytest.mark.parametrize("name", sorted(CASES))
def test_stream_matches_pytorch_compiled(name: str, compiled: None) -> None:
    problems = _mismatches(name, CASES[name](kr))
    if name in GAPS:
        assert problems, f"known gap {name!r} now matches PyTorch: remove it ({GAPS[name]})"
        return
    assert not problems, f"{name}: " + "; ".join(problems)


def test_small_draws_wait_before_loading_numba(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(_random_jit, "_CHECKED", False)
    monkeypatch.setattr(_random_jit, "_KERNELS", None)
    monkeypatch.setattr(_random_jit, "_calls", 0)
    assert _random_jit.jit_kernels(100) is None
    assert not _random_jit._CHECKED  # a few small draws keep the NumPy path, numba not loaded


def test_without_numba_the_numpy_path_runs(monkeypatch: pytest.MonkeyPatch) -> None:
    import importlib.util

    real = importlib.util.find_spec
    monkeypatch.setattr(
        importlib.util, "find_spec", lambda name, *a: None if name == "numba" else real(name, *a)
    )
    monkeypatch.setattr(_random_jit, "_CHECKED", False)
    monkeypatch.setattr(_random_jit, "_KERNELS", None)
    assert _random_jit.jit_kernels(1 << 20) is None
    kr.manual_seed(3)
    assert kr.randn(40).shape == (40,)
