"""torch.autograd.graph.GradientEdge / get_gradient_edge / increment_version, as PyTorch 2.13
(behaviour read from torch/autograd/graph.py and checked live when torch is importable)."""

from __future__ import annotations

import pytest

import keyroute as torch


def test_edge_of_leaf_and_non_leaf() -> None:
    x = torch.ones(2, requires_grad=True)
    a, b = torch.ones(2, requires_grad=True).unbind(0)
    e = torch.autograd.graph.get_gradient_edge(x)
    assert type(e.node).__name__ == "AccumulateGrad" and e.output_nr == 0
    e2 = torch.autograd.graph.get_gradient_edge(b)
    assert e2.node is b.grad_fn and e2.output_nr == 1 and e2.ownership_token is None
    assert isinstance(e2, tuple) and e2._fields == ("node", "output_nr", "ownership_token")
    with pytest.raises(RuntimeError, match="It is not possible to get the gradient edge"):
        torch.autograd.graph.get_gradient_edge(torch.ones(1))


def test_increment_version_trips_saved_tensor_check() -> None:
    x = torch.ones(2, requires_grad=True)
    y = x * 1
    z = y * y
    v = y._version
    torch.autograd.graph.increment_version(y)
    assert y._version == v + 1
    torch.autograd.graph.increment_version([y, x])
    assert y._version == v + 2
    with pytest.raises(RuntimeError, match="modified by an inplace operation"):
        z.sum().backward()
    with torch.inference_mode():
        t = torch.ones(1)
    with pytest.raises(RuntimeError, match="Inplace update to inference tensor"):
        torch.autograd.graph.increment_version(t)


def test_live_against_torch() -> None:
    real = pytest.importorskip("torch")
    b = real.ones(2, requires_grad=True).unbind(0)[1]
    e = real.autograd.graph.get_gradient_edge(b)
    assert e.output_nr == 1 and e._fields == ("node", "output_nr", "ownership_token")
    y = real.ones(2, requires_grad=True) * 1
    v = y._version
    real.autograd.graph.increment_version(y)
    assert y._version == v + 1
