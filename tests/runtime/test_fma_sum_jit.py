"""The numba loops (kernels/cpu/_numba_kernels.py, the `compile` extra) and their NumPy
fallbacks compute the same bits: the fused multiply-add family (fma.py) and PyTorch's cascade
sum (cascade_sum.py), over sizes that reach every level of the cascade, broadcast operands,
in-place outputs, non-finite values and signed zeros. The recorded PyTorch results
(tests/optim/test_cascade_sum.py, the optimizer cases) run on whichever path is active."""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

import numpy as np
import pytest

from keyroute.kernels.cpu import _jit, cascade_sum, fma

pytest.importorskip("numba")  # without it only the NumPy path exists: nothing to compare

RNG = np.random.default_rng(7)


@pytest.fixture
def both() -> Iterator[Any]:
    """Run f under the compiled kernels, then under the NumPy code; give both results."""

    def run(f: Any) -> tuple[Any, Any]:
        _jit.set_enabled(True)
        assert _jit.kernels() is not None
        compiled = f()
        _jit.set_enabled(False)
        assert _jit.kernels() is None
        fallback = f()
        _jit.set_enabled(True)
        return compiled, fallback

    yield run
    _jit.set_enabled(True)


def _same(x: Any, y: Any) -> None:
    x, y = np.asarray(x), np.asarray(y)
    assert x.shape == y.shape and x.dtype == y.dtype
    assert x.tobytes() == y.tobytes()


def _data(shape: tuple[int, ...], dt: str) -> np.ndarray:
    x = RNG.standard_normal(shape) * 10.0 ** RNG.integers(-3, 4, shape)
    return x.astype(dt)


SUM_CASES = (
    [((n,), None) for n in (1, 3, 4, 7, 8, 9, 31, 33, 257, 4097, 65536, 131073, (1 << 20) + 77)]
    + [((3, n), 1) for n in (1, 4, 9, 513, 140001)]
    + [((n, m), 0) for n in (1, 5, 17, 300, 4097) for m in (1, 3, 4, 9, 32, 33, 70)]
    + [((70000, 31), 0), ((3, 300, 33), 1), ((2, 3, 30, 33), (1, 2)), ((4, 5, 6), (0, 1, 2))]
)


@pytest.mark.parametrize("dt", ["float32", "float64"])
@pytest.mark.parametrize(("shape", "dim"), SUM_CASES, ids=str)
def test_cascade_sum_paths_agree(both: Any, shape: Any, dim: Any, dt: str) -> None:
    x = _data(shape, dt)
    for keepdims in (False, True):
        got, exp = both(lambda: cascade_sum.cascade_sum(x, dim, keepdims))  # noqa: B023
        _same(got, exp)
        assert got.flags.c_contiguous


@pytest.mark.filterwarnings("ignore::RuntimeWarning")
def test_cascade_sum_fortran_and_special_values(both: Any) -> None:
    x = np.asfortranarray(_data((33, 70), "float32"))
    _same(*both(lambda: cascade_sum.cascade_sum(x, None, False)))
    y = _data((40, 9), "float32")
    y[3, 1], y[5, 2], y[7, 4] = np.inf, -np.inf, np.nan
    y[:, 6] = np.inf
    y[:, 0] = -0.0
    for dim in (None, 0, 1):
        _same(*both(lambda: cascade_sum.cascade_sum(y, dim, False)))  # noqa: B023


def test_sum_of_negative_zeros_is_positive_zero(both: Any) -> None:
    """PyTorch's accumulators start from +0.0: a sum of -0.0s is +0.0 (torch 2.13 gives
    tensor(0.) for torch.full(s, -0.0).sum(...) on every shape tried), on both paths."""
    for shape, dim in (((1,), None), ((9,), None), ((5, 3), 0), ((3, 5), 1), ((1, 1), 0)):
        x = np.full(shape, -0.0, np.float32)
        for r in both(lambda: cascade_sum.cascade_sum(x, dim, False)):  # noqa: B023
            assert not np.signbit(r).any()


def test_sum_of_negative_zeros_live() -> None:
    torch = pytest.importorskip("torch")
    import keyroute as kr

    for shape in ((1,), (9,), (5, 3)):
        t = torch.full(shape, -0.0).sum(0)
        k = kr.full(shape, -0.0).sum(0)
        assert np.signbit(t.numpy()).tolist() == np.signbit(k.numpy()).tolist()


FMA_SHAPES = [(16,), (3, 5), (200_000,), (2, 3, 4)]


@pytest.mark.parametrize("dt", ["float32", "float64"])
@pytest.mark.parametrize("shape", FMA_SHAPES, ids=str)
def test_fma_paths_agree(both: Any, shape: Any, dt: str) -> None:
    x, y, z = (_data(shape, dt) for _ in range(3))
    s = np.asarray(0.1, dt)
    for args in ((x, y, z), (x, s, z), (s, y, z), (x, y, s), (x, y, z[:1] if z.ndim else z)):
        _same(*both(lambda: fma.fma(*args, dt)))  # noqa: B023
    _same(*both(lambda: fma.fma(x, y, z.copy(), dt, out=z.copy())))


@pytest.mark.filterwarnings("ignore::RuntimeWarning")
def test_fma_into_its_addend_and_nonfinite(both: Any) -> None:
    x, y = _data((50,), "float32"), _data((50,), "float32")
    x[:3] = [np.inf, np.nan, 3e38]
    y[:3] = [0.0, 1.0, 3e38]
    z0 = _data((50,), "float32")

    def inplace() -> np.ndarray:
        z = z0.copy()
        fma.fma(x, y, z, np.float32, out=z)
        return z

    _same(*both(inplace))
    _same(inplace(), fma.fma(x, y, z0, np.float32))


def test_fma_strided_and_overlapping_fall_back(both: Any) -> None:
    base = _data((40,), "float32")
    x = base[::2]
    _same(*both(lambda: fma.fma(x, x, x, np.float32)))

    def overlap() -> np.ndarray:
        b = base.copy()
        fma.fma(b[1:21], b[:20], b[:20], np.float32, out=b[:20])  # out overlaps x shifted
        return b

    c, f = both(overlap)
    _same(c, f)


@pytest.mark.parametrize("w", [0.1, 0.5, -0.7, 0.9999, float("nan")])
def test_lerp_scalar_paths_agree(both: Any, w: float) -> None:
    a, b = _data((1000,), "float32"), _data((1000,), "float32")
    _same(*both(lambda: fma.lerp(a, b, w, np.float32)))

    def inplace() -> np.ndarray:
        m = a.copy()
        fma.lerp(m, b, w, np.float32, out=m)
        return m

    _same(*both(inplace))
    _same(inplace(), fma.lerp(a, b, w, np.float32))


def test_lerp_tensor_paths_agree(both: Any) -> None:
    a, b = _data((7, 9), "float32"), _data((7, 9), "float32")
    w = (RNG.random((7, 9)) * 2 - 0.5).astype(np.float32)
    _same(*both(lambda: fma.lerp(a, b, w, np.float32)))
    _same(*both(lambda: fma.lerp(a, b, w[:1], np.float32)))  # a broadcast weight: NumPy's
    a64, b64 = a.astype(np.float64), b.astype(np.float64)
    _same(*both(lambda: fma.lerp(a64, b64, w.astype(np.float64), np.float64)))


@pytest.mark.parametrize("value", [1, 0.001, -3.5])
@pytest.mark.parametrize("dt", ["float32", "float64"])
def test_addcmul_inplace_paths_agree(both: Any, value: float, dt: str) -> None:
    t1, t2, a0 = (_data((300,), dt) for _ in range(3))

    def run() -> np.ndarray:
        a = a0.copy()
        fma.addcmul_(a, t1, t2, value)
        return a

    _same(*both(run))

    def squared() -> np.ndarray:  # v.addcmul_(g, g): one operand twice
        a = a0.copy()
        fma.addcmul_(a, t1, t1, value)
        return a

    _same(*both(squared))


@pytest.mark.filterwarnings("ignore::RuntimeWarning")
@pytest.mark.parametrize("value", [1, -0.001, 2.5])
@pytest.mark.parametrize("dt", ["float32", "float64"])
def test_addcdiv_inplace_paths_agree(both: Any, value: float, dt: str) -> None:
    t1, t2, a0 = (_data((300,), dt) for _ in range(3))
    t2[:3] = [0.0, -0.0, np.inf]
    t1[1] = 0.0

    def run() -> np.ndarray:
        a = a0.copy()
        fma.addcdiv_(a, t1, t2, value)
        return a

    _same(*both(run))


def test_disabled_by_environment(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(_jit, "_loaded", _jit._UNSET)
    monkeypatch.setenv("KEYROUTE_NUMBA", "0")
    assert _jit.kernels() is None
    monkeypatch.setattr(_jit, "_loaded", _jit._UNSET)
    monkeypatch.delenv("KEYROUTE_NUMBA")
    assert _jit.kernels() is not None


def test_loaded_after_warm_calls_or_at_once_when_large(monkeypatch: pytest.MonkeyPatch) -> None:
    """A short program does not pay numba's import: small operations take the NumPy path
    until the process has made _WARM_CALLS of them; a large one loads the kernels at once."""
    monkeypatch.setattr(_jit, "_loaded", _jit._UNSET)
    monkeypatch.setattr(_jit, "_calls", 0)
    for _ in range(_jit._WARM_CALLS):
        assert _jit.kernels(10) is None
    assert _jit.kernels(10) is not None
    monkeypatch.setattr(_jit, "_loaded", _jit._UNSET)
    monkeypatch.setattr(_jit, "_calls", 0)
    assert _jit.kernels(_jit._LARGE) is not None


def test_numba_missing_falls_back(monkeypatch: pytest.MonkeyPatch) -> None:
    """Without numba importable the loader gives None and the kernels still compute."""
    import builtins

    real_import = builtins.__import__

    def no_numba(name: str, *args: Any, **kwargs: Any) -> Any:
        if name == "numba" or name.endswith("_numba_kernels") or "_numba_kernels" in str(args):
            raise ImportError("No module named 'numba'")
        return real_import(name, *args, **kwargs)

    monkeypatch.setattr(_jit, "_loaded", _jit._UNSET)
    monkeypatch.delitem(
        __import__("sys").modules, "keyroute.kernels.cpu._numba_kernels", raising=False
    )
    monkeypatch.setattr(builtins, "__import__", no_numba)
    assert _jit.kernels() is None
    x = _data((100,), "float32")
    assert cascade_sum.cascade_sum(x, None, False).shape == ()
    monkeypatch.setattr(_jit, "_loaded", _jit._UNSET)
