"""poisson's refusals, worded as PyTorch 2.13's (Distributions.cpp): a negative or NaN rate,
a non-floating dtype. The values themselves are in tests/random/cases.py ("poisson")."""

from __future__ import annotations

from typing import Any

import pytest

import keyroute as kr

_RATE = "invalid Poisson rate, expected rate to be non-negative"
_DTYPE = "\"poisson_cpu\" not implemented for '{}'"

# (rates builder, error type, message PyTorch 2.13 gives)
CASES = [
    (lambda M: M.tensor([1.0, -0.5]), RuntimeError, _RATE),
    (lambda M: M.tensor([float("nan")]), RuntimeError, _RATE),
    (lambda M: M.ones(3, dtype=M.int64), NotImplementedError, _DTYPE.format("Long")),
    (lambda M: M.ones(3, dtype=M.bool), NotImplementedError, _DTYPE.format("Bool")),
]


@pytest.mark.parametrize("i", range(len(CASES)))
def test_poisson_errors(i: int) -> None:
    make, exc, msg = CASES[i]
    with pytest.raises(exc) as info:
        kr.poisson(make(kr))
    assert str(info.value).splitlines()[0] == msg


@pytest.mark.parametrize("i", range(len(CASES)))
def test_poisson_errors_are_pytorchs_live(i: int) -> None:
    torch = pytest.importorskip("torch")
    make, exc, msg = CASES[i]
    with pytest.raises(exc) as info:
        torch.poisson(make(torch))
    assert str(info.value).splitlines()[0] == msg


def test_generator_must_be_a_generator() -> None:
    with pytest.raises(TypeError, match="argument 'generator' must be torch.Generator"):
        kr.poisson(kr.ones(2), generator=3)


def test_meta_result_is_contiguous() -> None:
    x = kr.empty(4, 6, device="meta").t()
    y: Any = kr.poisson(x)
    assert y.shape == (6, 4) and y.stride() == (4, 1) and y.device.type == "meta"
