"""keyroute's profiler under FakeTensorMode against PyTorch 2.13's recorded event trees
(tests/profiler/fake_calls.py): the calls PyTorch's FakeTensorMode handler dispatches (meta
kernel, FakeTensor wrap, cache-entry rebuild, view decompositions). Calls listed in
fake_calls_known_gaps.txt are asserted to still differ."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from keyroute._subclasses.fake_tensor import FakeTensorMode

import keyroute

from .fake_calls import CASES, record

DATA = json.loads(
    (Path(__file__).resolve().parents[1] / "data" / "profiler_fake_calls.json").read_text()
)["calls"]
GAPS: dict[str, str] = {}
for line in Path(__file__).with_name("fake_calls_known_gaps.txt").read_text().splitlines():
    if line.strip() and not line.startswith("#"):
        key, reason = line.split(" ", 1)
        GAPS[key] = reason
_GOT: dict[str, list[str]] = {}


def _got() -> dict[str, list[str]]:
    if not _GOT:
        _GOT.update(record(keyroute, FakeTensorMode))
    return _GOT


def test_every_call_recorded() -> None:
    assert set(DATA) == set(CASES)
    assert set(GAPS) <= set(CASES)


@pytest.mark.parametrize("name", sorted(CASES))
def test_fake_call_tree_matches(name: str) -> None:
    got, want = _got()[name], DATA[name]
    if name in GAPS:
        assert got != want, f"{name} now matches: remove it from fake_calls_known_gaps.txt"
        return
    assert got == want
