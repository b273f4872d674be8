"""Bad-input probes per operator family, driven from the operator tables (issue 12).

tools/probe_cases.py lists, for every operator of each family table (unary, binary,
reductions), the probes: wrong dtype, out-of-range dim, device mix, out= of the wrong dtype or
overlapping an input, empty and 0-d inputs. Each outcome holds the error (type and first line)
or the result, and the inputs after the call, so a failed op must leave its inputs unchanged.
PyTorch's outcomes are recorded in tests/data/probes.json (tools/record_probes.py). Probes in
probe_known_gaps.txt must still differ (strict xfail).
"""

from __future__ import annotations

import json
import math
import os
import sys

import pytest

import keyroute

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(os.path.dirname(HERE))
sys.path.insert(0, os.path.join(ROOT, "tools"))
from probe_cases import probes  # noqa: E402
from record_probes import run_probe  # noqa: E402

from tests.reliability.test_repros import load_gaps  # noqa: E402

with open(os.path.join(ROOT, "tests", "data", "probes.json")) as _f:
    RECORDED = json.load(_f)["cases"]
PROBES = probes()
GAPS = load_gaps(os.path.join(HERE, "probe_known_gaps.txt"))


def same(a: object, b: object) -> bool:
    """Equal outcomes: floats to 1e-6 relative (libm ulps), strings with keyroute's module
    name read as torch's (Tensor.type(), dtype names)."""
    if isinstance(a, str) and isinstance(b, str):
        return a.replace("keyroute.", "torch.") == b.replace("keyroute.", "torch.")
    if isinstance(a, float) and isinstance(b, float):
        return a == b or math.isclose(a, b, rel_tol=1e-6, abs_tol=1e-7)
    if isinstance(a, list) and isinstance(b, list):
        return len(a) == len(b) and all(same(x, y) for x, y in zip(a, b))
    if isinstance(a, dict) and isinstance(b, dict):
        return a.keys() == b.keys() and all(same(a[k], b[k]) for k in a)
    return type(a) is type(b) and a == b


def _params() -> list:
    out = []
    for name in PROBES:
        marks = [pytest.mark.xfail(strict=True, reason=GAPS[name])] if name in GAPS else []
        out.append(pytest.param(name, marks=marks, id=name))
    return out


@pytest.mark.parametrize("name", _params())
def test_probe_matches_pytorch(name: str) -> None:
    op, src = PROBES[name]
    got = run_probe(keyroute, op, src)
    assert same(got, RECORDED[name]), f"keyroute {got}\n  torch {RECORDED[name]}"


def test_every_probe_is_recorded_and_every_gap_is_a_probe() -> None:
    assert set(PROBES) == set(RECORDED)
    assert set(GAPS) <= set(PROBES)
