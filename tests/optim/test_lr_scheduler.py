"""torch.optim.lr_scheduler against PyTorch 2.13 (recorded by tools/record_lr_schedulers.py
from tests/optim/scheduler_cases.py): every group's rate and momentum after each step,
get_last_lr(), the warnings (call order, get_lr outside step, the epoch argument) and the
state_dict, exactly; plus argument errors worded as PyTorch's."""

from __future__ import annotations

import json
import pathlib

import pytest

import keyroute as kr
from tests.optim.scheduler_cases import CASES, run

DATA = json.loads((pathlib.Path(__file__).parents[1] / "data" / "lr_schedulers.json").read_text())[
    "cases"
]


def test_every_case_recorded() -> None:
    assert sorted(DATA) == sorted(CASES)


@pytest.mark.parametrize("name", CASES)
def test_scheduler_matches_pytorch(name: str) -> None:
    got = json.loads(json.dumps(run(kr, name)))
    exp = DATA[name]
    assert got["lrs"] == exp["lrs"]
    assert got["last"] == exp["last"]
    assert got["warnings"] == exp["warnings"]
    assert got["state_keys"] == exp["state_keys"]
    assert got["state"] == exp["state"]
    assert got.get("get_lr") == exp.get("get_lr")


def _opt() -> kr.optim.SGD:
    return kr.optim.SGD([kr.nn.Parameter(kr.ones(2))], lr=0.1)


@pytest.mark.parametrize(
    "make, message",
    [
        (lambda o: kr.optim.lr_scheduler.StepLR(object(), 1), "object is not an Optimizer"),
        (
            lambda o: kr.optim.lr_scheduler.ConstantLR(o, factor=2.0),
            "Constant multiplicative factor expected to be between 0 and 1.",
        ),
        (
            lambda o: kr.optim.lr_scheduler.LambdaLR(o, [lambda e: 1, lambda e: 2]),
            "Expected 1 lr_lambdas, but got 2",
        ),
        (lambda o: kr.optim.lr_scheduler.ReduceLROnPlateau(o, factor=1.0), "Factor should be"),
        (lambda o: kr.optim.lr_scheduler.ReduceLROnPlateau(o, mode="up"), "mode up is unknown!"),
        (
            lambda o: kr.optim.lr_scheduler.CosineAnnealingWarmRestarts(o, T_0=0),
            "Expected positive integer T_0, but got 0",
        ),
        (
            lambda o: kr.optim.lr_scheduler.OneCycleLR(o, 0.1),
            "You must define either total_steps OR",
        ),
        (
            lambda o: kr.optim.lr_scheduler.CyclicLR(o, 0.01, 0.1, mode="sawtooth"),
            "mode is invalid and scale_fn is None",
        ),
        (
            lambda o: kr.optim.lr_scheduler.SequentialLR(o, [], []),
            "SequentialLR expects at least one scheduler, but got no scheduler.",
        ),
        (
            lambda o: kr.optim.lr_scheduler.StepLR(o, 1, last_epoch=3),
            "param 'initial_lr' is not specified in param_groups\\[0\\]",
        ),
    ],
)
def test_bad_arguments_raise_pytorchs_errors(make: object, message: str) -> None:
    with pytest.raises((ValueError, TypeError, KeyError), match=message):
        make(_opt())  # type: ignore[operator]


def test_onecycle_past_total_steps_raises() -> None:
    opt = _opt()
    s = kr.optim.lr_scheduler.OneCycleLR(opt, 0.1, total_steps=2)
    opt.step()
    s.step()
    s.step()
    with pytest.raises(ValueError, match="Tried to step 3 times. The specified number of total"):
        s.step()


def test_state_dict_round_trip() -> None:
    opt = _opt()
    s = kr.optim.lr_scheduler.StepLR(opt, step_size=2, gamma=0.5)
    for _ in range(3):
        opt.step()
        s.step()
    opt2 = _opt()
    s2 = kr.optim.lr_scheduler.StepLR(opt2, step_size=7)
    s2.load_state_dict(s.state_dict())
    assert (s2.last_epoch, s2.step_size, s2.gamma) == (3, 2, 0.5)
