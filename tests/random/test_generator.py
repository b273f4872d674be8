"""Generator objects, seeds and states: PyTorch's behaviour, its error messages, and bad input
leaving the state unchanged."""

from __future__ import annotations

import copy
import pickle

import numpy as np
import pytest

import keyroute as kr


def _same(a: kr.Tensor, b: kr.Tensor) -> bool:
    return a.numpy().tobytes() == b.numpy().tobytes()


def test_state_is_pytorchs_layout() -> None:
    g = kr.Generator().manual_seed(5)
    s = g.get_state()
    assert s.dtype is kr.uint8 and list(s.shape) == [5056]
    raw = s.numpy().tobytes()
    assert int.from_bytes(raw[:8], "little") == 5  # the_initial_seed
    assert int.from_bytes(raw[8:12], "little") == 1  # left
    assert int.from_bytes(raw[12:16], "little") == 1  # seeded
    assert int.from_bytes(raw[24:32], "little") == 5  # state[0] = seed & 0xffffffff


def test_new_generator_has_pytorchs_default_seed() -> None:
    assert kr.Generator().initial_seed() == 67280421310721
    assert kr.Generator(device="cpu").device.type == "cpu"


@pytest.mark.parametrize("seed, want", [(-1, 2**64 - 1), (2**64 - 1, 2**64 - 1), (7.9, 7)])
def test_seed_unpacking(seed: object, want: int) -> None:
    assert kr.Generator().manual_seed(seed).initial_seed() == want


@pytest.mark.parametrize("seed", [2**64, -(2**63) - 1])
def test_seed_overflow(seed: int) -> None:
    g = kr.Generator().manual_seed(3)
    before = g.get_state()
    with pytest.raises(ValueError, match="Overflow when unpacking long long"):
        g.manual_seed(seed)
    assert _same(g.get_state(), before)


def test_set_state_errors_leave_state_unchanged() -> None:
    g = kr.Generator().manual_seed(4)
    kr.rand(3, generator=g)
    before = g.get_state()
    with pytest.raises(
        RuntimeError,
        match="Expected a CPUGeneratorImplState of size 5056 but found the input RNG state size "
        "to be 10",
    ):
        g.set_state(kr.zeros(10, dtype=kr.uint8))
    with pytest.raises(TypeError, match="RNG state must be a torch.ByteTensor"):
        kr.set_rng_state(kr.zeros(5056))
    bad = before.clone()
    bad[8:12] = 0  # left = 0: not a valid mt19937 state
    with pytest.raises(RuntimeError, match="Invalid mt19937 state"):
        g.set_state(bad)
    assert _same(g.get_state(), before)


def test_seed_is_random_and_reported() -> None:
    g = kr.Generator()
    s = g.seed()
    assert g.initial_seed() == s and 0 <= s < 2**53
    assert kr.seed() == kr.initial_seed()


def test_copy_and_pickle_keep_the_stream() -> None:
    g = kr.Generator().manual_seed(12)
    kr.randn(3, generator=g)
    h = copy.deepcopy(g)
    p = pickle.loads(pickle.dumps(g))
    a, b, c = (kr.randn(5, generator=x) for x in (g, h, p))
    assert _same(a, b) and _same(a, c)


def test_fork_rng_restores() -> None:
    kr.manual_seed(1)
    with kr.random.fork_rng():
        kr.rand(10)
    after = kr.rand(3)
    kr.manual_seed(1)
    assert _same(after, kr.rand(3))
    kr.manual_seed(1)
    with kr.random.fork_rng(enabled=False):
        inside = kr.rand(1)  # not forked: the draw advances the default generator
    kr.manual_seed(1)
    assert _same(inside, kr.rand(1))


def test_state_moves_between_pytorch_and_keyroute_live() -> None:
    torch = pytest.importorskip("torch")
    torch.manual_seed(3)
    torch.randn(5)  # leaves a cached normal sample in the state
    st = torch.get_rng_state()
    kr.set_rng_state(kr.tensor(st.numpy()))
    assert np.array_equal(kr.randn(7).numpy(), torch.randn(7).numpy())
    ks = kr.get_rng_state()
    assert ks.numpy().tobytes() == torch.get_rng_state().numpy().tobytes()
    torch.set_rng_state(torch.from_numpy(ks.numpy().copy()))
    assert np.array_equal(kr.rand(4).numpy(), torch.rand(4).numpy())


def test_generator_argument_type_error() -> None:
    with pytest.raises(TypeError):
        kr.bernoulli(kr.rand(2), generator=3)
