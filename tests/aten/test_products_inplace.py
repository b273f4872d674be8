"""The in-place forms addr_ and renorm_ against PyTorch 2.13's recorded outcomes
(tools/record_products_inplace.py -> tests/data/products_inplace.json): values, dtypes,
version counters, errors and their order, nothing written on a failed call, autograd nodes
and gradients, and what a dispatch mode sees."""

from __future__ import annotations

import json
import pathlib

import pytest

import keyroute
from tests.layers._compare import outcome_matches

from .products_inplace_programs import PROGRAMS, run_program

DATA = json.loads(
    (pathlib.Path(__file__).resolve().parent.parent / "data/products_inplace.json").read_text()
)["programs"]


def test_every_program_is_recorded() -> None:
    assert sorted(DATA) == sorted(PROGRAMS)


@pytest.mark.parametrize("name", sorted(PROGRAMS))
def test_program_matches_pytorch(name: str) -> None:
    got = run_program(name, keyroute)
    assert outcome_matches(DATA[name], got), (DATA[name], got)
