"""Comparison of recorded PyTorch outcomes with keyroute's (shared by tests/layers)."""

from __future__ import annotations

import math
import pathlib
from typing import Any


def close(a: Any, b: Any) -> bool:
    if isinstance(a, list):
        return isinstance(b, list) and len(a) == len(b) and all(close(x, y) for x, y in zip(a, b))
    if isinstance(a, bool) or isinstance(b, bool):
        return a == b
    if isinstance(a, (int, float)) and isinstance(b, (int, float)):
        if math.isnan(a) and math.isnan(b):
            return True
        return math.isclose(a, b, rel_tol=1e-4, abs_tol=1e-5)
    return a == b


def same(expected: Any, got: Any) -> bool:
    if not isinstance(expected, dict) or not isinstance(got, dict):
        return expected == got
    if "tensor" in expected:
        return (
            "tensor" in got
            and expected["shape"] == got["shape"]
            and expected["dtype"] == got["dtype"]
            and close(expected["tensor"], got["tensor"])
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
        return close(expected["value"], got["value"])
    return expected == got


def outcome_matches(expected: dict[str, Any], got: dict[str, Any]) -> bool:
    if expected.get("warnings", []) != got.get("warnings", []):
        return False
    if "error" in expected:
        return got.get("error") == expected["error"] and got.get("msg") == expected["msg"]
    return "result" in got and same(expected["result"], got["result"])


def read_gaps(path: pathlib.Path) -> dict[str, str]:
    gaps = {}
    for line in path.read_text().splitlines():
        if line.strip() and not line.startswith("#"):
            name, _, why = line.partition(" ")
            gaps[name] = why.strip()
    return gaps
