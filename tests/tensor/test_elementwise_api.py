"""The elementwise Python API: the aten calls each entry point makes (as PyTorch's, recorded
with a TorchDispatchMode in torch 2.13), Python operator semantics, and keyroute's own erf.

The traces below were printed by running the same expressions under torch with a logging
TorchDispatchMode (`t` is the module, x/y float32 (4,), i int64 arange(4), b bool, z a 0-dim
float32, xc/ic clones written in place).
"""

from __future__ import annotations

import math
from typing import Any

import numpy as np
import pytest

import keyroute
import keyroute as t
from keyroute.kernels.cpu import _special as cpu_ew
from keyroute.utils.python_dispatch import TorchDispatchMode

TRACES = [
    ("x + y", ["aten.add.Tensor"]),
    ("x + 2", ["aten.add.Tensor"]),
    ("2 + x", ["aten.add.Tensor"]),
    ("x - 2", ["aten.sub.Tensor"]),
    ("2 - x", ["aten.rsub.Scalar"]),
    ("x * 2.5", ["aten.mul.Tensor"]),
    ("2 * x", ["aten.mul.Tensor"]),
    ("x / 2", ["aten.div.Tensor"]),
    ("2 / x", ["aten.reciprocal.default", "aten.mul.Tensor"]),
    ("x // 2", ["aten.floor_divide.default"]),
    ("2 // x", ["aten.floor_divide.default"]),
    ("x % 2", ["aten.remainder.Scalar"]),
    ("2 % x", ["aten.remainder.Scalar_Tensor"]),
    ("x ** 2", ["aten.pow.Tensor_Scalar"]),
    ("2 ** x", ["aten.pow.Scalar"]),
    ("x ** y", ["aten.pow.Tensor_Tensor"]),
    ("-x", ["aten.neg.default"]),
    ("~i", ["aten.bitwise_not.default"]),
    ("abs(x)", ["aten.abs.default"]),
    ("x == 2", ["aten.eq.Scalar"]),
    ("2 < x", ["aten.gt.Scalar"]),
    ("x == y", ["aten.eq.Tensor"]),
    ("i & 1", ["aten.bitwise_and.Scalar"]),
    ("1 & i", ["aten.bitwise_and.Scalar"]),
    ("i ^ i", ["aten.bitwise_xor.Tensor"]),
    ("i << 1", ["aten.__lshift__.Scalar"]),
    ("1 << i", ["aten.bitwise_left_shift.Scalar_Tensor"]),
    ("i >> i", ["aten.__rshift__.Tensor"]),
    ("x + z", ["aten.add.Tensor"]),
    ("t.add(x, y, alpha=2)", ["aten.add.Tensor"]),
    ("t.sub(x, 2)", ["aten.sub.Tensor"]),
    ("t.mul(x, 2)", ["aten.mul.Tensor"]),
    ("t.div(x, 2, rounding_mode='floor')", ["aten.div.Tensor_mode"]),
    ("t.remainder(2, x)", ["aten.remainder.Scalar_Tensor"]),
    ("t.pow(2, x)", ["aten.pow.Scalar"]),
    ("t.bitwise_left_shift(i, 1)", ["aten.bitwise_left_shift.Tensor_Scalar"]),
    ("t.bitwise_and(1, i)", ["aten.bitwise_and.Scalar_Tensor"]),
    ("t.eq(x, 2)", ["aten.eq.Scalar"]),
    ("t.maximum(x, y)", ["aten.maximum.default"]),
    ("t.clamp(x, 0, 1)", ["aten.clamp.default"]),
    ("t.clamp(x, min=0)", ["aten.clamp.default"]),
    ("t.clamp(x, y)", ["aten.clamp.Tensor"]),
    ("t.clip(x, max=1)", ["aten.clamp.default"]),
    ("t.clamp_min(x, 0)", ["aten.clamp_min.default"]),
    ("t.lerp(x, y, 0.5)", ["aten.lerp.Scalar"]),
    ("t.xlogy(2, y)", ["aten.xlogy.Scalar_Self"]),
    ("t.xlogy(x, 2)", ["aten.xlogy.Scalar_Other"]),
    ("t.copysign(x, 2)", ["aten.copysign.Scalar"]),
    ("t.square(x)", ["aten.pow.Tensor_Scalar"]),
    ("t.square(i)", ["aten.pow.Tensor_Scalar"]),
    ("t.isfinite(x)", ["aten.abs.default", "aten.ne.Scalar", "aten.eq.Tensor", "aten.mul.Tensor"]),
    ("t.isfinite(i)", ["aten.ones_like.default"]),
    ("t.sgn(x)", ["aten.sgn.default"]),
    ("t.where(b, x, 2.)", ["aten.scalar_tensor.default", "aten.where.self"]),
    ("t.where(b, 2., x)", ["aten.scalar_tensor.default", "aten.where.self"]),
    (
        "t.where(b, 2., 3.)",
        ["aten.scalar_tensor.default", "aten.scalar_tensor.default", "aten.where.self"],
    ),
    (
        "t.where(b, i, 2.5)",
        ["aten.scalar_tensor.default", "aten._to_copy.default", "aten.where.self"],
    ),
    (
        "t.where(b, 2, 3)",
        ["aten.scalar_tensor.default", "aten.scalar_tensor.default", "aten.where.self"],
    ),
    ("t.rsub(x, 2)", ["aten.rsub.Scalar"]),
    ("t.rsub(x, y)", ["aten.rsub.Tensor"]),
    ("t.float_power(x, 2)", ["aten._to_copy.default", "aten.pow.Tensor_Scalar"]),
    (
        "t.float_power(x, i)",
        ["aten._to_copy.default", "aten._to_copy.default", "aten.pow.Tensor_Tensor"],
    ),
    ("t.float_power(2, x)", ["aten._to_copy.default", "aten.pow.Scalar"]),
    ("t.absolute(x)", ["aten.abs.default"]),
    ("t.negative(x)", ["aten.neg.default"]),
    ("t.fix(x)", ["aten.trunc.default"]),
    ("t.arctan2(x, y)", ["aten.atan2.default"]),
    ("t.subtract(x, y)", ["aten.sub.Tensor"]),
    ("t.multiply(x, y)", ["aten.mul.Tensor"]),
    ("t.divide(x, y)", ["aten.div.Tensor"]),
    ("t.true_divide(x, y)", ["aten.div.Tensor"]),
    ("t.floor_divide(x, y)", ["aten.floor_divide.default"]),
    ("t.greater(x, y)", ["aten.gt.Tensor"]),
    ("t.masked_fill(x, b, 2.)", ["aten.masked_fill.Scalar"]),
    ("t.masked_fill(x, b, z)", ["aten.masked_fill.Tensor"]),
    ("t.round(x, decimals=2)", ["aten.round.decimals"]),
    ("t.nan_to_num(x)", ["aten.nan_to_num.default"]),
    ("t.logit(x)", ["aten.logit.default"]),
    ("xc.add_(y)", ["aten.add_.Tensor"]),
    ("xc.add_(2)", ["aten.add_.Tensor"]),
    ("xc.mul_(2)", ["aten.mul_.Tensor"]),
    ("xc.sub_(y, alpha=2)", ["aten.sub_.Tensor"]),
    ("xc.div_(2)", ["aten.div_.Tensor"]),
    ("xc.pow_(2)", ["aten.pow_.Scalar"]),
    ("xc.clamp_(0, 1)", ["aten.clamp_.default"]),
    ("xc.masked_fill_(b, 1.)", ["aten.masked_fill_.Scalar"]),
    ("xc.sgn_()", ["aten.sgn_.default"]),
    ("xc.square_()", ["aten.pow_.Scalar"]),
    ("ic.__iand__(1)", ["aten.bitwise_and_.Scalar"]),
    ("ic.__ilshift__(1)", ["aten.__ilshift__.Scalar"]),
    ("ic.__irshift__(i)", ["aten.__irshift__.Tensor"]),
    ("ic.__ior__(i)", ["aten.bitwise_or_.Tensor"]),
    ("ic.__imod__(2)", ["aten.remainder_.Scalar"]),
    ("ic.__ifloordiv__(2)", ["aten.floor_divide_.Tensor"]),
    ("xc.__ipow__(2)", ["aten.pow_.Scalar"]),
    ("xc.__itruediv__(2)", ["aten.div_.Tensor"]),
    ("xc.eq_(2)", ["aten.eq_.Scalar"]),
]


class _Log(TorchDispatchMode):
    def __init__(self) -> None:
        super().__init__()
        self.log: list[str] = []

    def __torch_dispatch__(self, func: Any, types: Any, args: Any = (), kwargs: Any = None) -> Any:
        self.log.append(str(func))
        return func(*args, **(kwargs or {}))


@pytest.mark.parametrize("expr,expected", TRACES, ids=[e for e, _ in TRACES])
def test_aten_calls_match_pytorch(expr: str, expected: list[str]) -> None:
    x = t.tensor([0.5, -1.5, 2.0, 3.0])
    y = t.tensor([1.0, 2.0, -0.5, 4.0])  # noqa: E702
    i = t.arange(4)
    b = i > 1
    z = t.tensor(2.0)  # noqa: E702
    xc, ic = x.clone(), i.clone()
    env = {"t": t, "x": x, "y": y, "i": i, "b": b, "z": z, "xc": xc, "ic": ic}
    with _Log() as mode:
        eval(expr, env)  # noqa: S307 - test expressions
    assert mode.log == expected


# ----------------------------------------------------------------------------- operators


def _vals(x: Any) -> list[Any]:
    return x.tolist()


def test_reflected_operators() -> None:
    x = t.tensor([1.0, 2.0, 4.0])
    i = t.tensor([-7, 7, 3])
    assert _vals(2 - x) == [1.0, 0.0, -2.0]
    assert _vals(2 / x) == [2.0, 1.0, 0.5]
    assert _vals(2**x) == [2.0, 4.0, 16.0]
    assert (2 ** i[1:]).dtype is t.int64 and _vals(2 ** i[1:]) == [128, 8]
    assert _vals(i // 2) == [-4, 3, 1]  # floor division, as Python's
    assert _vals(20 // i) == [-3, 2, 6]
    assert _vals(i % 3) == [2, 1, 0]  # the sign of the divisor, as Python's
    assert _vals(-7.5 % x) == [0.5, 0.5, 0.5]
    assert (i / 2).dtype is t.float32 and _vals(i / 2) == [-3.5, 3.5, 1.5]
    assert _vals(1 << t.tensor([0, 3])) == [1, 8]
    assert _vals(-x) == [-1.0, -2.0, -4.0] and _vals(abs(-x)) == [1.0, 2.0, 4.0]


def test_scalar_promotion_keeps_tensor_dtype() -> None:
    h = t.tensor([1.0, 3.0], dtype=t.float16)
    assert (h * 0.1).dtype is t.float16
    assert (t.tensor([1, 2], dtype=t.uint8) + 1000).dtype is t.uint8
    assert (t.tensor([1, 2], dtype=t.int8) * 2.5).dtype is t.float32
    assert (t.tensor([True]) + True).dtype is t.bool_
    assert (t.tensor([1, 2]) + t.tensor(2.5, dtype=t.float64)).dtype is t.float64


def test_half_computes_through_float32() -> None:
    h = t.tensor([1.0, 3.0, 0.3], dtype=t.float16)
    got = (h * 0.1).tolist()
    want = np.array([1.0, 3.0, 0.3], np.float16).astype(np.float32) * np.float32(0.1)
    assert got == want.astype(np.float16).astype(np.float32).tolist()


def test_integer_overflow_wraps() -> None:
    assert _vals(t.tensor([127], dtype=t.int8) + 1) == [-128]
    assert _vals(t.tensor([250], dtype=t.uint8) + 10) == [4]
    assert _vals(t.tensor([-128], dtype=t.int8).abs()) == [-128]
    assert _vals(t.tensor([3], dtype=t.int32) ** 40) == [689956897]  # 3**40 mod 2**32


def test_division_by_zero() -> None:
    i = t.tensor([1, -1, 0])
    assert _vals(i / 0) == [math.inf, -math.inf, pytest.approx(math.nan, nan_ok=True)]
    for fn in (
        lambda: i // 0,
        lambda: i % 0,
        lambda: t.fmod(i, 0),
        lambda: t.div(i, t.zeros(3, dtype=t.int64), rounding_mode="trunc"),
    ):
        with pytest.raises(RuntimeError, match="ZeroDivisionError"):
            fn()
    f = t.tensor([1.0, -1.0, 0.0])
    assert _vals(t.floor_divide(f, 0.0))[:2] == [math.inf, -math.inf]


def test_nan_propagation() -> None:
    x = t.tensor([math.nan, 1.0])
    y = t.tensor([0.0, math.nan])
    assert [math.isnan(v) for v in _vals(t.maximum(x, y))] == [True, True]
    assert [math.isnan(v) for v in _vals(t.minimum(x, y))] == [True, True]
    assert _vals(t.fmax(x, y)) == [0.0, 1.0]
    assert math.isnan(_vals(t.clamp(x, 0, 0.5))[0])
    assert math.isnan(_vals(x.relu())[0])


def test_bool_arithmetic_errors() -> None:
    b = t.tensor([True, False])
    with pytest.raises(RuntimeError, match="Negation, the `-` operator, on a bool tensor"):
        _ = -b
    with pytest.raises(RuntimeError, match="with two bool tensors is not supported"):
        _ = b - b
    with pytest.raises(RuntimeError, match="with a bool tensor is not supported"):
        _ = t.tensor([1, 2]) - True
    assert _vals(b + b) == [True, False] and _vals(b * b) == [True, False]


def test_int_to_negative_int_power() -> None:
    with pytest.raises(RuntimeError, match="Integers to negative integer powers are not allowed"):
        _ = t.tensor([2, 3]) ** -1
    assert _vals(t.tensor([2.0]) ** -1) == [0.5]


def test_inplace_checks_leave_self_unchanged() -> None:
    i = t.tensor([1, 2, 3])
    with pytest.raises(RuntimeError, match="result type Float can't be cast to the desired"):
        i.add_(2.5)
    with pytest.raises(RuntimeError, match="result type Float can't be cast to the desired"):
        i.exp_()
    x = t.zeros(1, 3)
    with pytest.raises(RuntimeError, match=r"output with shape \[1, 3\] doesn't match"):
        x.add_(t.ones(2, 3))
    with pytest.raises(RuntimeError, match=r"output with shape \[1, 3\] doesn't match"):
        x.mul_(t.ones(2, 3))
    assert _vals(i) == [1, 2, 3] and _vals(x) == [[0.0, 0.0, 0.0]]
    y = t.ones(3)
    same = y
    y += t.ones(3)
    y *= 2
    assert y is same and _vals(y) == [4.0, 4.0, 4.0]
    h = t.ones(2, dtype=t.float16)
    h += t.tensor([0.5, 1.0])  # float32 result cast back into float16
    assert h.dtype is t.float16 and _vals(h) == [1.5, 2.0]


def test_comparisons_with_non_numbers() -> None:
    x = t.ones(2)
    assert (x == None) is False  # noqa: E711
    assert (x != None) is True  # noqa: E711
    assert _vals(x == 1) == [True, True]
    assert _vals(2 > x) == [True, True]


# ----------------------------------------------------------------------------- erf

_POINTS = np.concatenate(
    [
        np.linspace(-6.0, 6.0, 2001),
        np.linspace(2.0, 6.0, 801),
        -np.linspace(2.0, 6.0, 801),
        np.geomspace(1e-300, 1e-1, 300),
        -np.geomspace(1e-300, 1e-1, 300),
        np.array([0.0, -0.0, 1.9999999, 2.0, 2.0000001, 26.0, 27.5, 40.0, -40.0]),
    ]
)


def test_own_erf_accuracy() -> None:
    got = cpu_ew._erf_own(_POINTS)
    want = np.array([math.erf(v) for v in _POINTS])
    rel = np.abs(got - want) / np.maximum(np.abs(want), 1e-300)
    assert rel.max() < 4e-16 * 8, (rel.max(), _POINTS[rel.argmax()])
    assert np.all(np.signbit(got[_POINTS == 0]) == np.signbit(_POINTS[_POINTS == 0]))


def test_own_erfc_accuracy() -> None:
    pts = _POINTS[_POINTS < 26.5]  # erfc underflows to 0 beyond 26.55
    got = cpu_ew._erfc_own(pts)
    want = np.array([math.erfc(v) for v in pts])
    rel = np.abs(got - want) / np.maximum(np.abs(want), 1e-300)
    assert rel.max() < 1e-13, (rel.max(), pts[rel.argmax()])


def test_own_erf_special_values() -> None:
    got = cpu_ew._erf_own(np.array([math.inf, -math.inf, math.nan]))
    assert got[0] == 1.0 and got[1] == -1.0 and math.isnan(got[2])
    assert cpu_ew._erfc_own(np.array([math.inf, -math.inf]))[0] == 0.0
    assert cpu_ew._erfc_own(np.array([-math.inf]))[0] == 2.0


@pytest.mark.parametrize("path", ["scipy", "own"])
def test_erf_paths(path: str, monkeypatch: pytest.MonkeyPatch) -> None:
    """keyroute.erf/erfc/gelu through SciPy (when importable) and through the fallback."""
    if path == "scipy":
        pytest.importorskip("scipy.special")
        assert cpu_ew._scipy_erf is not None
    else:
        monkeypatch.setattr(cpu_ew, "_scipy_erf", None)
        monkeypatch.setattr(cpu_ew, "_scipy_erfc", None)
    xs = np.linspace(-5.0, 5.0, 41)
    x64 = t.tensor(xs.tolist(), dtype=t.float64)
    np.testing.assert_allclose(
        t.erf(x64).tolist(), [math.erf(v) for v in xs], rtol=1e-15, atol=1e-16
    )
    np.testing.assert_allclose(
        t.erfc(x64).tolist(), [math.erfc(v) for v in xs], rtol=1e-13, atol=1e-300
    )
    x32 = t.tensor(xs.tolist())
    assert t.erf(x32).dtype is t.float32
    np.testing.assert_allclose(t.erf(x32).tolist(), [math.erf(v) for v in xs], rtol=2e-7, atol=1e-7)
    want = [v * 0.5 * (1 + math.erf(v / math.sqrt(2))) for v in xs]
    gelu = keyroute.ops.aten.gelu.default
    np.testing.assert_allclose(gelu(x64).tolist(), want, rtol=1e-14, atol=1e-15)
    np.testing.assert_allclose(gelu(x32).tolist(), want, rtol=1e-6, atol=2e-6)
    assert t.erf(t.tensor([1, 2])).dtype is t.float32
