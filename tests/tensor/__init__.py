"""Tests of the Tensor type's user-facing surface against PyTorch's recorded answers.

`tests/data/tensor_api.json` is written by `tools/record_tensor_api.py` (with torch); the tests
evaluate the same cases with keyroute through the tool's own evaluation helpers, which import
no torch, so both sides are encoded identically.
"""

from __future__ import annotations

import importlib.util
import json
import math
import os
from functools import cache
from typing import Any

ROOT = os.path.join(os.path.dirname(__file__), "..", "..")
DATA = os.path.join(ROOT, "tests", "data", "tensor_api.json")


@cache
def tool() -> Any:
    """tools/record_tensor_api.py as a module (its helpers: encode, run_case, run_repr)."""
    path = os.path.join(ROOT, "tools", "record_tensor_api.py")
    spec = importlib.util.spec_from_file_location("record_tensor_api", path)
    module = importlib.util.module_from_spec(spec)  # type: ignore[arg-type]
    spec.loader.exec_module(module)  # type: ignore[union-attr]
    return module


@cache
def recorded() -> dict[str, Any]:
    with open(DATA) as f:
        return json.load(f)


# Relative tolerance of recorded float values, per dtype (range factories compute in other
# precisions than PyTorch's vectorised kernels; everything else is exact).
RTOL = {
    "keyroute.float16": 1e-3,
    "keyroute.bfloat16": 1e-2,
    "keyroute.float32": 2e-7,
    "keyroute.complex64": 2e-7,
    "keyroute.float64": 1e-15,
    "keyroute.complex128": 1e-15,
}


def _close(a: Any, b: Any, rtol: float, atol: float) -> bool:
    if a is None or b is None or isinstance(a, str) or isinstance(b, str):
        return a == b
    if math.isinf(a) or math.isinf(b):
        return a == b
    return abs(a - b) <= rtol * max(abs(a), abs(b)) + atol


def _values_close(e: list[Any], g: list[Any], rtol: float) -> bool:
    if len(e) != len(g):
        return False
    finite = [abs(v) for v in e if isinstance(v, float) and not math.isinf(v)]
    # Absolute slack on the tensor's own scale: values near 0 of a float32 range differ by
    # rounding of their neighbours, not of themselves.
    atol = rtol * max(finite, default=0.0)
    return all(_close(x, y, rtol, atol) for x, y in zip(e, g))


def diff(expected: Any, got: Any, path: str = "") -> list[str]:
    """Differences between two encoded results (float tensor values within RTOL)."""
    if isinstance(expected, dict) and isinstance(got, dict):
        if "tensor" in expected and "tensor" in got:
            e, g = expected["tensor"], got["tensor"]
            out = []
            rtol = RTOL.get(e.get("dtype"), 0.0)
            for k in sorted(set(e) | set(g)):
                if k in ("values", "real", "imag") and k in e and k in g and rtol:
                    if not _values_close(e[k], g[k], rtol):
                        out.append(f"{path}.{k}: expected {e[k]}, got {g[k]}")
                elif e.get(k) != g.get(k):
                    out.append(f"{path}.{k}: expected {e.get(k)!r}, got {g.get(k)!r}")
            return out
        out = []
        for k in sorted(set(expected) | set(got)):
            if k not in expected or k not in got:
                out.append(f"{path}.{k}: expected {expected.get(k)!r}, got {got.get(k)!r}")
            else:
                out.extend(diff(expected[k], got[k], f"{path}.{k}"))
        return out
    if isinstance(expected, list) and isinstance(got, list):
        if len(expected) != len(got):
            return [f"{path}: expected {expected!r}, got {got!r}"]
        out = []
        for i, (x, y) in enumerate(zip(expected, got)):
            out.extend(diff(x, y, f"{path}[{i}]"))
        return out
    return [] if expected == got else [f"{path}: expected {expected!r}, got {got!r}"]


def check_case(
    case: dict[str, Any], got: dict[str, Any], gaps: dict[str, tuple[set[str], str]]
) -> None:
    """Assert keyroute's answer equals PyTorch's, except for a known gap's aspects (which
    must still differ, so that a fixed gap is noticed and its entry removed)."""
    expected = dict(case["expected"])
    got = dict(got)
    aspects, reason = gaps.get(case["id"], (set(), ""))
    for aspect in sorted(aspects):
        keys = ("result", "error", "msg") if aspect == "result" else (aspect,)
        e = {k: expected.pop(k, None) for k in keys}
        g = {k: got.pop(k, None) for k in keys}
        assert diff(e, g), f"known gap {case['id']!r} ({aspect}) is fixed: remove it ({reason})"
    problems = diff(expected, got)
    assert not problems, f"{case['id']}: {case['expr']}\n" + "\n".join(problems)
