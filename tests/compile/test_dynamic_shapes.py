"""Automatic dynamic shapes (keyroute/_dynamo/dynamic.py, symbolic_shapes.py) against PyTorch
2.13 (tests/data/compile_dynamic.json, recorded by tools/record_dynamic_shapes.py): after each
call how many graphs were compiled, each graph's placeholders with their Sym and symbolic
annotations, its outputs' symbolic shapes; then keyroute's own checks: compiled results equal
eager's at every size with the eager and inductor backends, and the generated code reads the
sizes at run time."""

from __future__ import annotations

import json
import os
import re

import pytest

import keyroute as torch

from . import dynamic_cases

HERE = os.path.dirname(__file__)
DATA = json.load(open(os.path.join(HERE, "..", "data", "compile_dynamic.json")))["cases"]
GAPS = {
    line.split(" ", 1)[0][len("dynamic/") :]: line.split(" ", 1)[1]
    for line in open(os.path.join(HERE, "known_gaps.txt"), encoding="utf-8")
    if line.startswith("dynamic/")
}
MODULES = {"linear", "linear_3d"}


def _params(prefix: str = ""):
    return [
        pytest.param(n, marks=pytest.mark.xfail(strict=True, reason=GAPS[prefix + n]))
        if prefix + n in GAPS
        else n
        for n in sorted(DATA)
    ]


@pytest.fixture(autouse=True)
def _reset():
    torch._dynamo.reset()
    yield
    torch._dynamo.reset()


def _signature(gm) -> list[str]:
    src = gm.print_readable(print_output=False)
    m = re.search(r"def forward\(self, (.*?)\):", src, re.S)
    out: list[str] = []
    for p in (p.strip() for p in m.group(1).split(", ")):
        if out and out[-1].count('"') == 1:
            out[-1] += ", " + p
        else:
            out.append(p)
    return [p.replace('"', "") for p in out]


def _outputs(gm) -> list[str]:
    node = next(n for n in gm.graph.nodes if n.op == "output")
    return [str(list(o.meta["val"].shape)) for o in node.args[0]]


def _comparable(name: str, sig: list[str]) -> list[str]:
    # keyroute names a compiled module's inputs L_self_<param>_ / L_<arg>_ (PyTorch 2.13:
    # L_fn_..._ / L_args_0_) and puts parameters first: compare the Sym inputs and annotations.
    if name not in MODULES:
        return sig
    syms = [s for s in sig if "Sym(" in s]
    return syms + sorted(s.split(": ", 1)[1] for s in sig if "Sym(" not in s)


def _run(name: str, backend):
    fn, calls, dynamic = dynamic_cases.CASES[name](torch)
    cf = torch.compile(fn, backend=backend, dynamic=dynamic)
    return fn, calls, cf


def test_cases_are_recorded() -> None:
    assert sorted(DATA) == sorted(dynamic_cases.CASES)


@pytest.mark.parametrize("name", _params())
def test_graphs_match_pytorch(name: str) -> None:
    graphs = []

    def backend(gm, example):
        graphs.append(gm)
        return gm.forward

    fn, calls, cf = _run(name, backend)
    counts = []
    for shapes in calls:
        cf(*dynamic_cases.make_inputs(torch, shapes))
        counts.append(len(graphs))
    rec = DATA[name]
    assert counts == rec["counts"]
    got = [(_comparable(name, _signature(g)), _outputs(g)) for g in graphs]
    want = [(_comparable(name, g["signature"]), g["outputs"]) for g in rec["graphs"]]
    assert got == want


@pytest.mark.parametrize("backend", ["eager", "inductor"])
@pytest.mark.parametrize("name", sorted(DATA))
def test_results_equal_eager(name: str, backend: str) -> None:
    fn, calls, cf = _run(name, backend)
    with torch.no_grad():
        for shapes in calls + calls[::-1]:
            args = dynamic_cases.make_inputs(torch, shapes)
            got, want = cf(*args), fn(*args)
            assert got.shape == want.shape
            assert torch.allclose(got, want, rtol=1e-5, atol=1e-6)


@pytest.mark.parametrize("backend", ["eager", "inductor"])
def test_one_dynamic_graph_serves_every_size(backend: str) -> None:
    def f(x, w):
        return torch.relu(x @ w).sum(1)

    cf = torch.compile(f, backend=backend)
    w = torch.randn(3, 5)
    for n in (4, 8, 9, 33, 100, 7, 2):
        x = torch.randn(n, 3)
        assert torch.allclose(cf(x, w), f(x, w), atol=1e-6)
    # 4 static, then one dynamic variant for every other size (2 is not 0 or 1).
    assert len(cf.order) == 2 and len(cf._dynamic) == 1


def test_inductor_reads_sizes_at_run_time(caplog) -> None:
    m = torch.nn.Linear(3, 4)
    cm = torch.compile(m)
    with torch.no_grad():
        cm(torch.randn(4, 2, 3))
        with caplog.at_level("WARNING", logger="keyroute._inductor"):
            os.environ["KEYROUTE_LOGS"] = "output_code"
            try:
                cm(torch.randn(8, 2, 3))
            finally:
                del os.environ["KEYROUTE_LOGS"]
        x = torch.randn(11, 2, 3)
        assert torch.allclose(cm(x), m(x), atol=1e-6)
    code = caplog.text
    assert "s33 = arg2_1" in code and "reshape((2*s33, 3))" in code
    assert len(cm._compiled.order) == 2


def test_size_guard_recompiles() -> None:
    def f(x):
        if x.shape[0] > 10:
            return x * 2
        return x + 1

    cf = torch.compile(f, backend="eager")
    for n in (4, 8, 6, 16, 32, 9):
        x = torch.randn(n, 3)
        assert torch.allclose(cf(x), f(x))
    assert len(cf.order) == 3
    guards = [g for p, _v in cf._dynamic for g in p.env.guards]
    assert ("s77 > 10", False) in guards and ("s77 > 10", True) in guards


def test_static_size_equal_to_hint_falls_back_to_static() -> None:
    # x's batch size 3 equals w's static size 3 at the first dynamic trace: whatever the
    # symbol matching decides, results must equal eager's at every size.
    def f(x, w):
        return (x @ w).reshape(-1, 3).sum(0)

    cf = torch.compile(f, backend="eager")
    w = torch.randn(3, 3)
    for n in (6, 3, 9, 12, 5):
        x = torch.randn(n, 3)
        assert torch.allclose(cf(x, w), f(x, w), atol=1e-6)


def test_dynamic_false_keeps_static() -> None:
    cf = torch.compile(lambda x: x * 2, backend="eager", dynamic=False)
    for n in (4, 8, 16):
        cf(torch.randn(n))
    assert len(cf.order) == 3 and not cf._dynamic
