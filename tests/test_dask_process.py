"""tests/dask in a pytest process of its own (see collect_ignore in tests/conftest.py): the dask
backend's registration is process-wide and would change the dispatcher state other tests
compare with PyTorch's. This test fails, with the child's report, if any dask test fails."""

from __future__ import annotations

import os
import pathlib
import subprocess
import sys

import pytest

ROOT = pathlib.Path(__file__).resolve().parents[1]


def test_dask_suite_in_its_own_process() -> None:
    pytest.importorskip("dask", reason="the dask extra is not installed")
    pytest.importorskip("distributed", reason="the dask extra is not installed")
    env = dict(os.environ, KEYROUTE_TEST_DASK="1")
    env["PYTHONPATH"] = os.pathsep.join(filter(None, [str(ROOT), env.get("PYTHONPATH", "")]))
    proc = subprocess.run(
        [sys.executable, "-m", "pytest", "-p", "no:cacheprovider", "-q", "-rfE", "tests/dask"],
        cwd=ROOT,
        env=env,
        capture_output=True,
        text=True,
        timeout=3000,
    )
    assert proc.returncode == 0, proc.stdout[-6000:] + proc.stderr[-2000:]
    assert "[100%]" in proc.stdout, proc.stdout[-2000:]  # tests ran (not all skipped away)
