"""binomial's refusals and edge cases, worded as PyTorch 2.13's (Distributions.cpp): a
non-floating count, half dtypes, mismatched dtypes or shapes, a non-Generator generator; a
node PyTorch marks not implemented. The values themselves are in tests/random/cases.py
("binomial")."""

from __future__ import annotations

from typing import Any

import pytest

import keyroute as kr

# (count/prob builder, error type, message PyTorch 2.13 gives)
CASES = [
    (
        lambda M: (M.ones(3, dtype=M.int64), M.full((3,), 0.5)),
        ValueError,
        "binomial only supports floating-point dtypes for count, got: Long",
    ),
    (
        lambda M: (M.ones(3, dtype=M.float16), M.ones(3, dtype=M.float16)),
        NotImplementedError,
        "\"binomial_cpu\" not implemented for 'Half'",
    ),
    (
        lambda M: (M.ones(3), M.ones(3, dtype=M.float64)),
        RuntimeError,
        "Found dtype Double but expected Float",
    ),
    (
        lambda M: (M.ones(3), M.ones(2)),
        RuntimeError,
        "The size of tensor a (3) must match the size of tensor b (2) at non-singleton "
        "dimension 0",
    ),
]


@pytest.mark.parametrize("i", range(len(CASES)))
def test_binomial_errors(i: int) -> None:
    make, exc, msg = CASES[i]
    with pytest.raises(exc) as info:
        kr.binomial(*make(kr))
    assert str(info.value).splitlines()[0] == msg


@pytest.mark.parametrize("i", range(len(CASES)))
def test_binomial_errors_are_pytorchs_live(i: int) -> None:
    torch = pytest.importorskip("torch")
    make, exc, msg = CASES[i]
    with pytest.raises(exc) as info:
        torch.binomial(*make(torch))
    assert str(info.value).splitlines()[0] == msg


def test_generator_must_be_a_generator() -> None:
    with pytest.raises(TypeError, match="argument 'generator' must be torch.Generator"):
        kr.binomial(kr.ones(2), kr.ones(2), generator=3)


def test_node_is_not_implemented() -> None:
    # derivatives.yaml has no binomial entry: PyTorch's NotImplemented node.
    count = (kr.ones(3) * 4).requires_grad_()
    y: Any = kr.binomial(count, kr.full((3,), 0.5))
    assert y.requires_grad and type(y.grad_fn).__name__ == "NotImplemented"


def test_meta_result() -> None:
    y: Any = kr.binomial(kr.empty(4, 6, device="meta").t(), kr.empty(6, 4, device="meta"))
    assert y.shape == (6, 4) and y.stride() == (4, 1) and y.device.type == "meta"
