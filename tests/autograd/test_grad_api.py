"""torch.autograd.grad's Python surface equals PyTorch 2.13's (recorded by
tools/record_autograd_grad_api.py from tests/autograd/grad_api_cases.py): __torch_function__
handling (a mode sees one `grad` call; subclass inputs/outputs get subclass gradients),
GradientEdge inputs and outputs, dict inputs, argument errors."""

from __future__ import annotations

import json
import pathlib

import pytest

import keyroute as kr
from tests.autograd.grad_api_cases import PROGRAMS, run

RECORDED = json.loads(
    (pathlib.Path(__file__).parents[1] / "data" / "autograd_grad_api.json").read_text()
)["programs"]


def test_recording_covers_programs() -> None:
    assert sorted(RECORDED) == sorted(PROGRAMS), "run tools/record_autograd_grad_api.py"


@pytest.mark.parametrize("name", sorted(PROGRAMS))
def test_grad_api_matches_pytorch(name: str) -> None:
    got = run(name, kr)
    if "error" in got:  # dtypes print under the module's name
        got["error"] = got["error"].replace("keyroute.", "torch.")
    assert got == RECORDED[name]


def test_handmade_edge_without_shape_refuses_implicit_grad() -> None:
    # An edge not made by get_gradient_edge: keyroute's nodes do not keep the shape of the
    # gradient entering them, so an implicit gradient cannot be made (PyTorch reads it from
    # the node's input metadata); an explicit one works.
    x = kr.tensor([1.0, 2.0], requires_grad=True)
    y = (x * x).sum()
    edge = kr.autograd.graph.GradientEdge(y.grad_fn, 0)
    with pytest.raises(RuntimeError, match="implicitly created only for scalar outputs"):
        kr.autograd.grad(edge, x)
    (g,) = kr.autograd.grad(edge, x, kr.tensor(1.0))
    assert g.tolist() == [2.0, 4.0]
