"""Broadcasting of elementwise operators, property-based: random shape pairs against NumPy's
broadcasting (values, shapes), PyTorch's errors for shapes that do not broadcast (against live
PyTorch where it is importable), and in-place forms that may only broadcast the other operand
(a failed one leaves self unchanged)."""

from __future__ import annotations

import numpy as np
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

import keyroute

OPS = {
    "add": (lambda M, a, b: M.add(a, b), np.add),
    "sub": (lambda M, a, b: a - b, np.subtract),
    "mul": (lambda M, a, b: a * b, np.multiply),
    "div": (lambda M, a, b: a / b, np.true_divide),
    "maximum": (lambda M, a, b: M.maximum(a, b), np.maximum),
    "atan2": (lambda M, a, b: M.atan2(a, b), np.arctan2),
    "eq": (lambda M, a, b: a == b, np.equal),
}


@st.composite
def broadcastable_pair(draw: st.DrawFn) -> tuple[tuple[int, ...], tuple[int, ...]]:
    full = draw(st.lists(st.integers(0, 4), min_size=0, max_size=4))

    def derive() -> tuple[int, ...]:
        drop = draw(st.integers(0, len(full)))
        return tuple(1 if draw(st.booleans()) else s for s in full[drop:])

    return derive(), derive()


@st.composite
def mismatched_pair(draw: st.DrawFn) -> tuple[tuple[int, ...], tuple[int, ...]]:
    a = draw(st.lists(st.integers(1, 4), min_size=1, max_size=4))
    b = list(a[draw(st.integers(0, len(a) - 1)) :])
    i = draw(st.integers(0, len(b) - 1))
    b[i] = draw(st.sampled_from([n for n in range(2, 6) if n != a[len(a) - len(b) + i]]))
    if a[len(a) - len(b) + i] == 1:
        a[len(a) - len(b) + i] = 7  # make the pair really mismatch
    return tuple(a), tuple(b)


def _values(rng: np.random.Generator, shape: tuple[int, ...], dtype: str) -> np.ndarray:
    if dtype.startswith("int"):
        return rng.integers(-5, 6, shape).astype(dtype)
    return rng.standard_normal(shape).astype(dtype)


@settings(max_examples=250, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(
    broadcastable_pair(),
    st.sampled_from(sorted(OPS)),
    st.sampled_from(["float32", "float64"]),
    st.integers(0, 2**32 - 1),
)
def test_broadcast_matches_numpy(shapes, op, dtype, seed) -> None:
    rng = np.random.default_rng(seed)
    a, b = (_values(rng, s, dtype) for s in shapes)
    fn, ref = OPS[op]
    got = fn(keyroute, keyroute.from_numpy(a), keyroute.from_numpy(b))
    want = ref(a, b)
    assert tuple(got.shape) == want.shape == np.broadcast_shapes(*shapes)
    np.testing.assert_allclose(got.numpy(), want, rtol=1e-6, atol=1e-7)
    assert got.is_contiguous()  # contiguous inputs give a contiguous result


@settings(max_examples=150, deadline=None)
@given(mismatched_pair(), st.sampled_from(sorted(OPS)))
def test_mismatch_raises_pytorchs_error(shapes, op) -> None:
    with pytest.raises(ValueError):
        np.broadcast_shapes(*shapes)  # the pair really does not broadcast
    fn, _ = OPS[op]
    with pytest.raises(
        RuntimeError,
        match=r"The size of tensor a \(\d+\) must match the size of "
        r"tensor b \(\d+\) at non-singleton dimension \d+",
    ):
        fn(keyroute, keyroute.zeros(*shapes[0]), keyroute.zeros(*shapes[1]))


@settings(max_examples=60, deadline=None)
@given(mismatched_pair(), st.sampled_from(sorted(OPS)))
def test_mismatch_message_equals_live_pytorch(shapes, op) -> None:
    torch = pytest.importorskip("torch")
    fn, _ = OPS[op]
    messages = []
    for M in (torch, keyroute):
        with pytest.raises(RuntimeError) as info:
            fn(M, M.zeros(*shapes[0]), M.zeros(*shapes[1]))
        messages.append(str(info.value).splitlines()[0])
    assert messages[0] == messages[1]


@settings(max_examples=150, deadline=None)
@given(broadcastable_pair(), st.integers(0, 2**32 - 1))
def test_inplace_broadcasts_only_the_other_operand(shapes, seed) -> None:
    rng = np.random.default_rng(seed)
    a, b = (_values(rng, s, "float32") for s in shapes)
    out_shape = np.broadcast_shapes(a.shape, b.shape)
    x = keyroute.from_numpy(a.copy())
    version = x._version
    if out_shape == a.shape:
        x.add_(keyroute.from_numpy(b))
        np.testing.assert_allclose(x.numpy(), a + b, rtol=1e-6)
        assert x._version == version + 1
    else:
        with pytest.raises(
            RuntimeError,
            match=r"output with shape \[.*\] doesn't match the "
            r"broadcast shape \[.*\]",
        ):
            x.add_(keyroute.from_numpy(b))
        np.testing.assert_array_equal(x.numpy(), a)  # unchanged
        assert x._version == version
