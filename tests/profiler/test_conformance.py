"""keyroute's profiler against torch.profiler's recorded tables (names and call counts)."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

import keyroute
import keyroute.utils._python_dispatch  # noqa: F401  (the dispatch-mode programs' base class)

from .programs import programs, run

DATA = json.loads(
    (Path(__file__).resolve().parents[1] / "data" / "profiler_tables.json").read_text()
)["programs"]
GAPS: dict[str, str] = {}
for line in (Path(__file__).with_name("known_gaps.txt")).read_text().splitlines():
    if line.strip() and not line.startswith("#"):
        key, reason = line.split(" ", 1)
        GAPS[key] = reason
LEVELS = ("top", "edges", "all")
_RESULTS: dict[str, dict] = {}


def _result(name: str) -> dict:
    if name not in _RESULTS:
        _RESULTS[name] = run(programs()[name], keyroute)
    return _RESULTS[name]


def test_every_program_recorded() -> None:
    assert set(DATA) == set(programs())
    assert len(DATA) >= 10
    unknown = {k.split(":")[0] for k in GAPS} - set(DATA)
    assert not unknown, f"known gaps name programs that do not exist: {unknown}"


@pytest.mark.parametrize("level", LEVELS)
@pytest.mark.parametrize("name", sorted(programs()))
def test_table_matches(name: str, level: str) -> None:
    got = _result(name)[level]
    want = DATA[name][level]
    gap = GAPS.get(f"{name}:{level}")
    if gap is not None:
        assert got != want, f"{name}:{level} now matches: remove it from known_gaps.txt"
        return
    diff = {k: (want.get(k, 0), got.get(k, 0)) for k in set(want) | set(got)}
    diff = {k: v for k, v in diff.items() if v[0] != v[1]}
    assert not diff, f"(PyTorch, keyroute) counts differ: {diff}"
