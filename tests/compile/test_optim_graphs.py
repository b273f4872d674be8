"""Compiled optimizer steps against PyTorch 2.13's recording (tools/record_compile_optim.py,
tests/data/compile_optim.json): Adam/AdamW's `opt.step` is one graph with no break (the step
counter stays a tensor when compiling, PyTorch's capturable formulas), its AOT inference graph
holds PyTorch's operators in PyTorch's order, and the numbers after three steps agree."""

from __future__ import annotations

import json
import os

import pytest

import keyroute as torch
from keyroute._functorch.aot_autograd import make_inference_graph

from . import optim_cases

_DATA = os.path.join(os.path.dirname(__file__), "..", "data", "compile_optim.json")
REC = json.load(open(_DATA, encoding="utf-8"))["cases"]
NAMES = list(optim_cases.CASES)
GETITEM = "<built-in function getitem>"


def _gap(key: str) -> str:
    path = os.path.join(os.path.dirname(__file__), "known_gaps.txt")
    lines = [ln for ln in open(path, encoding="utf-8") if ln.startswith(key + " ")]
    assert lines, key
    return lines[0].split(" ", 1)[1]


def _compiled_graphs(name: str) -> tuple[list[list[str]], object, object]:
    torch._dynamo.reset()
    model, opt, grads = optim_cases.build(torch, name)
    graphs: list[list[str]] = []

    def backend(gm, example_inputs):
        g, _ = make_inference_graph(gm, tuple(example_inputs))
        graphs.append([str(n.target) for n in g.graph.nodes if n.op == "call_function"])
        return gm

    step = torch.compile(opt.step, backend=backend)
    for _ in range(3):
        grads()
        step()
    return graphs, model, opt


def _normalized(ops: list[str]) -> list[str]:
    """PyTorch's graph with the three named rewrites undone (known gaps optim/addcmul_fma,
    optim/foreach_lerp, optim/adam_foreach_pow), so the rest is compared op for op."""
    out: list[str] = []
    i = 0
    while i < len(ops):
        if ops[i : i + 3] == ["aten.mul.Tensor", "prims.fma.default", "aten.copy.default"]:
            out.append("aten.addcmul.default")
            i += 3
            continue
        if ops[i] == "aten._foreach_sub.List":
            j = i + 1
            while ops[j] in (GETITEM, "aten.full_like.default"):
                j += 1
            assert ops[j] == "aten._foreach_addcmul.Scalar"
            out.append("aten._foreach_lerp.Scalar")
            i = j + 1
            continue
        if ops[i] == "aten._foreach_pow.ScalarAndTensor":
            j = i + 1
            while j < len(ops) and ops[j] == GETITEM:
                j += 1
            out.extend(["aten.pow.Scalar"] * (j - i - 1))
            i = j
            continue
        out.append(ops[i])
        i += 1
    return out


@pytest.mark.parametrize("name", NAMES)
def test_explain_counts_as_pytorch(name):
    torch._dynamo.reset()
    _, opt, grads = optim_cases.build(torch, name)
    grads()
    e = torch._dynamo.explain(opt.step)()
    rec = REC[name]
    assert (e.graph_count, e.graph_break_count) == (rec["graph_count"], rec["graph_break_count"])
    assert [r.reason.splitlines()[0] for r in e.break_reasons] == rec["break_reasons"]


@pytest.mark.parametrize("name", NAMES)
def test_aot_graph_ops_as_pytorch(name):
    graphs, model, opt = _compiled_graphs(name)
    rec = REC[name]
    assert graphs, "no graph compiled"
    assert graphs[-1] == _normalized(rec["fw_graphs"][0])
    for p, want in zip(model.parameters(), rec["params"]):
        assert torch.allclose(p.detach().flatten(), torch.tensor(want), rtol=1e-5, atol=1e-6)
    for p, want in zip(model.parameters(), rec["state"]):
        for k, v in want.items():
            got = opt.state[p][k].flatten()
            assert torch.allclose(got, torch.tensor(v, dtype=got.dtype), rtol=1e-5, atol=1e-6), k


def _raw_differs(name: str, marker: str) -> None:
    graphs, _, _ = _compiled_graphs(name)
    assert marker in REC[name]["fw_graphs"][0]
    assert graphs[-1] == REC[name]["fw_graphs"][0]


@pytest.mark.xfail(strict=True, reason=_gap("optim/addcmul_fma"))
def test_addcmul_value_decomposed_as_dynamo():
    _raw_differs("adam", "prims.fma.default")


@pytest.mark.xfail(strict=True, reason=_gap("optim/foreach_lerp"))
def test_foreach_lerp_decomposed_as_pytorch():
    _raw_differs("adam_foreach", "aten.full_like.default")


@pytest.mark.xfail(strict=True, reason=_gap("optim/adam_foreach_pow"))
def test_foreach_pow_as_pytorch():
    _raw_differs("adam_foreach", "aten._foreach_pow.ScalarAndTensor")


@pytest.mark.xfail(strict=True, reason=_gap("optim/first_step_graph"))
def test_one_graph_for_three_steps_as_pytorch():
    graphs, _, _ = _compiled_graphs("adam")
    assert len(graphs) == len(REC["adam"]["fw_graphs"])


@pytest.mark.xfail(strict=True, reason=_gap("optim/step_fullgraph"))
@pytest.mark.parametrize("name", ["adam", "adam_foreach"])
def test_fullgraph_step_raises_as_pytorch(name):
    torch._dynamo.reset()
    _, opt, grads = optim_cases.build(torch, name)
    grads()
    assert REC[name]["fullgraph"][0] == "Unsupported"
    with pytest.raises(torch._dynamo.exc.Unsupported, match="graph_break"):
        torch.compile(opt.step, fullgraph=True, backend="eager")()
