"""With PyTorch installed: the stored recordings are what PyTorch says today
(tools/record_extension.py --check re-runs every case with torch and compares)."""

from __future__ import annotations

import os
import subprocess
import sys

import pytest

ROOT = os.path.join(os.path.dirname(__file__), "..", "..")


def test_recordings_match_live_pytorch() -> None:
    pytest.importorskip("torch")
    result = subprocess.run(
        [sys.executable, os.path.join(ROOT, "tools", "record_extension.py"), "--check"],
        capture_output=True,
        text=True,
        timeout=600,
        cwd=ROOT,
    )
    assert result.returncode == 0, result.stdout + result.stderr[-2000:]
