"""The random operators' autograd: PyTorch's node names, zero gradients for every input (their
results do not depend on the inputs' values), and gradgradcheck's draws from the default
generator (make_tensor's uniform_(-1, 1) per output, as PyTorch's)."""

from __future__ import annotations

from typing import Any

import numpy as np
import pytest

import keyroute as kr

# (expression building the result from leaves a, b, the node name PyTorch 2.13 gives)
CASES = [
    ("kr.bernoulli(a.sigmoid())", "BernoulliBackward0"),
    ("kr.normal(a, 1.0)", "NormalBackward1"),
    ("kr.normal(0.0, b)", "NormalBackward2"),
    ("kr.normal(a, b)", "NormalBackward3"),
    ("(a * 1).exponential_()", "ExponentialBackward0"),
    ("(a * 1).cauchy_()", "CauchyBackward0"),
    ("(a * 1).log_normal_()", "LogNormalBackward0"),
    ("(a * 1).geometric_(0.5)", "GeometricBackward0"),
    ("(a * 1).random_()", "RandomBackward2"),
    ("(a * 1).bernoulli_(b.sigmoid())", "BernoulliBackward1"),
    ("kr.poisson(a)", "PoissonBackward0"),
]


def _leaves(M: Any) -> tuple[Any, Any]:  # noqa: N803
    a = M.linspace(0.5, 2.0, 6).requires_grad_(True)
    b = M.full((6,), 0.5).requires_grad_(True)
    return a, b


@pytest.mark.parametrize("expr, node", CASES)
def test_node_name_and_zero_gradients(expr: str, node: str) -> None:
    a, b = _leaves(kr)
    y = eval(expr, {"kr": kr, "a": a, "b": b})
    assert type(y.grad_fn).__name__ == node
    y.sum().backward()
    for leaf in (a, b):
        if leaf.grad is not None:
            assert not leaf.grad.numpy().any()


@pytest.mark.parametrize("expr, node", CASES)
def test_node_names_are_pytorchs_live(expr: str, node: str) -> None:
    torch = pytest.importorskip("torch")
    a, b = _leaves(torch)
    y = eval(expr, {"kr": torch, "a": a, "b": b})
    assert type(y.grad_fn).__name__ == node


def test_multinomial_is_not_differentiable() -> None:
    p = kr.full((5,), 0.2).requires_grad_(True)
    out = kr.multinomial(p, 3)
    assert not out.requires_grad and out.grad_fn is None


def test_gradgradcheck_draws_from_the_default_generator() -> None:
    # PyTorch's gradgradcheck makes its grad_outputs with make_tensor(low=-1, high=1): one
    # uniform_(-1, 1) per output from the default generator. So the generator moves by exactly
    # that many draws (a float64 output of 3 elements: 3 64-bit draws).
    x = kr.tensor([0.3, -0.2, 0.9], dtype=kr.float64, requires_grad=True)
    kr.manual_seed(8)
    assert kr.autograd.gradgradcheck(lambda t: (t * t).sin(), (x,))
    after = kr.rand(2, dtype=kr.float64)
    kr.manual_seed(8)
    kr.empty(3, dtype=kr.float64).uniform_(-1, 1)
    assert np.array_equal(after.numpy(), kr.rand(2, dtype=kr.float64).numpy())


def test_gradgradcheck_draws_match_pytorch_live() -> None:
    torch = pytest.importorskip("torch")
    got = []
    for M in (torch, kr):  # noqa: N806
        x = M.tensor([0.3, -0.2, 0.9], dtype=M.float64, requires_grad=True)
        M.manual_seed(8)
        assert M.autograd.gradgradcheck(lambda t: (t * t).sin(), (x,))
        got.append(M.rand(2, dtype=M.float64).numpy())
    assert np.array_equal(got[0], got[1])
