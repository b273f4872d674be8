"""Compiled graphs on cuda tensors (keyroute/_inductor/cuda_graph.py) with NumPy as the cuda
backend's array module and the NumPy stand-in for CuPy's kernels, in a fresh process (the
backend's registration is process-wide): numpy_cuda_compile_script.py."""

from __future__ import annotations

import os
import subprocess
import sys

ROOT = os.path.abspath(os.path.join(os.path.dirname(__file__), "..", ".."))


def test_compiled_graph_on_cuda_runs_fused_kernels():
    done = subprocess.run(
        [sys.executable, os.path.join(os.path.dirname(__file__), "numpy_cuda_compile_script.py")],
        capture_output=True,
        text=True,
        env=dict(os.environ, PYTHONPATH=ROOT),
        timeout=600,
    )
    assert done.returncode == 0, done.stderr[-3000:]
    assert done.stdout.splitlines()[-1] == "ok"
