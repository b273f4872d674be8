"""keyroute's make_fx graphs against PyTorch 2.13's (tests/data/graphs.json, recorded by
tools/record_graphs.py): op for op, with each value's shape and dtype. Known gaps are listed in
tests/fx/known_gaps.txt; each still differs (strict)."""

import json
import pathlib

import pytest

import keyroute as torch
from keyroute._decomp import core_aten_decompositions
from keyroute.func import functionalize
from keyroute.fx.experimental.proxy_tensor import make_fx

from . import graph_cases

HERE = pathlib.Path(__file__).parent
DATA = json.loads((HERE.parent / "data" / "graphs.json").read_text())["graphs"]


def _gaps():
    gaps = {}
    for line in (HERE / "known_gaps.txt").read_text().splitlines():
        line = line.strip()
        if line and not line.startswith("#"):
            name, _, reason = line.partition(" ")
            gaps[name] = reason.strip()
    return gaps


GAPS = _gaps()


def _norm(g):
    return json.loads(json.dumps(g))


@pytest.mark.parametrize("key", sorted(DATA))
def test_graph_matches_pytorch(key):
    name, mode = key.split("/")
    got = _norm(
        graph_cases.trace(torch, make_fx, functionalize, name, mode, core_aten_decompositions)
    )
    want = DATA[key]
    if key in GAPS:
        assert got != want, f"{key} now matches PyTorch: remove it from known_gaps.txt"
        return
    if isinstance(want, dict):
        assert isinstance(got, dict), f"PyTorch raised {want}, keyroute traced {got}"
        assert got["error"] == want["error"] and got["msg"] == want["msg"]
        return
    assert got == want


def test_gap_list_names_recorded_graphs():
    assert set(GAPS) <= set(DATA)
