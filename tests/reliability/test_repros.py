"""Every repro of issue 12 on keyroute, against PyTorch's recorded outcome.

The cases are tools/reliability_cases.py; tools/record_reliability.py recorded PyTorch's
outcome of each into tests/data/reliability.json. An error matches when its type and the first
line of its message are PyTorch's; a value matches when its JSON form is PyTorch's. Cases listed
in known_gaps.txt must still differ (strict xfail).
"""

from __future__ import annotations

import json
import os
import re
import sys

import pytest

import keyroute

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(os.path.dirname(HERE))
sys.path.insert(0, os.path.join(ROOT, "tools"))
from record_reliability import run_case  # noqa: E402
from reliability_cases import CASES  # noqa: E402

with open(os.path.join(ROOT, "tests", "data", "reliability.json")) as _f:
    RECORDED = json.load(_f)["cases"]


def load_gaps(path: str) -> dict[str, str]:
    gaps: dict[str, str] = {}
    with open(path) as f:
        for line in f:
            line = line.strip()
            if line and not line.startswith("#"):
                name, _, reason = line.partition(" ")
                gaps[name] = reason.strip()
    return gaps


GAPS = load_gaps(os.path.join(HERE, "known_gaps.txt"))


def normalize(outcome: dict) -> dict:
    """Strip what names PyTorch's C++ sources (not behaviour) from an error message."""
    if "error" in outcome:
        kind, message = outcome["error"]
        message = re.sub(r"^\[enforce fail at [^\]]*\] err == 0\. ", "", message)
        message = message.replace("keyroute.", "torch.")  # Tensor.type() names its module
        return {"error": [kind, message]}
    return outcome


def _params() -> list:
    out = []
    for name in CASES:
        marks = [pytest.mark.xfail(strict=True, reason=GAPS[name])] if name in GAPS else []
        out.append(pytest.param(name, marks=marks, id=name))
    return out


@pytest.mark.parametrize("name", _params())
def test_repro_matches_pytorch(name: str) -> None:
    got = normalize(run_case(keyroute, CASES[name]))
    assert got == normalize(RECORDED[name])


def test_every_case_is_recorded_and_every_gap_is_a_case() -> None:
    assert set(CASES) == set(RECORDED)
    assert set(GAPS) <= set(CASES)


def test_live_pytorch_agrees_with_the_recording() -> None:
    torch = pytest.importorskip("torch")
    if not torch.__version__.startswith("2.13"):
        pytest.skip("recorded with PyTorch 2.13")
    for name in ("overflow/add_2_64", "as_strided/negative_offset", "device/add_meta"):
        assert run_case(torch, CASES[name]) == RECORDED[name]
