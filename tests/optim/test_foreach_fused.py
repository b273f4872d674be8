"""foreach=True (SGD, Adam, AdamW, RMSprop, Adagrad, Adadelta, Adamax, NAdam, RAdam) and
fused=True (SGD/Adam/AdamW) against torch 2.13 (tests/data/foreach_optim.json,
tools/record_foreach_optim.py): values, state, and the _foreach_* calls a dispatch mode sees;
and the _foreach_* operators they call."""

from __future__ import annotations

import json
import pathlib

import numpy as np
import pytest

import keyroute as torch
from keyroute.utils.python_dispatch import TorchDispatchMode

DATA = json.loads(
    (pathlib.Path(__file__).resolve().parent.parent / "data/foreach_optim.json").read_text()
)
_GAPS_FILE = pathlib.Path(__file__).resolve().parent / "foreach_known_gaps.txt"
GAPS = dict(
    line.rstrip("\n").split(" ", 1)
    for line in _GAPS_FILE.read_text().splitlines()
    if line.strip() and not line.startswith("#")
)
CASES = [
    (i, m)
    for i, case in enumerate(DATA["cases"])
    for m in ("single", "foreach", "fused")
    if m in case
]


def _run(name, kw, mode):  # type: ignore[no-untyped-def]
    ps = [torch.tensor(p, requires_grad=True) for p in DATA["params"]]
    flags = {"single": {"foreach": False}, "foreach": {"foreach": True}, "fused": {"fused": True}}
    opt = getattr(torch.optim, name)(ps, **kw, **flags[mode])
    for step in DATA["grads"]:
        for p, g in zip(ps, step):
            p.grad = torch.tensor(g)
        opt.step()
    return ps, opt


@pytest.mark.parametrize("i,mode", CASES)
def test_matches_torch(i: int, mode: str) -> None:
    case = DATA["cases"][i]
    ps, opt = _run(case["optim"], case["kwargs"], mode)
    want = case[mode]
    # foreach runs the single-tensor arithmetic: bit for bit; fused rounds as its kernel
    tol = {"rtol": 0, "atol": 0} if mode != "fused" else {"rtol": 1e-6, "atol": 1e-7}
    if f"{i}-{mode}" in GAPS:
        with pytest.raises(AssertionError):
            _compare(ps, opt, want, tol)
        pytest.xfail(GAPS[f"{i}-{mode}"])
    _compare(ps, opt, want, tol)


def _compare(ps, opt, want, tol):  # type: ignore[no-untyped-def]
    for p, w in zip(ps, want["params"]):
        np.testing.assert_allclose(p.detach().numpy(), np.array(w, np.float32), **tol)
    for p, ws in zip(ps, want["state"]):
        st = opt.state[p]
        assert sorted(st) == sorted(ws)
        for k, w in ws.items():
            np.testing.assert_allclose(np.asarray(st[k].tolist()), np.asarray(w), **tol)


@pytest.mark.parametrize("i", range(len(DATA["cases"])))
def test_foreach_calls_match_torch(i: int) -> None:
    case = DATA["cases"][i]
    ps = [torch.tensor(p, requires_grad=True) for p in DATA["params"]]
    opt = getattr(torch.optim, case["optim"])(ps, **case["kwargs"], foreach=True)
    calls: list[str] = []
    for step in DATA["grads"]:
        for p, g in zip(ps, step):
            p.grad = torch.tensor(g)
        with _Log() as log:
            opt.step()
        calls += log.names

    def foreach(names: list[str]) -> list[str]:
        return [n for n in names if n.startswith("aten._foreach")]

    assert foreach(calls) == foreach(case["foreach"]["calls"])


def test_foreach_equals_single_tensor_values() -> None:
    # (not ASGD: PyTorch's foreach ASGD updates p - (g + lambd p) * eta, its single-tensor
    # ASGD p * (1 - lambd eta) - eta g: other roundings, recorded separately above)
    for case in (c for c in DATA["cases"] if c["optim"] != "ASGD"):
        a, _ = _run(case["optim"], case["kwargs"], "single")
        b, _ = _run(case["optim"], case["kwargs"], "foreach")
        for x, y in zip(a, b):
            assert np.array_equal(x.detach().numpy(), y.detach().numpy())


class _Log(TorchDispatchMode):
    def __init__(self) -> None:
        super().__init__()
        self.names: list[str] = []

    def __torch_dispatch__(self, func, types, args=(), kwargs=None):  # type: ignore[no-untyped-def]
        self.names.append(str(func))
        return func(*args, **(kwargs or {}))


def test_mode_sees_foreach_and_fused_calls() -> None:
    p = torch.ones(3, requires_grad=True)
    p.grad = torch.ones(3)
    opt = torch.optim.Adam([p], foreach=True)
    with _Log() as log:
        opt.step()
    foreach = [n for n in log.names if n.startswith("aten._foreach")]
    assert foreach[:3] == [
        "aten._foreach_add_.Tensor",
        "aten._foreach_lerp_.Scalar",
        "aten._foreach_mul_.Scalar",
    ]
    assert "aten._foreach_addcdiv_.ScalarList" in foreach
    opt = torch.optim.SGD([p], lr=0.1, fused=True)
    with _Log() as log:
        opt.step()
    assert log.names == ["aten._fused_sgd_.default"]


def test_foreach_ops_values_and_errors() -> None:
    a = [torch.tensor([1.0, 4.0]), torch.tensor([9.0])]
    b = [torch.tensor([2.0, 2.0]), torch.tensor([3.0])]
    assert [t.tolist() for t in torch._foreach_add(a, b, alpha=2)] == [[5.0, 8.0], [15.0]]
    assert [t.tolist() for t in torch._foreach_sqrt(a)] == [[1.0, 2.0], [3.0]]
    assert [t.tolist() for t in torch._foreach_mul(a, [2.0, 3.0])] == [[2.0, 8.0], [27.0]]
    c = [t.clone() for t in a]
    torch._foreach_addcdiv_(c, a, b, [1.0, 2.0])
    assert [t.tolist() for t in c] == [[1.5, 6.0], [15.0]]
    torch._foreach_lerp_(c, a, 1.0)
    assert [t.tolist() for t in c] == [[1.0, 4.0], [9.0]]
    with pytest.raises(RuntimeError, match="Tensor lists must have the same number of tensors"):
        torch._foreach_add(a, b[:1])
    with pytest.raises(RuntimeError, match="Tensor list must have at least one tensor"):
        torch._foreach_sqrt([])


def test_foreach_lerp_list_weights() -> None:
    a = [torch.tensor([0.0, 0.0])]
    torch._foreach_lerp_(a, [torch.tensor([4.0, 8.0])], [torch.tensor([0.5, 0.25])])
    assert a[0].tolist() == [2.0, 2.0]
