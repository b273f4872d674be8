"""Factory functions against PyTorch's recorded answers (dtype, shape, strides, values of the
deterministic ones, errors, the aten operators a dispatch mode sees), the random factories'
ranges and determinism, the default device, and error atomicity."""

from __future__ import annotations

import sys
import threading

import pytest

import keyroute
from keyroute.utils.python_dispatch import TorchDispatchMode

from . import check_case, recorded, tool

_NO_OUT_OP = (
    "aten has no {op} operator yet: keyroute resizes `out` and fills it in place (same "
    "result, same version count; a dispatch mode sees resize_/fill_ instead)"
)
# id -> (aspects that differ from PyTorch, why)
KNOWN_GAPS: dict[str, tuple[set[str], str]] = {
    **{
        f"{fn}-out{sfx}": ({"ops"}, _NO_OUT_OP.format(op=f"{fn}.out"))
        for fn in ("zeros", "ones", "full")
        for sfx in (
            "",
            "-same",
            "-resize-warn",
            "-dtype-match",
            "-meta",
            "-requires-grad",
            "-noncontig",
            "-view",
        )
    },
    "arange-out": (
        {"ops", "warnings"},
        "aten has no arange.out (arange.start_out is used), "
        "whose rounding-error resize warning keyroute does not give",
    ),
    "arange-out-same": ({"ops"}, "aten has no arange.out: arange.start_out is used"),
    "eye-out": ({"ops"}, "aten has no eye.out: eye.m_out is used"),
    "linspace-tensor": (
        {"ops"},
        "aten has no linspace.Tensor_Tensor: the 0-dim tensors are "
        "read with item() and linspace.default is called",
    ),
}

CASES = recorded()["factories"]


@pytest.mark.parametrize("case", CASES, ids=[c["id"] for c in CASES])
def test_matches_pytorch(case):
    keyroute.manual_seed(0)
    sys.modules[
        "keyroute.tensor.new"
    ]._warned.clear()  # once-per-process warnings: as in a fresh process
    got = tool().run_case(keyroute, TorchDispatchMode, case)
    check_case(case, got, KNOWN_GAPS)


def test_known_gaps_exist():
    assert set(KNOWN_GAPS) <= {c["id"] for c in CASES}


# -- random factories: keyroute's numbers are its own; shapes, ranges and determinism


@pytest.mark.parametrize(
    "make",
    [
        lambda **kw: keyroute.rand(3, 4, **kw),
        lambda **kw: keyroute.randn(5, **kw),
        lambda **kw: keyroute.randint(-3, 9, (50,), **kw),
        lambda **kw: keyroute.randint(7, (20,), **kw),
        lambda **kw: keyroute.randperm(30, **kw),
        lambda **kw: keyroute.rand(2, 2, dtype=keyroute.float64, **kw),
    ],
)
def test_random_factories_are_deterministic(make):
    keyroute.manual_seed(1234)
    a = make().tolist()
    b = make().tolist()
    keyroute.manual_seed(1234)
    assert make().tolist() == a
    assert a != b  # the default generator advanced
    g1 = keyroute.Generator().manual_seed(99)
    g2 = keyroute.Generator().manual_seed(99)
    assert make(generator=g1).tolist() == make(generator=g2).tolist()


def test_random_ranges_and_dtypes():
    keyroute.manual_seed(0)
    r = keyroute.rand(1000)
    assert r.dtype is keyroute.float32 and 0.0 <= min(r.tolist()) and max(r.tolist()) < 1.0
    for dt in (keyroute.float16, keyroute.bfloat16, keyroute.float64):
        v = keyroute.rand(200, dtype=dt)
        assert v.dtype is dt and 0.0 <= min(v.tolist()) and max(v.tolist()) <= 1.0
    n = keyroute.randn(4000, dtype=keyroute.float64).tolist()
    mean = sum(n) / len(n)
    var = sum((x - mean) ** 2 for x in n) / len(n)
    assert abs(mean) < 0.1 and 0.9 < var < 1.1
    i = keyroute.randint(-3, 9, (500,))
    assert i.dtype is keyroute.int64 and set(i.tolist()) == set(range(-3, 9))
    i8 = keyroute.randint(0, 100, (50,), dtype=keyroute.int8)
    assert i8.dtype is keyroute.int8 and all(0 <= x < 100 for x in i8.tolist())
    p = keyroute.randperm(64)
    assert sorted(p.tolist()) == list(range(64)) and p.dtype is keyroute.int64
    assert keyroute.randperm(10, dtype=keyroute.float32).dtype is keyroute.float32


def test_generator_does_not_touch_the_default_generator():
    keyroute.manual_seed(5)
    expected = keyroute.rand(3).tolist()
    keyroute.manual_seed(5)
    keyroute.rand(3, generator=keyroute.Generator().manual_seed(1))
    keyroute.randperm(5, generator=keyroute.Generator())
    assert keyroute.rand(3).tolist() == expected


def test_rng_state_round_trip():
    keyroute.manual_seed(3)
    state = keyroute.get_rng_state()
    a = keyroute.randn(4).tolist()
    keyroute.set_rng_state(state)
    assert keyroute.randn(4).tolist() == a


# -- new tensors start at version 0 (factories run below ADInplaceOrView)


@pytest.mark.parametrize(
    "make",
    [
        lambda: keyroute.ones(3),
        lambda: keyroute.zeros(2, 2),
        lambda: keyroute.full((2,), 7),
        lambda: keyroute.arange(5),
        lambda: keyroute.linspace(0, 1, 4),
        lambda: keyroute.eye(3),
        lambda: keyroute.rand(2),
        lambda: keyroute.randn(2),
        lambda: keyroute.randint(4, (3,)),
        lambda: keyroute.randperm(4),
        lambda: keyroute.scalar_tensor(2),
        lambda: keyroute.tensor([1, 2]),
        lambda: keyroute.ones_like(keyroute.ones(2)),
        lambda: keyroute.full_like(keyroute.ones(2), 3),
        lambda: keyroute.rand_like(keyroute.ones(2)),
        lambda: keyroute.ones(2, requires_grad=True),
    ],
)
def test_fresh_tensors_have_version_zero(make):
    t = make()
    assert t._version == 0
    assert t._base is None


def test_out_write_counts_once():
    out = keyroute.empty(0)
    keyroute.ones(2, 2, out=out)
    assert out._version == 1
    keyroute.zeros(2, 2, out=out)
    assert out._version == 2 and out.tolist() == [[0.0, 0.0], [0.0, 0.0]]


# -- the default device


def test_device_context_nests_and_restores():
    assert keyroute.get_default_device() == keyroute.device("cpu")
    with keyroute.device("meta"):
        assert keyroute.zeros(1).is_meta and keyroute.tensor([1.0]).is_meta
        assert keyroute.get_default_device() == keyroute.device("meta")
        with keyroute.device("cpu"):
            assert not keyroute.zeros(1).is_meta
        assert keyroute.arange(3).is_meta
        # *_like and from_numpy ignore the default device, as in PyTorch.
        assert not keyroute.zeros_like(keyroute.ones(1, device="cpu")).is_meta
    assert not keyroute.zeros(1).is_meta


def test_device_context_is_thread_local():
    seen = []
    with keyroute.device("meta"):
        th = threading.Thread(target=lambda: seen.append(keyroute.zeros(1).device.type))
        th.start()
        th.join()
    assert seen == ["cpu"]


def test_set_default_device_under_with_blocks():
    try:
        keyroute.set_default_device("meta")
        assert keyroute.ones(1).is_meta
        with keyroute.device("cpu"):
            assert not keyroute.ones(1).is_meta
        assert keyroute.ones(1).is_meta
        keyroute.set_default_device("meta")  # replaces, does not stack
        keyroute.set_default_device(None)
        assert not keyroute.ones(1).is_meta
    finally:
        keyroute.set_default_device(None)
    assert keyroute.get_default_device() == keyroute.device("cpu")


# -- error atomicity: a failing creation call changes no thread-local state


def _thread_state():
    from keyroute.dispatcher import tls
    from keyroute.layers.python import mode_stack
    from keyroute.tensor import device as device_mod

    s = tls.state
    return (
        s.include,
        s.exclude,
        s.grad_enabled,
        s.mask,
        dict(s.extra),
        list(device_mod._default_stack()),
        list(mode_stack()),
        keyroute.get_default_dtype(),
        keyroute.is_inference_mode_enabled(),
        keyroute.get_printoptions(),
    )


FAILING = [
    lambda: keyroute.zeros(-1),
    lambda: keyroute.ones(2, dtype="float32"),
    lambda: keyroute.ones(2, dtype=keyroute.int64, requires_grad=True),
    lambda: keyroute.full((2,), 256, dtype=keyroute.uint8),
    lambda: keyroute.full((2,), None),
    lambda: keyroute.arange(1, 5, -1),
    lambda: keyroute.arange(0, 5, 0.5, dtype=keyroute.int64),
    lambda: keyroute.linspace(0, 1, -1),
    lambda: keyroute.eye(-1),
    lambda: keyroute.tensor([[1, 2], [3]]),
    lambda: keyroute.tensor([1, None]),
    lambda: keyroute.tensor([300], dtype=keyroute.int8),
    lambda: keyroute.tensor([1.0], device="foo"),
    lambda: keyroute.randint(3, 3, (2,)),
    lambda: keyroute.randperm(-1),
    lambda: keyroute.empty(2, 3, memory_format=keyroute.channels_last),
    lambda: keyroute.empty_strided((2, 3), (1,)),
    lambda: keyroute.zeros(2, out=keyroute.empty(2, dtype=keyroute.int32), dtype=keyroute.float32),
    lambda: keyroute.zeros_like(3),
    lambda: keyroute.from_numpy([1, 2]),
    lambda: keyroute.rand(2, dtype=keyroute.int64),
    lambda: keyroute.scalar_tensor(1j),
]


@pytest.mark.parametrize("call", FAILING)
def test_failing_creation_leaves_thread_state_unchanged(call):
    before = _thread_state()
    with pytest.raises((RuntimeError, TypeError, ValueError, NotImplementedError)):
        call()
    assert _thread_state() == before


@pytest.mark.parametrize("call", [c for i, c in enumerate(FAILING[:11]) if i not in (3, 9)])
def test_failing_creation_inside_contexts(call):
    # (Not the fill overflow or the ragged list: on meta, as in PyTorch, no value is stored.)
    with keyroute.device("meta"), keyroute.no_grad():
        before = _thread_state()
        with pytest.raises((RuntimeError, TypeError, ValueError, NotImplementedError)):
            call()
        assert _thread_state() == before
