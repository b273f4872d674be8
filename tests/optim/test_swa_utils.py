"""optim.swa_utils against torch 2.13 (tests/data/swa_utils.json, tools/record_swa_utils.py)."""

from __future__ import annotations

import json
import pathlib

import numpy as np
import pytest

import keyroute as torch
from keyroute.optim import swa_utils

DATA = json.loads(
    (pathlib.Path(__file__).resolve().parent.parent / "data/swa_utils.json").read_text()
)
KINDS = {
    "swa": lambda: {},
    "ema": lambda: {"multi_avg_fn": swa_utils.get_ema_multi_avg_fn(0.9)},
    "ema_fn": lambda: {"avg_fn": swa_utils.get_ema_avg_fn(0.8)},
    "swa_multi": lambda: {"multi_avg_fn": swa_utils.get_swa_multi_avg_fn()},
}


@pytest.mark.parametrize("kind", sorted(KINDS))
def test_averaged_model(kind: str) -> None:
    m = torch.nn.Linear(2, 2, bias=False)
    with torch.no_grad():
        m.weight.copy_(torch.tensor(DATA["init"]))
    avg = swa_utils.AveragedModel(m, **KINDS[kind]())
    for s, want in zip(DATA["steps"], DATA[kind]["weights"]):
        with torch.no_grad():
            m.weight.copy_(torch.tensor(s))
        avg.update_parameters(m)
        np.testing.assert_allclose(avg.module.weight.detach().numpy(), want, rtol=1e-6)
    assert int(avg.n_averaged) == DATA[kind]["n_averaged"]
    assert avg(torch.ones(1, 2)).shape == (1, 2)


@pytest.mark.parametrize("strategy,epochs", [("cos", 3), ("linear", 4), ("cos", 0)])
def test_swalr(strategy: str, epochs: int) -> None:
    p, q = torch.nn.Parameter(torch.zeros(1)), torch.nn.Parameter(torch.zeros(1))
    opt = torch.optim.SGD([{"params": [p]}, {"params": [q], "lr": 0.5}], lr=1.0)
    sched = swa_utils.SWALR(opt, swa_lr=[0.05, 0.1], anneal_epochs=epochs, anneal_strategy=strategy)
    got = []
    for _ in range(6):
        opt.step()
        sched.step()
        got.append([g["lr"] for g in opt.param_groups])
    np.testing.assert_allclose(got, DATA[f"swalr_{strategy}_{epochs}"], rtol=1e-12)


def test_swalr_errors() -> None:
    opt = torch.optim.SGD([torch.nn.Parameter(torch.zeros(1))], lr=1.0)
    with pytest.raises(ValueError, match="anneal_strategy must by one of 'cos' or 'linear'"):
        swa_utils.SWALR(opt, 0.1, anneal_strategy="exp")
    with pytest.raises(ValueError, match="anneal_epochs must be equal or greater than 0"):
        swa_utils.SWALR(opt, 0.1, anneal_epochs=-1)


def test_update_bn() -> None:
    from tests.optim import update_bn_case

    got = update_bn_case.run(torch, DATA["update_bn_data"])
    want = DATA["update_bn"]
    assert got["training"] == want["training"] and got["momenta"] == want["momenta"]
    assert got["plain_training"] == want["plain_training"]
    for name in ("bn1", "bn2"):
        np.testing.assert_allclose(got[name][0], want[name][0], rtol=1e-6, atol=1e-7)
        np.testing.assert_allclose(got[name][1], want[name][1], rtol=1e-6, atol=1e-7)
        assert got[name][2] == want[name][2]
