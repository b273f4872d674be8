"""Graph breaks as PyTorch 2.13 takes them (tests/data/compile_breaks.json, recorded by
tools/record_compile_breaks.py): explain's graph count, break count, reasons and user lines,
and what fullgraph=True raises (type, reason, explanation and the user's file:line)."""

from __future__ import annotations

import json
import os
import re

import pytest

import keyroute as torch

from . import break_cases

DATA = json.load(
    open(os.path.join(os.path.dirname(__file__), "..", "data", "compile_breaks.json"))
)["cases"]
GAPS = {
    line.split(" ", 1)[0][len("breaks/") :]: line.split(" ", 1)[1]
    for line in open(os.path.join(os.path.dirname(__file__), "known_gaps.txt"), encoding="utf-8")
    if line.startswith("breaks/")
}


def _explain(name):
    torch._dynamo.reset()
    f, args = break_cases.CASES[name](torch)
    e = torch._dynamo.explain(f)(*args)
    return (
        e.graph_count,
        e.graph_break_count,
        [r.reason for r in e.break_reasons],
        [
            [fr.lineno for fr in r.user_stack if fr.filename.endswith("break_cases.py")]
            for r in e.break_reasons
        ],
    )


def _params():
    return [
        pytest.param(n, marks=pytest.mark.xfail(strict=True, reason=GAPS[n])) if n in GAPS else n
        for n in sorted(DATA)
    ]


@pytest.mark.parametrize("name", _params())
def test_explain_matches_pytorch(name: str) -> None:
    rec = DATA[name]
    got = _explain(name)
    assert got[0] == rec["graph_count"]
    assert got[1] == rec["graph_break_count"]
    # The reason text up to the addresses PyTorch prints (scrubbed in the record).
    assert [r.split(" at 0x")[0] for r in got[2]] == [
        r.split(" at 0x")[0] for r in rec["break_reasons"]
    ]
    assert got[3] == rec["break_lines"]


def _head(msg: str) -> list[str]:
    """The reason, the explanation's first line and the user-code location lines."""
    lines = msg.split("\n")
    where = [ln.strip() for ln in lines if ln.strip().startswith("File ") and "break_cases" in ln]
    # The file's directory is the checkout's (the recording's was another): compare from the
    # repository's tests/ folder on.
    where = [re.sub(r'File ".*?(tests/compile/break_cases\.py)"', r'File "\1"', w) for w in where]
    return [lines[0], lines[1].split(" at 0x")[0], *where[:1]]


@pytest.mark.parametrize("name", sorted(DATA))
def test_fullgraph_matches_pytorch(name: str) -> None:
    rec = DATA[name]["fullgraph"]
    torch._dynamo.reset()
    f, args = break_cases.CASES[name](torch)
    compiled = torch.compile(f, fullgraph=True, backend="eager")
    if rec == "ok":
        got = compiled(*args)
        f2, args2 = break_cases.CASES[name](torch)
        assert torch.allclose(got, f2(*args2))
        return
    kind, msg = rec
    with pytest.raises(torch._dynamo.exc.Unsupported) as info:
        compiled(*args)
    assert kind == "Unsupported"
    assert _head(str(info.value)) == _head(msg)


@pytest.mark.parametrize("name", sorted(DATA))
def test_broken_functions_still_give_eager_results(name: str) -> None:
    torch._dynamo.reset()
    f, args = break_cases.CASES[name](torch)
    compiled = torch.compile(f, backend="eager")
    for _ in range(2):
        got = compiled(*args)
        f2, args2 = break_cases.CASES[name](torch)
        assert torch.allclose(got, f2(*args2))


def test_counters_record_the_break() -> None:
    torch._dynamo.reset()
    f, args = break_cases.CASES["if_tensor"](torch)
    torch.compile(f, backend="eager")(*args)
    assert torch._dynamo.utils.counters["graph_break"]["Data-dependent branching"] == 1
