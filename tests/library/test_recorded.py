"""Custom operators against PyTorch 2.13: every case of tests/library/cases.py run with keyroute
matches what tools/record_extension.py recorded from torch (tests/data/extension_library.json).

Cases listed in tests/library/known_gaps.txt must still differ (fixing one removes its line).
"""

from __future__ import annotations

import json
import os
import warnings

import pytest

import keyroute
from tests.recorded_compare import known_gaps, mismatch, recorded

from .cases import CASES

RECORDED = recorded("library")
GAPS = known_gaps(os.path.join(os.path.dirname(__file__), "known_gaps.txt"))


def run(name: str) -> object:
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        try:
            result = CASES[name](keyroute)
        except Exception as e:  # noqa: BLE001 - recorded the same way as the recorder does
            return {"__case_error__": f"{type(e).__name__}: {e}"}
    return json.loads(json.dumps(result))


def test_every_case_is_recorded() -> None:
    assert sorted(CASES) == sorted(RECORDED)
    assert {g for g in GAPS if not g.startswith("test:")} <= set(CASES)


@pytest.mark.parametrize("name", sorted(CASES))
def test_case_matches_pytorch(name: str) -> None:
    problem = mismatch(RECORDED[name], run(name), name)
    if name in GAPS:
        assert problem, f"{name} now matches PyTorch: remove known gap {GAPS[name]}"
    else:
        assert problem is None, problem
