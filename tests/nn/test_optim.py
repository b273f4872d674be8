"""Optimizers follow PyTorch's update rules: parameters after each step equal recorded ones."""

from __future__ import annotations

import json
import os

import numpy as np
import pytest

import keyroute as kr
from tests.nn.optim_cases import CASES, run

DATA = os.path.join(os.path.dirname(__file__), "..", "data", "optim_steps.json")


@pytest.mark.parametrize("name", sorted(CASES))
def test_optimizer_steps_match_pytorch(name: str) -> None:
    recorded = json.load(open(DATA))["cases"][name]
    got = run(kr, name)
    for step, (exp, res) in enumerate(zip(recorded, got)):
        for e, r in zip(exp, res):
            np.testing.assert_allclose(r, e, rtol=1e-5, atol=1e-6, err_msg=f"{name} step {step}")


def test_zero_grad_and_state_dict() -> None:
    p = kr.nn.Parameter(kr.ones(3))
    opt = kr.optim.Adam([p], lr=0.1)
    p.grad = kr.ones(3)
    opt.step()
    sd = opt.state_dict()
    assert sd["param_groups"][0]["params"] == [0] and "exp_avg" in sd["state"][0]
    opt.zero_grad()
    assert p.grad is None
    p.grad = kr.ones(3)
    opt.zero_grad(set_to_none=False)
    assert p.grad.tolist() == [0.0, 0.0, 0.0]
    opt2 = kr.optim.Adam([kr.nn.Parameter(kr.ones(3))], lr=0.1)
    opt2.load_state_dict(sd)
    assert opt2.state_dict()["state"][0]["step"].item() == 1.0


def test_optimizer_errors() -> None:
    with pytest.raises(ValueError, match="optimizer got an empty parameter list"):
        kr.optim.SGD([], lr=0.1)
    with pytest.raises(ValueError, match="Invalid learning rate"):
        kr.optim.Adam([kr.nn.Parameter(kr.ones(1))], lr=-1)
    with pytest.raises(
        ValueError, match="Nesterov momentum requires a momentum and zero dampening"
    ):
        kr.optim.SGD([kr.nn.Parameter(kr.ones(1))], lr=0.1, nesterov=True)
