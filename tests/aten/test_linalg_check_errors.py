"""linalg.solve / cholesky / inv and their _ex forms against PyTorch 2.13's recorded outcomes
(tools/record_linalg_check_errors.py -> tests/data/linalg_check_errors.json): the
_linalg_check_errors call a dispatch mode sees, LinAlgError's class and messages (batch
elements named), the _ex forms' info and check_errors=True."""

from __future__ import annotations

import json
import pathlib

import pytest

import keyroute
from keyroute.aten import linalg_ops
from tests.layers._compare import outcome_matches

from .linalg_check_errors_programs import PROGRAMS, run_program

DATA = json.loads(
    (pathlib.Path(__file__).resolve().parent.parent / "data/linalg_check_errors.json").read_text()
)["programs"]


def test_every_program_is_recorded() -> None:
    assert sorted(DATA) == sorted(PROGRAMS)


@pytest.mark.parametrize("name", sorted(PROGRAMS))
def test_program_matches_pytorch(name: str) -> None:
    if name == "cholesky_legacy_warns":  # recorded as a fresh process's first call
        linalg_ops.WARNED.discard("cholesky")
    got = run_program(name, keyroute)
    assert outcome_matches(DATA[name], got), (DATA[name], got)
