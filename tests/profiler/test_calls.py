"""keyroute's profiler event trees for single operator calls against PyTorch 2.13's recorded
ones (tests/profiler/calls.py): the operators each kernel calls through the dispatcher, nested
as PyTorch's. Calls listed in calls_known_gaps.txt are asserted to still differ."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

import keyroute

from .calls import CASES, record

DATA = json.loads(
    (Path(__file__).resolve().parents[1] / "data" / "profiler_calls.json").read_text()
)["calls"]
GAPS: dict[str, str] = {}
for line in Path(__file__).with_name("calls_known_gaps.txt").read_text().splitlines():
    if line.strip() and not line.startswith("#"):
        key, reason = line.split(" ", 1)
        GAPS[key] = reason
_GOT: dict[str, list[str]] = {}


def _got() -> dict[str, list[str]]:
    if not _GOT:
        _GOT.update(record(keyroute))
    return _GOT


def test_every_call_recorded() -> None:
    assert set(DATA) == set(CASES)
    assert set(GAPS) <= set(CASES)


@pytest.mark.parametrize("name", sorted(CASES))
def test_call_tree_matches(name: str) -> None:
    got, want = _got()[name], DATA[name]
    if name in GAPS:
        assert got != want, f"{name} now matches: remove it from calls_known_gaps.txt"
        return
    assert got == want
