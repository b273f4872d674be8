"""Dispatcher conformance: keyroute against PyTorch 2.13's recorded behaviour.

The scenarios live in ``tests/dispatcher/scenarios.py``; ``tools/record_dispatch.py`` ran them with
``M = torch`` and stored the results in ``tests/data/dispatch_conformance.json``. Here every
recorded scenario is run with ``M = keyroute`` and compared (after the same normalization).

* keyroute is imported lazily, inside the tests, so collection works while it is incomplete.
* Scenarios listed in ``conformance_known_gaps.txt`` are xfail(strict=True): they must still differ.
* Where torch's runtime table was stale, keyroute is expected to follow the computed table
  (``scenarios.keyroute_expectation``).
* ``test_recorded_data_matches_live_torch`` re-runs a sample against torch when it is installed.
"""

from __future__ import annotations

import importlib
import json
import os
import re
from typing import Any

import pytest

from tests.dispatcher import scenarios as S

HERE = os.path.dirname(os.path.abspath(__file__))
DATA_PATH = os.path.join(os.path.dirname(HERE), "data", "dispatch_conformance.json")
GAPS_PATH = os.path.join(HERE, "conformance_known_gaps.txt")
MAX_DATA_BYTES = 5_000_000


def _load_data() -> dict[str, Any]:
    with open(DATA_PATH, encoding="utf-8") as f:
        return json.load(f)


def _load_gaps() -> dict[str, str]:
    gaps: dict[str, str] = {}
    if not os.path.exists(GAPS_PATH):
        return gaps
    with open(GAPS_PATH, encoding="utf-8") as f:
        for raw in f:
            line = raw.strip()
            if not line or line.startswith("#"):
                continue
            name, _, reason = line.partition(" ")
            if "\t" in name:
                name, _, rest = name.partition("\t")
                reason = (rest + " " + reason).strip()
            gaps[name] = reason.strip() or "known gap"
    return gaps


DATA = _load_data()
GAPS = _load_gaps()
RECORDED = list(DATA["scenarios"])
BASELINE = DATA["baseline_table"]


def first_difference(expected: Any, actual: Any, path: str = "$") -> str | None:
    """Human-readable location of the first difference between two JSON values."""
    if type(expected) is not type(actual):
        return f"{path}: expected {_short(expected)}, got {_short(actual)}"
    if isinstance(expected, dict):
        for k in expected:
            if k not in actual:
                return f"{path}: missing key {k!r} (expected {_short(expected[k])})"
            d = first_difference(expected[k], actual[k], f"{path}[{k!r}]")
            if d:
                return d
        for k in actual:
            if k not in expected:
                return f"{path}: unexpected key {k!r} = {_short(actual[k])}"
        return None
    if isinstance(expected, list):
        for i, (a, b) in enumerate(zip(expected, actual)):
            d = first_difference(a, b, f"{path}[{i}]")
            if d:
                return d
        if len(expected) != len(actual):
            extra = expected[len(actual) :] or actual[len(expected) :]
            return (
                f"{path}: expected {len(expected)} items, got {len(actual)} "
                f"(first extra: {_short(extra[0])})"
            )
        return None
    if expected != actual:
        return f"{path}: expected {_short(expected)}, got {_short(actual)}"
    return None


def _short(x: Any, n: int = 300) -> str:
    s = json.dumps(x)
    return s if len(s) <= n else s[:n] + "..."


def _params() -> list[Any]:
    out = []
    for name in RECORDED:
        marks = [pytest.mark.xfail(strict=True, reason=GAPS[name])] if name in GAPS else []
        out.append(pytest.param(name, id=name, marks=marks))
    return out


@pytest.fixture(scope="module")
def keyroute_module() -> Any:
    return importlib.import_module("keyroute")


@pytest.mark.parametrize("name", _params())
def test_conformance(name: str, keyroute_module: Any) -> None:
    expected = S.keyroute_expectation(DATA["scenarios"][name])
    actual = S.normalize(S.SCENARIOS[name](keyroute_module), BASELINE)
    if actual != expected:
        pytest.fail(f"{name}: {first_difference(expected, actual)}", pytrace=False)


# ---------------------------------------------------------------------------------------------
# Consistency of the recorded data (no torch, no keyroute needed)
# ---------------------------------------------------------------------------------------------


def test_recorded_scenarios_match_definitions() -> None:
    missing = [n for n in S.SCENARIOS if n not in DATA["scenarios"]]
    stale = [n for n in DATA["scenarios"] if n not in S.SCENARIOS]
    assert not missing, f"scenarios not recorded (run tools/record_dispatch.py): {missing[:10]}"
    assert not stale, f"recorded scenarios that no longer exist: {stale[:10]}"


def test_known_gaps_name_recorded_scenarios() -> None:
    unknown = [n for n in GAPS if n not in DATA["scenarios"]]
    assert not unknown, f"conformance_known_gaps.txt names unknown scenarios: {unknown}"


def test_scenario_names_and_namespaces() -> None:
    namespaces = set()
    for name in S.SCENARIOS:
        assert not re.search(r"\s", name), name
        ns = S.ns_for(name)
        assert ns.isidentifier(), ns
        namespaces.add(ns)
    assert len(namespaces) == len(S.SCENARIOS)


def test_data_file_is_compact() -> None:
    assert os.path.getsize(DATA_PATH) < MAX_DATA_BYTES


def test_registration_combinations_count() -> None:
    combos = [
        n
        for n in S.SCENARIOS
        if S.group_of(n) in {"table", "fallthrough", "autogradother", "nested", "batched", "combo"}
    ]
    assert len(combos) >= 150


def test_normalization_helpers() -> None:
    txt = (
        "CPU: registered at /a/b/tests/dispatcher/scenarios.py:12 [kernel]"
        ' at "/x/y/K.cpp":3 <string>:4'
    )
    assert S.normalize_text(txt) == "CPU: registered at <user> [kernel] at <builtin> <user>"
    assert (
        S.normalize_text("kr_abc_o1::foo kr_abc::foo", ["kr_abc", "kr_abc_o1"])
        == "<ns>::foo <ns>::foo"
    )
    base = ["A: x", "B: y", "C: z"]
    assert S.table_diff(["A: x", "B: q", "D: q", "E: w"], base) == ["B,D: q", "E: w", "-C"]
    assert S.normalize({"t": {"__table__": ["A: x"]}}, base) == {"t": {"__table_diff__": ["-B,C"]}}
    rec = {"calls": {"cpu": ["CIA"]}, "torch_stale": True, "calls_computed": "same"}
    assert S.keyroute_expectation(rec) == {"calls": "same"}
    assert S.keyroute_expectation({"calls": [], "calls_computed": "x"}) == {"calls": []}


# ---------------------------------------------------------------------------------------------
# The recording is up to date with PyTorch (only where torch is installed)
# ---------------------------------------------------------------------------------------------


def live_sample() -> list[str]:
    """Every non-table scenario, plus every 8th registration-grid scenario."""
    out = []
    table_i = 0
    for name in RECORDED:
        if S.group_of(name) == "table":
            if table_i % 8 == 0:
                out.append(name)
            table_i += 1
        else:
            out.append(name)
    return out


def test_recorded_data_matches_live_torch() -> None:
    torch = pytest.importorskip("torch")
    recorded_version = DATA["torch_version"].split("+")[0]
    if torch.__version__.split("+")[0] != recorded_version:
        pytest.skip(
            f"data recorded with torch {DATA['torch_version']}, installed {torch.__version__}"
        )
    live_baseline = S.normalize(S.SCENARIOS["baseline/empty_op"](torch))["table_full"]
    assert live_baseline == BASELINE, first_difference(BASELINE, live_baseline)
    problems = []
    for name in live_sample():
        live = S.normalize(S.SCENARIOS[name](torch), BASELINE)
        d = first_difference(DATA["scenarios"][name], live)
        if d:
            problems.append(f"{name}: {d}")
    assert not problems, (
        "recorded data is out of date (rerun tools/record_dispatch.py):\n"
        + "\n".join(problems[:20])
    )
