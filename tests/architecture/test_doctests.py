"""The docstring examples (`>>>`) of every keyroute module run, as doctests."""

from __future__ import annotations

import doctest
import importlib
import os
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
GAPS = {
    line.split(" ", 1)[0]: line.split(" ", 1)[1]
    for line in Path(__file__).with_name("doctest_known_gaps.txt").read_text().splitlines()
    if line.strip() and not line.startswith("#")
}


def _modules() -> list[str]:
    out = []
    for path in sorted((ROOT / "keyroute").rglob("*.py")):
        if ">>>" in path.read_text(encoding="utf-8"):
            parts = path.relative_to(ROOT).with_suffix("").parts
            out.append(".".join(parts).removesuffix(".__init__"))
    return out


# Importing these registers a backend for the whole process (as an out-of-tree PyTorch backend
# does), which changes the dispatcher tables other tests compare with PyTorch's: their examples
# run in a child process.
_OWN_PROCESS = ("keyroute.dask",)


def _run_in_child(name: str) -> doctest.TestResults:
    code = (
        "import doctest, importlib, keyroute\n"
        f"m = importlib.import_module({name!r})\n"
        "r = doctest.testmod(m, optionflags=doctest.ELLIPSIS | doctest.NORMALIZE_WHITESPACE,"
        " report=False)\n"
        "print(r.failed, r.attempted)\n"
    )
    env = dict(
        os.environ,
        PYTHONPATH=os.pathsep.join(filter(None, [str(ROOT), os.environ.get("PYTHONPATH", "")])),
    )
    out = subprocess.run(
        [sys.executable, "-c", code], cwd=ROOT, env=env, capture_output=True, text=True, timeout=600
    )
    assert out.returncode == 0, out.stderr[-3000:]
    failed, attempted = map(int, out.stdout.split()[-2:])
    return doctest.TestResults(failed, attempted)


def _run(name: str) -> doctest.TestResults:
    if name.startswith(_OWN_PROCESS):
        return _run_in_child(name)
    importlib.import_module("keyroute")
    module = importlib.import_module(name)
    flags = doctest.ELLIPSIS | doctest.NORMALIZE_WHITESPACE
    return doctest.testmod(module, optionflags=flags, report=False)


def test_modules_have_examples():
    assert len(_modules()) > 30


@pytest.mark.parametrize("name", _modules())
def test_docstring_examples(name: str) -> None:
    result = _run(name)
    if name in GAPS:
        assert result.failed, f"{name}'s examples pass now: remove it from doctest_known_gaps.txt"
    else:
        assert result.failed == 0, f"{result.failed} of {result.attempted} examples fail in {name}"
