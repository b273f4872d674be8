"""keyroute's autograd extras (saved-tensor hooks, multi-grad hooks, Node hooks, `_saved_*`,
autograd.functional, utils.checkpoint, anomaly mode, Function features) against PyTorch 2.13's
recorded outcomes (tools/record_autograd_extras.py -> tests/data/autograd_extras.json).
Programs named in known_gaps.txt must still differ (strict)."""

from __future__ import annotations

import json
import pathlib

import pytest

import keyroute
import keyroute.autograd.functional  # noqa: F401
import keyroute.nn.functional  # noqa: F401
import keyroute.utils.checkpoint  # noqa: F401

from ._compare import outcome_matches, read_gaps
from .autograd_programs import PROGRAMS, run_program

HERE = pathlib.Path(__file__).resolve().parent
DATA = json.loads((HERE.parent / "data/autograd_extras.json").read_text())["programs"]
GAPS = read_gaps(HERE / "known_gaps.txt")


def test_every_program_is_recorded() -> None:
    assert sorted(DATA) == sorted(PROGRAMS)
    assert {g for g in GAPS if g in DATA} <= set(PROGRAMS)


@pytest.mark.parametrize("name", sorted(n for n in PROGRAMS if n not in GAPS))
def test_program_matches_pytorch(name: str) -> None:
    got = run_program(name, keyroute)
    assert outcome_matches(DATA[name], got), (DATA[name], got)


@pytest.mark.parametrize("name", sorted(n for n in PROGRAMS if n in GAPS))
def test_known_gap_still_differs(name: str) -> None:
    assert not outcome_matches(DATA[name], run_program(name, keyroute)), GAPS[name]


def test_live_against_torch() -> None:
    torch = pytest.importorskip("torch")
    pytest.importorskip("torch.autograd.functional")
    pytest.importorskip("torch.utils.checkpoint")

    for name in ("jacobian_tuple", "checkpoint_nonreentrant", "hooks_pack_count"):
        assert run_program(name, torch) == DATA[name]
