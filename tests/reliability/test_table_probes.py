"""Bad-input probes generated from the whole aten operator table (issue 12).

tools/table_probes.py generates, for every public aten overload, probes from its schema
(wrong dtype, wrong rank, mismatched devices and empty inputs per Tensor argument, dims out of
range, negative sizes, out= of the wrong dtype / aliasing / overlapping an input, overlapping
in-place writes) and records PyTorch 2.13's outcomes, with the cases themselves, into
tests/data/table_probes.json.gz. Each probe here replays its case on keyroute: the same error
(type and first line) or the same result signature, and the same inputs left unchanged. Probes
in table_probe_known_gaps.txt must still differ (strict xfail).
"""

from __future__ import annotations

import os
import sys

import pytest

import keyroute

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(os.path.dirname(HERE))
sys.path.insert(0, os.path.join(ROOT, "tools"))
import table_probes  # noqa: E402

from tests.reliability.test_repros import load_gaps  # noqa: E402

DATA = table_probes.load()
CASES = DATA["cases"]
OUTCOMES = DATA["outcomes"]
GAPS = load_gaps(table_probes.GAPS)


def _params() -> list:
    out = []
    for name in CASES:
        marks = [pytest.mark.xfail(strict=True, reason=GAPS[name])] if name in GAPS else []
        out.append(pytest.param(name, marks=marks, id=name))
    return out


@pytest.mark.parametrize("name", _params())
def test_probe_matches_pytorch(name: str) -> None:
    got = table_probes.run(keyroute, CASES[name])
    why = table_probes.difference(got, OUTCOMES[name])
    assert not why, f"{why}\n  keyroute {got}\n  torch    {OUTCOMES[name]}"


def test_the_whole_table_is_probed() -> None:
    """The probes cover keyroute's public aten overloads: every recorded operator still exists,
    and at least 95% of today's are recorded (operators added since the last recording are
    probed once `python tools/table_probes.py` runs again; the ones on which PyTorch itself
    crashes are left out of the recording, and counted here)."""
    current = {c["op"] for c in table_probes.generate(keyroute).values()}
    recorded = {c["op"] for c in CASES.values()} | set(DATA["torch_crashes"])
    assert recorded <= current, sorted(recorded - current)[:20]
    assert len(recorded) >= 0.95 * len(current), sorted(current - recorded)[:20]


def test_every_gap_is_a_probe() -> None:
    assert set(GAPS) <= set(CASES)
