"""The aten calls a TorchDispatchMode sees in each backward pass of
tests/autograd/backward_calls_programs.py, against PyTorch 2.13's (recorded by
tools/record_backward_calls.py in tests/data/backward_calls.json): the derivative formulas call
PyTorch's dedicated backward operators (gelu_backward, native_layer_norm_backward,
mse_loss_backward, embedding_dense_backward, max_pool2d_with_indices_backward, ...).
Programs that still differ are named in backward_calls_known_gaps.txt; each must still differ."""

from __future__ import annotations

import json
import os

import pytest

import keyroute as kr
from tests.autograd.backward_calls_programs import NAMES, backward_log

HERE = os.path.dirname(__file__)
with open(os.path.join(HERE, "..", "data", "backward_calls.json"), encoding="utf-8") as _f:
    RECORDED = json.load(_f)["logs"]
GAPS = dict(
    line.rstrip("\n").split(" ", 1)
    for line in open(os.path.join(HERE, "backward_calls_known_gaps.txt"), encoding="utf-8")
    if line.strip() and not line.startswith("#")
)


def test_every_program_recorded() -> None:
    assert sorted(RECORDED) == sorted(NAMES)
    assert not set(GAPS) - set(NAMES), "known gaps name unknown programs"


@pytest.mark.parametrize("name", NAMES)
def test_backward_calls_match_pytorch(name: str) -> None:
    got = backward_log(kr, name)
    if name in GAPS:
        assert got != RECORDED[name], f"{name} now matches: remove it from the known gaps"
        pytest.xfail(GAPS[name])
    assert got == RECORDED[name]
