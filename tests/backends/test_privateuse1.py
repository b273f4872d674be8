"""PyTorch's PrivateUse1 route (rename_privateuse1_backend, generate_methods_for_privateuse1_
backend, _register_device_module) against PyTorch's recorded behaviour
(tools/record_privateuse1.py), and a renamed backend running on keyroute."""

from __future__ import annotations

import json
import os

import pytest

from ._run import ROOT, facts

RECORDED = json.load(open(os.path.join(ROOT, "tests", "data", "privateuse1.json")))["observed"]


@pytest.mark.parametrize("name", sorted(RECORDED))
def test_same_as_pytorch(name):
    assert facts("privateuse1.py")[name] == RECORDED[name]


def test_renamed_backend_runs():
    running = facts("privateuse1.py")["running"]
    assert running["tensor"] == ["npu:0", True, [2.0, 4.0]]
    assert running["factory"] == "npu:0"
    assert running["module"] == ["npu:0", "npu:0"]  # Module.npu() moved the parameters
    assert running["back"] == ["cpu", [1.0, 2.0]]
