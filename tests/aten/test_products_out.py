"""The out= forms of addr, renorm, trace, huber_loss, smooth_l1_loss and their backwards
against PyTorch 2.13's recorded outcomes (tools/record_products_out.py): the value written,
out's dtype and shape, or PyTorch's error for an out dtype it refuses."""

from __future__ import annotations

import json
import pathlib

import pytest

import keyroute

from .products_out_cases import CASES, OUT_DTYPES, OUT_SHAPES, run_case

DATA = json.loads(
    (pathlib.Path(__file__).resolve().parent.parent / "data/products_out.json").read_text()
)["cases"]
KEYS = [f"{n}/{d}/{s}" for n in CASES for d in OUT_DTYPES for s in OUT_SHAPES]


def test_every_case_is_recorded() -> None:
    assert sorted(DATA) == sorted(KEYS)


@pytest.mark.parametrize("key", KEYS)
def test_out_form_matches_pytorch(key: str) -> None:
    name, dt, shape = key.split("/")
    got = run_case(name, keyroute, dt, shape)
    want = DATA[key]
    if "value" in want and "value" in got:
        assert {k: v for k, v in got.items() if k != "value"} == {
            k: v for k, v in want.items() if k != "value"
        }
        assert got["value"] == pytest.approx(want["value"], abs=2e-3)
    else:
        assert got == want
