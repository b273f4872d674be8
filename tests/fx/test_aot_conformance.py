"""keyroute's AOT Autograd graphs against PyTorch 2.13's (tests/data/graphs_aot.json, recorded
by tools/record_aot_graphs.py): forward and backward op lists with values' shapes and dtypes,
and the graphs' input names (saved activations, tangents). Known gaps: known_gaps.txt."""

import json
import pathlib

import pytest

import keyroute as torch
from keyroute._functorch.aot_autograd import aot_function

from . import aot_cases
from .test_graph_conformance import GAPS

HERE = pathlib.Path(__file__).parent
DATA = json.loads((HERE.parent / "data" / "graphs_aot.json").read_text())["graphs"]


@pytest.mark.parametrize("key", sorted(DATA))
def test_aot_graphs_match_pytorch(key):
    kind, name = key.split("/")
    got = json.loads(json.dumps(aot_cases.trace(torch, aot_function, kind, name)))
    want = DATA[key]
    if f"aot/{key}" in GAPS:
        assert got != want, f"aot/{key} now matches PyTorch: remove it from known_gaps.txt"
        return
    assert got == want
