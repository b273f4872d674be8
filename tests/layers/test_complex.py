"""Complex tensors through elementwise, reduction, linalg and view operators, values and
gradients (Wirtinger calculus), against PyTorch 2.13 (tools/record_complex.py ->
tests/data/complex.json). Cases named in complex_known_gaps.txt must still differ."""

from __future__ import annotations

import json
import pathlib

import pytest

import keyroute

from ._compare import read_gaps
from .complex_cases import CASES, DTYPES, matches, run_case

HERE = pathlib.Path(__file__).resolve().parent
DATA = json.loads((HERE.parent / "data/complex.json").read_text())["cases"]
GAPS = read_gaps(HERE / "complex_known_gaps.txt")
KEYS = [f"{n}/{d}" for n in CASES for d in DTYPES]


def _gap(key: str) -> str | None:
    return GAPS.get(key) or GAPS.get(key.split("/")[0])


def test_every_case_is_recorded() -> None:
    assert sorted(DATA) == sorted(KEYS)
    assert all(k in KEYS or k in CASES for k in GAPS)


@pytest.mark.parametrize("key", [k for k in KEYS if _gap(k) is None])
def test_case_matches_pytorch(key: str) -> None:
    name, dtype = key.split("/")
    got = run_case(name, keyroute, dtype)
    assert matches(DATA[key], got, dtype), (DATA[key], got)


@pytest.mark.parametrize("key", [k for k in KEYS if _gap(k) is not None])
def test_case_known_gap_still_differs(key: str) -> None:
    name, dtype = key.split("/")
    assert not matches(DATA[key], run_case(name, keyroute, dtype), dtype), _gap(key)


def test_live_against_torch() -> None:
    torch = pytest.importorskip("torch")
    for key in ("exp/complex64", "mm/complex128", "view_as_real/complex64"):
        name, dtype = key.split("/")
        assert matches(DATA[key], run_case(name, torch, dtype), dtype)
