"""The docstring examples (`>>>`) of every keyroute module run, as doctests."""

from __future__ import annotations

import doctest
import importlib
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


def _run(name: str) -> doctest.TestResults:
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
