"""nonzero_static, the unique family, bincount and equal beyond the operator samples: the public
functions and methods (return forms, which aten operator they call), the meta device, fake
tensors, out= state on failure, autograd, and randomized comparisons with live PyTorch.

Expected values come from NumPy (an independent implementation) or are PyTorch 2.13's
documented/observed behaviour; known differences are listed in tests/aten/known_gaps.txt.
"""

from __future__ import annotations

import os
import warnings
from typing import Any

import numpy as np
import pytest

import keyroute as kr
from keyroute.subclasses import FakeTensorMode
from keyroute.subclasses.fake_tensor import (
    DataDependentOutputException,
    DynamicOutputShapeException,
)
from keyroute.utils.python_dispatch import TorchDispatchMode


def _gaps() -> dict[str, str]:
    out = {}
    with open(os.path.join(os.path.dirname(__file__), "known_gaps.txt")) as f:
        for line in f:
            line = line.strip()
            if line and not line.startswith("#"):
                name, _, reason = line.partition(" ")
                out[name] = reason
    return out


GAPS = _gaps()


def _check_gap(gap: str, matches_pytorch: bool) -> None:
    if gap in GAPS:
        assert not matches_pytorch, f"known gap {gap} is fixed: remove it from known_gaps.txt"
        pytest.xfail(GAPS[gap])
    assert matches_pytorch, gap


def test_known_gaps_are_named_by_tests() -> None:
    named = {
        "nonzero_static-meta-strides",
        "unique-autograd",
        "bincount-backward",
        "unique-tie-order",
    }
    assert set(GAPS) <= named, sorted(set(GAPS) - named)


# -- public functions and methods ------------------------------------------------------------


@pytest.mark.parametrize("inv,cnt", [(False, False), (True, False), (False, True), (True, True)])
def test_unique_return_forms_match_numpy(inv: bool, cnt: bool) -> None:
    a = np.array([[3, 1, 3], [2, 1, 7]])
    values, inverse, counts = np.unique(a, return_inverse=True, return_counts=True)
    for got in (
        kr.unique(kr.tensor(a), return_inverse=inv, return_counts=cnt),
        kr.tensor(a).unique(return_inverse=inv, return_counts=cnt),
    ):
        expected = (
            [values] + ([inverse.reshape(a.shape)] if inv else []) + ([counts] if cnt else [])
        )
        if not inv and not cnt:
            assert isinstance(got, kr.Tensor)
            got = (got,)
        assert isinstance(got, tuple) and len(got) == len(expected)
        for g, e in zip(got, expected):
            np.testing.assert_array_equal(g.numpy(), e)


def test_unique_dim_matches_numpy() -> None:
    a = np.array([[1, 0, 1], [0, 1, 0], [1, 0, 1], [0, 0, 0]])
    for dim in (0, 1):
        values, inverse, counts = np.unique(a, axis=dim, return_inverse=True, return_counts=True)
        out, inv, cnt = kr.tensor(a).unique(dim=dim, return_inverse=True, return_counts=True)
        np.testing.assert_array_equal(out.numpy(), values)
        np.testing.assert_array_equal(inv.numpy(), inverse.reshape(-1))
        np.testing.assert_array_equal(cnt.numpy(), counts)


def test_unique_consecutive_runs() -> None:
    a = np.array([1, 1, 2, 2, 3, 1, 1, 2])
    out, inv, cnt = kr.unique_consecutive(kr.tensor(a), return_inverse=True, return_counts=True)
    starts = np.flatnonzero(np.r_[True, a[1:] != a[:-1]])
    np.testing.assert_array_equal(out.numpy(), a[starts])
    np.testing.assert_array_equal(inv.numpy(), np.cumsum(np.r_[True, a[1:] != a[:-1]]) - 1)
    np.testing.assert_array_equal(cnt.numpy(), np.diff(np.r_[starts, a.size]))
    only = kr.tensor(a).unique_consecutive()
    assert isinstance(only, kr.Tensor)
    np.testing.assert_array_equal(only.numpy(), a[starts])


def test_bincount_matches_numpy() -> None:
    a = np.array([0, 4, 4, 1, 4, 7])
    w = np.array([0.5, 1.0, 2.0, -1.0, 0.25, 3.0])
    np.testing.assert_array_equal(kr.bincount(kr.tensor(a)).numpy(), np.bincount(a))
    np.testing.assert_array_equal(
        kr.tensor(a).bincount(minlength=10).numpy(), np.bincount(a, minlength=10)
    )
    got = kr.tensor(a).bincount(kr.tensor(w))  # float64 weights: float64 sums
    assert got.dtype == kr.float64
    np.testing.assert_allclose(got.numpy(), np.bincount(a, weights=w))
    got32 = kr.bincount(kr.tensor(a), weights=kr.tensor(w, dtype=kr.float32))
    assert got32.dtype == kr.float32  # PyTorch keeps float32 weights in float32
    got_int = kr.bincount(kr.tensor(a), kr.tensor(np.arange(6)))
    assert got_int.dtype == kr.float64  # any other weights dtype: double


def test_nonzero_static_pads_and_truncates() -> None:
    a = np.array([[0, 2, 0], [1, 0, 3]])
    coords = np.argwhere(a)
    got = kr.nonzero_static(kr.tensor(a), size=5, fill_value=-7)
    np.testing.assert_array_equal(got.numpy()[:3], coords)
    np.testing.assert_array_equal(got.numpy()[3:], np.full((2, 2), -7))
    np.testing.assert_array_equal(kr.tensor(a).nonzero_static(size=2).numpy(), coords[:2])
    assert kr.tensor(a).nonzero_static(size=2).dtype == kr.int64


def test_equal_function_and_method() -> None:
    x = kr.tensor([1.0, 2.0])
    assert kr.equal(x, kr.tensor([1.0, 2.0])) is True
    assert x.equal(kr.tensor([1, 2])) is True  # compared in the common dtype
    assert x.equal(kr.tensor([[1.0, 2.0]])) is False  # no broadcasting
    nan = kr.tensor([float("nan")])
    assert kr.equal(nan, nan) is False


def test_unique_tie_order_of_long_inputs() -> None:
    # PyTorch 2.13's answer for these 20 values: its CPU sort (stable=False) is libstdc++'s
    # std::sort, stable only up to 16 elements, so the NaNs' inverse indices (and which of
    # -0.0/0.0 stands for the zero group) follow introsort's tie order.
    nan = float("nan")
    a = [0.0, nan, -0.0, 1.0, nan, 0.0, -0.0, nan, 1.0, -0.0]
    a += [0.0, nan, -0.0, 0.0, nan, 1.0, -0.0, 0.0, nan, 0.0]
    torch_inverse = [0, 7, 0, 1, 4, 0, 0, 2, 1, 0, 0, 3, 0, 0, 5, 1, 0, 0, 6, 0]
    out, inverse, counts = kr.unique(kr.tensor(a), return_inverse=True, return_counts=True)
    values = out.tolist()
    assert values[:2] == [0.0, 1.0] and all(v != v for v in values[2:]) and len(values) == 8
    assert counts.tolist() == [11, 3, 1, 1, 1, 1, 1, 1]
    got = inverse.tolist()
    not_nan = [i for i, v in enumerate(a) if v == v]
    assert [got[i] for i in not_nan] == [torch_inverse[i] for i in not_nan]
    _check_gap("unique-tie-order", got == torch_inverse)


class _Log(TorchDispatchMode):
    def __init__(self) -> None:
        super().__init__()
        self.calls: list[str] = []

    def __torch_dispatch__(self, func: Any, types: Any, args: Any = (), kwargs: Any = None) -> Any:
        self.calls.append(str(func))
        return func(*args, **(kwargs or {}))


@pytest.mark.parametrize(
    "expr,ops",
    [
        ("kr.unique(x)", ["aten._unique2.default"]),
        ("x.unique(return_counts=True)", ["aten._unique2.default"]),
        ("kr.unique(x, dim=0)", ["aten.unique_dim.default"]),
        ("x.unique_consecutive(dim=0)", ["aten.unique_consecutive.default"]),
        ("kr.bincount(i)", ["aten.bincount.default"]),
        ("kr.equal(x, x)", ["aten.equal.default"]),
        ("x.nonzero_static(size=2)", ["aten.nonzero_static.default"]),
    ],
)
def test_modes_see_pytorchs_aten_calls(expr: str, ops: list[str]) -> None:
    env = {"kr": kr, "x": kr.tensor([2.0, 1.0, 2.0]), "i": kr.tensor([0, 2, 2])}
    with _Log() as log:
        eval(expr, env)
    assert log.calls == ops


# -- meta device -------------------------------------------------------------------------------


@pytest.mark.parametrize(
    "expr,op",
    [
        ("kr.unique(m)", "aten::_unique2"),
        ("kr.unique(m, dim=0)", "aten::unique_dim"),
        ("kr.unique_consecutive(m)", "aten::unique_consecutive"),
        ("kr.ops.aten._unique(m)", "aten::_unique"),
        ("kr.ops.aten.unique_dim_consecutive(m, 0)", "aten::unique_dim_consecutive"),
        ("kr.bincount(mi)", "aten::bincount"),
        ("kr.equal(m, m)", "aten::equal"),
    ],
)
def test_meta_device_has_no_kernel_as_in_pytorch(expr: str, op: str) -> None:
    env = {
        "kr": kr,
        "m": kr.empty(3, device="meta"),
        "mi": kr.empty(3, dtype=kr.int64, device="meta"),
    }
    with pytest.raises(NotImplementedError) as info:
        eval(expr, env)
    assert str(info.value).startswith(
        f"{op}: attempted to run this operator with Meta tensors, but there was no fake impl or "
        "Meta kernel registered."
    )


def test_nonzero_static_meta_shape() -> None:
    r = kr.nonzero_static(kr.empty(3, 4, device="meta"), size=5)
    assert r.device.type == "meta" and tuple(r.shape) == (5, 2) and r.dtype == kr.int64
    with pytest.raises(RuntimeError, match=r"Trying to create tensor with negative dimension -1"):
        kr.nonzero_static(kr.empty(3, 4, device="meta"), size=-1)


def test_nonzero_static_meta_strides() -> None:
    r = kr.nonzero_static(kr.empty(3, 4, device="meta"), size=5)
    _check_gap("nonzero_static-meta-strides", r.stride() == (1, 5))  # PyTorch 2.13's


# -- fake tensors ------------------------------------------------------------------------------


@pytest.mark.parametrize(
    "expr,exc,op",
    [
        ("kr.unique(x, dim=0)", DynamicOutputShapeException, "aten.unique_dim.default"),
        (
            "kr.unique_consecutive(x)",
            DynamicOutputShapeException,
            "aten.unique_consecutive.default",
        ),
        (
            "kr.ops.aten.unique_dim_consecutive(x, 0)",
            DynamicOutputShapeException,
            "aten.unique_dim_consecutive.default",
        ),
        ("kr.ops.aten._unique(x)", DynamicOutputShapeException, "aten._unique.default"),
        ("kr.bincount(i, x)", DynamicOutputShapeException, "aten.bincount.default"),
        ("x.equal(x.clone())", DataDependentOutputException, "aten.equal.default"),
    ],
)
def test_fake_refuses_data_dependent_ops(expr: str, exc: type, op: str) -> None:
    with FakeTensorMode():
        env = {"kr": kr, "x": kr.empty(3, 2), "i": kr.empty(3, dtype=kr.int64)}
        with pytest.raises(exc) as info:
            eval(expr, env)
    assert str(info.value).startswith(op + ":")


def test_fake_nonzero_static_out_keeps_out_strides() -> None:
    with FakeTensorMode():
        out = kr.empty(2, 5, dtype=kr.int64).t()
        r = kr.nonzero_static(kr.empty(3, 4), size=5, out=out)
        assert r is out and tuple(r.shape) == (5, 2) and r.stride() == (1, 5)
        fresh = kr.nonzero_static(kr.empty(3, 4), size=5, out=kr.empty(0, dtype=kr.int64))
        assert tuple(fresh.shape) == (5, 2) and fresh.stride() == (2, 1)


# -- out= and failures ---------------------------------------------------------------------------


def test_failed_out_leaves_outs_unchanged() -> None:
    x = kr.tensor([1, 0, 2])
    bad = kr.empty(0, dtype=kr.int32)
    with pytest.raises(RuntimeError, match="Expected out tensor to have scalar type Long"):
        kr.nonzero_static(x, size=2, out=bad)
    assert tuple(bad.shape) == (0,)
    good, wrong, other = kr.empty(0, dtype=kr.int64), kr.empty(0), kr.empty(0, dtype=kr.int64)
    with pytest.raises(RuntimeError, match="Expected out tensor to have dtype long int"):
        kr.ops.aten._unique2.out(x, out0=good, out1=wrong, out2=other)
    assert tuple(good.shape) == tuple(wrong.shape) == tuple(other.shape) == (0,)
    with pytest.raises(RuntimeError, match="size' must be an non-negative integer"):
        kr.nonzero_static(x, size=-1, out=good)
    assert tuple(good.shape) == (0,)


def test_bincount_error_leaves_input_unchanged() -> None:
    x = kr.tensor([1, -1, 2])
    with pytest.raises(RuntimeError, match="non-negative integral inputs"):
        kr.bincount(x)
    assert x.tolist() == [1, -1, 2]


# -- autograd ----------------------------------------------------------------------------------


def test_autograd_outputs() -> None:
    x = kr.tensor([1.0, 0.0, 2.0], requires_grad=True)
    assert kr.equal(x, x.detach()) is True
    assert not x.nonzero_static(size=2).requires_grad  # int64 output
    w = kr.bincount(kr.tensor([0, 1, 1]), x)
    assert w.requires_grad  # PyTorch: grad_fn NotImplemented


def test_unique_autograd() -> None:
    # PyTorch: the values output requires grad (Unique2Backward0) and backward raises.
    x = kr.tensor([1.0, 2.0, 2.0], requires_grad=True)
    out = kr.unique(x)
    matches = out.requires_grad
    if matches:
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")
            try:
                out.sum().backward()
                matches = False
            except NotImplementedError as e:
                matches = str(e) == "the derivative for '_unique2' is not implemented."
    _check_gap("unique-autograd", matches)


def test_bincount_backward() -> None:
    w = kr.tensor([1.0, 2.0, 3.0], requires_grad=True)
    out = kr.bincount(kr.tensor([0, 1, 1]), w)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        try:
            out.sum().backward()
            matches = False
        except RuntimeError as e:
            matches = str(e) == "derivative for aten::bincount is not implemented"
    _check_gap("bincount-backward", matches)


# -- randomized comparison with live PyTorch ---------------------------------------------------

_DTYPES = ("bool", "uint8", "int8", "int16", "int32", "int64", "float16", "bfloat16", "float32")


def _make(M: Any, a: np.ndarray, dt: str, transpose: bool) -> Any:
    t = M.tensor((a > 0 if dt == "bool" else a).tolist(), dtype=getattr(M, dt))
    return t.t() if transpose and t.dim() == 2 else t


def _enc(M: Any, v: Any) -> Any:
    if isinstance(v, (tuple, list)):
        return [_enc(M, x) for x in v]
    if isinstance(v, M.Tensor):
        f = v.to(M.float64) if v.dtype in (M.bfloat16, M.float16) else v
        return (str(v.dtype).split(".")[-1], tuple(v.shape), tuple(v.stride()), f.tolist())
    return v


def _both(fn: Any, build: Any) -> tuple[Any, Any]:
    torch = pytest.importorskip("torch")
    res = []
    for M in (torch, kr):
        try:
            with warnings.catch_warnings():
                warnings.simplefilter("ignore")
                res.append(_enc(M, fn(M, *build(M))))
        except Exception as e:  # noqa: BLE001 - errors are results too
            res.append((type(e).__name__, str(e).split("\n")[0]))
    return res[0], res[1]


def _same(a: Any, b: Any) -> bool:
    return repr(a) == repr(b)  # NaN-safe structural equality


@pytest.mark.parametrize("seed", range(40))
def test_random_against_pytorch(seed: int) -> None:
    rng = np.random.default_rng(seed)
    dt = _DTYPES[seed % len(_DTYPES)]
    ndim = int(rng.integers(0, 4))
    shape = tuple(int(s) for s in rng.integers(0 if seed % 7 == 0 else 1, 4, ndim))
    lo = 0 if dt == "uint8" else -2
    a = rng.integers(lo, 3, shape)
    tr = bool(seed % 3 == 0)
    inv, cnt = bool(rng.integers(2)), bool(rng.integers(2))
    rng_size = int(rng.integers(0, 8))
    build = lambda M: (_make(M, a, dt, tr),)  # noqa: E731
    cases = {
        "unique": lambda M, x: M.unique(x, return_inverse=inv, return_counts=cnt),
        "unique_consecutive": lambda M, x: M.unique_consecutive(
            x, return_inverse=inv, return_counts=cnt
        ),
        "nonzero_static": lambda M, x: M.nonzero_static(x, size=rng_size, fill_value=-3),
        "equal": lambda M, x: M.equal(x, x.clone()),
    }
    for d in range(-ndim, ndim):
        cases[f"unique_dim{d}"] = lambda M, x, d=d: M.unique(
            x, dim=d, return_inverse=inv, return_counts=cnt
        )
        cases[f"unique_consecutive_dim{d}"] = lambda M, x, d=d: M.unique_consecutive(
            x, return_counts=cnt, dim=d
        )
    if ndim == 1 and dt in ("uint8", "int8", "int16", "int32", "int64"):
        wdt = ("float32", "float64", "int64", "float16")[seed % 4]
        w = rng.uniform(-2, 2, shape)

        def bc(M: Any, x: Any) -> Any:
            weights = M.tensor(w.tolist(), dtype=getattr(M, wdt))
            return M.bincount(x, weights, minlength=rng_size)

        cases["bincount_weights"] = bc
        cases["bincount"] = lambda M, x: M.bincount(x, minlength=rng_size)
    bad = []
    for name, fn in cases.items():
        t, k = _both(fn, build)
        if not _same(t, k):
            bad.append(f"{name} {dt}{shape}: torch {t} != keyroute {k}")
    assert not bad, "\n".join(bad)
