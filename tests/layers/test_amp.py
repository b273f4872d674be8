"""GradScaler("cpu") and library.register_autocast against PyTorch 2.13's recorded programs
(tools/record_amp.py -> tests/data/amp.json). Programs named in amp_known_gaps.txt must still
differ (strict)."""

from __future__ import annotations

import json
import pathlib

import pytest

import keyroute
import keyroute.nn.functional  # noqa: F401

from ._compare import outcome_matches, read_gaps
from .amp_programs import PROGRAMS, run_program

HERE = pathlib.Path(__file__).resolve().parent
DATA = json.loads((HERE.parent / "data/amp.json").read_text())
GAPS = read_gaps(HERE / "amp_known_gaps.txt")


def test_every_program_is_recorded() -> None:
    assert sorted(DATA["programs"]) == sorted(PROGRAMS)


@pytest.mark.parametrize("name", sorted(n for n in PROGRAMS if n not in GAPS))
def test_program_matches_pytorch(name: str) -> None:
    got = run_program(name, keyroute)
    assert outcome_matches(DATA["programs"][name], got), (DATA["programs"][name], got)


@pytest.mark.parametrize("name", sorted(n for n in PROGRAMS if n in GAPS))
def test_program_known_gap_still_differs(name: str) -> None:
    assert not outcome_matches(DATA["programs"][name], run_program(name, keyroute)), GAPS[name]
