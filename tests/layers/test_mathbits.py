"""Complex views and the Conjugate / Negative layers against PyTorch 2.13's recorded outcomes
(tools/record_mathbits.py -> tests/data/mathbits.json): key bits, flags, storage sharing,
values, write-through, dispatch-mode logs, errors, complex autograd. Programs named in
mathbits_known_gaps.txt must still differ (strict)."""

from __future__ import annotations

import json
import pathlib

import pytest

import keyroute

from ._compare import outcome_matches, read_gaps
from .mathbits_programs import PROGRAMS, run_program

HERE = pathlib.Path(__file__).resolve().parent
DATA = json.loads((HERE.parent / "data/mathbits.json").read_text())["programs"]
GAPS = read_gaps(HERE / "mathbits_known_gaps.txt")


def test_every_program_is_recorded() -> None:
    assert sorted(DATA) == sorted(PROGRAMS)
    assert set(GAPS) <= set(PROGRAMS)


@pytest.mark.parametrize("name", sorted(n for n in PROGRAMS if n not in GAPS))
def test_program_matches_pytorch(name: str) -> None:
    got = run_program(name, keyroute)
    assert outcome_matches(DATA[name], got), (DATA[name], got)


@pytest.mark.parametrize("name", sorted(n for n in PROGRAMS if n in GAPS))
def test_known_gap_still_differs(name: str) -> None:
    assert not outcome_matches(DATA[name], run_program(name, keyroute)), GAPS[name]


def test_plain_tensors_carry_no_math_bit() -> None:
    from keyroute.aten.mathbits import MATH_BITS

    a = keyroute.ones(3)
    assert not (a + a)._key_set & MATH_BITS
    assert not keyroute.ones(2, dtype=keyroute.complex64).conj().resolve_conj()._key_set & MATH_BITS
