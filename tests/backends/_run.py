"""Run a scenario script in a process of its own and read the facts it prints as JSON.

Run-time keys and backends live for the whole process (dispatcher/open_keys.py Note [run-time
key rules]), so every scenario that registers one runs apart from the rest of the suite."""

from __future__ import annotations

import functools
import json
import os
import subprocess
import sys
from typing import Any

ROOT = os.path.abspath(os.path.join(os.path.dirname(__file__), "..", ".."))


@functools.cache
def facts(name: str) -> dict[str, Any]:
    env = dict(os.environ, PYTHONPATH=ROOT)
    done = subprocess.run(
        [sys.executable, os.path.join(os.path.dirname(__file__), "scenarios", name)],
        capture_output=True,
        text=True,
        env=env,
        timeout=600,
    )
    assert done.returncode == 0, done.stderr[-4000:]
    return json.loads(done.stdout.splitlines()[-1])
