"""`torch._dynamo.config.capture_scalar_outputs = True` (keyroute/_dynamo/unbacked.py) against
PyTorch 2.13 (tests/data/compile_scalars.json, recorded by tools/record_capture_scalar.py):
explain's graph and break counts and reasons, what fullgraph=True gives per backend; then
keyroute's own checks: `.item()` is a graph node (no break, no baked constant), the compiled
function follows new data without recompiling, and an integer `.item()` is an unbacked
SymInt (u0) that still breaks where it is used as a size or branched on."""

from __future__ import annotations

import json
import os

import pytest

import keyroute as torch

from . import scalar_cases

DATA = json.load(
    open(os.path.join(os.path.dirname(__file__), "..", "data", "compile_scalars.json"))
)["cases"]


GAPS = {
    line.split(" ", 1)[0][len("scalars/") :]: line.split(" ", 1)[1]
    for line in open(os.path.join(os.path.dirname(__file__), "known_gaps.txt"), encoding="utf-8")
    if line.startswith("scalars/")
}


def _params():
    # The gaps are in explain's counts (fullgraph=True gives PyTorch's result for all cases).
    return [
        pytest.param(n, marks=pytest.mark.xfail(strict=True, reason=GAPS[n])) if n in GAPS else n
        for n in sorted(DATA)
    ]


@pytest.fixture(autouse=True)
def _capture(monkeypatch):
    monkeypatch.setattr(torch._dynamo.config, "capture_scalar_outputs", True)
    torch._dynamo.reset()


@pytest.mark.parametrize("name", _params())
def test_explain_matches_pytorch(name: str) -> None:
    rec = DATA[name]
    f, args = scalar_cases.CASES[name](torch)
    e = torch._dynamo.explain(f)(*args)
    assert (e.graph_count, e.graph_break_count) == (rec["graph_count"], rec["graph_break_count"])
    assert [r.reason for r in e.break_reasons] == rec["break_reasons"]


@pytest.mark.parametrize("backend", ["eager", "aot_eager"])
@pytest.mark.parametrize("name", sorted(DATA))
def test_fullgraph_matches_pytorch(name: str, backend: str) -> None:
    want = DATA[name][f"fullgraph_{backend}"]
    f, args = scalar_cases.CASES[name](torch)
    try:
        res = torch.compile(f, fullgraph=True, backend=backend)(*args)
        got = ["ok", bool(torch.allclose(res, f(*args)))]
    except Exception as ex:  # noqa: BLE001 - the error is compared
        got = [type(ex).__name__, str(ex).splitlines()[0]]
        if DATA[name]["break_lines"]:
            assert f"Caused by: {DATA[name]['break_lines'][0]}" in str(ex)
    assert got == want


@pytest.mark.parametrize("backend", ["eager", "aot_eager", "inductor"])
def test_item_is_a_graph_node_and_new_data_needs_no_recompile(backend: str) -> None:
    f, (x, y) = scalar_cases.CASES["item_arithmetic"](torch)
    c = torch.compile(f, fullgraph=True, backend=backend)
    for scale in (1.0, -3.0, 0.5):
        xs = x * scale
        assert torch.allclose(c(xs, y), f(xs, y), atol=1e-6)
    assert len(c.variants) == 1
    gm = list(c.variants.values())[0].captured.gm
    targets = [str(n.target) for n in gm.graph.nodes if n.op == "call_function"]
    assert "aten._local_scalar_dense.default" in targets
    assert any("mul" in t and "aten" not in t for t in targets)  # item * 2: an operator node


def test_training_through_a_captured_scalar() -> None:
    def f(x, w):
        return (x * w * (w.detach().sum().item() + 1.0)).sum()

    x, w = torch.randn(3, 4), torch.randn(4, requires_grad=True)
    c = torch.compile(f, fullgraph=True, backend="aot_eager")
    c(x, w).backward()
    g = w.grad.clone()
    w.grad = None
    f(x, w).backward()
    assert torch.allclose(g, w.grad, atol=1e-5)


@pytest.mark.parametrize("backend", ["eager", "aot_eager", "inductor"])
def test_integer_item_is_an_unbacked_symint(backend: str) -> None:
    f, (x, n) = scalar_cases.CASES["item_integer"](torch)
    graphs = []

    def keep(gm, example):
        graphs.append(gm)
        return gm.forward

    torch.compile(f, backend=keep, fullgraph=True)(x, n)
    items = [n for n in graphs[0].graph.nodes if "_local_scalar_dense" in str(n.target)]
    assert [repr(n.meta["val"]) for n in items] == ["u0"]
    cf = torch.compile(f, backend=backend, fullgraph=True)
    for k in ([2, 3], [5, -1], [0, 0]):
        n = torch.tensor(k)
        assert torch.equal(cf(x, n), f(x, n))  # new data, no recompile: nothing is baked in


def test_integer_item_as_a_size_runs_correctly() -> None:
    # keyroute breaks where u0 is used as a size (PyTorch can carry an unbacked size).
    def f(x, n):
        return x.new_zeros(n.sum().item()) + 1

    def loop(x, n):
        for _ in range(n.sum().item()):  # Python reads the int without asking it
            x = x + 1
        return x

    for fn in (f, loop):
        cf = torch.compile(fn, backend="eager")
        for k in ([2, 3], [1, 1]):
            x, n = torch.ones(3), torch.tensor(k)
            assert torch.equal(cf(x, n), fn(x, n))


def test_without_the_flag_item_breaks_as_before(monkeypatch) -> None:
    monkeypatch.setattr(torch._dynamo.config, "capture_scalar_outputs", False)
    f, args = scalar_cases.CASES["item_scale"](torch)
    e = torch._dynamo.explain(f)(*args)
    assert (e.graph_count, e.graph_break_count) == (2, 1)
    assert "capture_scalar_outputs=False" in e.break_reasons[0].reason
