"""reshape picks view / _reshape_alias / clone + _unsafe_view as PyTorch 2.13's reshape_symint
does (view for tensor-subclass-like inputs: dispatch modes, meta tensors), and
`aten::_reshape_alias` (meta, CPU view kernel, ReshapeAliasBackward0) behaves as PyTorch's:
against tests/data/reshape_alias.json (tools/record_reshape_alias.py)."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

import keyroute
import keyroute.utils._python_dispatch  # noqa: F401  (the cases' logging mode)

from .reshape_cases import CASES, run

DATA = json.loads((Path(__file__).resolve().parents[1] / "data" / "reshape_alias.json").read_text())
GAPS: dict[str, str] = {}
for line in Path(__file__).with_name("reshape_known_gaps.txt").read_text().splitlines():
    if line.strip() and not line.startswith("#"):
        key, reason = line.split(" ", 1)
        GAPS[key] = reason


def test_every_case_recorded() -> None:
    assert set(DATA["cases"]) == set(CASES)
    for key in GAPS:
        case, field = key.split(":")
        assert field in DATA["cases"][case], key


@pytest.mark.parametrize("name", sorted(CASES))
def test_reshape_case(name: str) -> None:
    got, want = run(CASES[name], keyroute), DATA["cases"][name]
    for key in GAPS:
        case, field = key.split(":")
        if case == name:
            assert got.pop(field) != want[field], f"{key} now matches: remove it from the gaps"
    assert got == {k: v for k, v in want.items() if f"{name}:{k}" not in GAPS}
