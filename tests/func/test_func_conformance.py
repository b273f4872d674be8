"""keyroute.func against PyTorch 2.13's recorded outputs and errors for the programs of
tests/func/programs.py (recorded by tools/record_func.py into tests/data/func_programs.json).
Programs listed in known_gaps.txt must still differ (strict)."""

from __future__ import annotations

import json
import math
import pathlib
from typing import Any

import pytest

import keyroute
import keyroute.func  # noqa: F401
import keyroute.nn.functional  # noqa: F401

from .programs import PROGRAMS, run_program

DATA = json.loads(
    (pathlib.Path(__file__).resolve().parents[1] / "data/func_programs.json").read_text()
)["programs"]
GAPS = {
    line.split()[0]
    for line in (pathlib.Path(__file__).with_name("known_gaps.txt")).read_text().splitlines()
    if line.strip() and not line.startswith("#")
}


def _close(a: Any, b: Any) -> bool:
    if isinstance(a, list):
        return isinstance(b, list) and len(a) == len(b) and all(_close(x, y) for x, y in zip(a, b))
    if isinstance(a, float) or isinstance(b, float):
        if math.isnan(a) and math.isnan(b):
            return True
        return math.isclose(a, b, rel_tol=1e-4, abs_tol=1e-5)
    return a == b


def same(expected: dict[str, Any], got: dict[str, Any]) -> bool:
    if "tensor" in expected:
        return (
            "tensor" in got
            and expected["shape"] == got["shape"]
            and expected["dtype"] == got["dtype"]
            and _close(expected["tensor"], got["tensor"])
        )
    if "seq" in expected:
        return (
            "seq" in got
            and expected["kind"] == got["kind"]
            and len(expected["seq"]) == len(got["seq"])
            and all(same(x, y) for x, y in zip(expected["seq"], got["seq"]))
        )
    if "dict" in expected:
        return (
            "dict" in got
            and sorted(expected["dict"]) == sorted(got["dict"])
            and all(same(expected["dict"][k], got["dict"][k]) for k in expected["dict"])
        )
    if "value" in expected and "value" in got:
        return _close(expected["value"], got["value"])
    return expected == got


def outcome_matches(name: str) -> bool:
    expected = DATA[name]
    got = run_program(name, keyroute)
    if "error" in expected:
        return got.get("error") == expected["error"] and got.get("msg") == expected["msg"]
    return "result" in got and same(expected["result"], got["result"])


def test_every_program_is_recorded() -> None:
    assert sorted(DATA) == sorted(PROGRAMS)
    assert GAPS <= set(PROGRAMS)


@pytest.mark.filterwarnings("ignore::UserWarning")
@pytest.mark.parametrize("name", sorted(n for n in PROGRAMS if n not in GAPS))
def test_program_matches_pytorch(name: str) -> None:
    expected = DATA[name]
    got = run_program(name, keyroute)
    if "error" in expected:
        assert got.get("error") == expected["error"], got
        assert got.get("msg") == expected["msg"]
    else:
        assert "result" in got, got
        assert same(expected["result"], got["result"]), (expected["result"], got["result"])


@pytest.mark.filterwarnings("ignore::UserWarning")
@pytest.mark.parametrize("name", sorted(GAPS))
def test_known_gap_still_differs(name: str) -> None:
    assert not outcome_matches(name), f"{name} now matches PyTorch: drop it from known_gaps.txt"
