"""capturable=True on CPU parameters, outside torch.compile: each optimizer raises PyTorch
2.13's assertion (worded per optimizer and per foreach) after creating its state and before
touching the parameter; the fused Adam/AdamW steps run. Recorded by
tools/record_optim_capturable.py."""

from __future__ import annotations

import json
import pathlib

import pytest

import keyroute

RECORDED = pathlib.Path(__file__).parents[1] / "data/optim_capturable.json"
DATA = json.loads(RECORDED.read_text())["cases"]


def _run(name: str, kw: dict) -> dict[str, object]:
    p = keyroute.nn.Parameter(keyroute.tensor([1.0, -2.0, 3.0]))
    p.grad = keyroute.tensor([0.5, 0.25, -1.0])
    opt = getattr(keyroute.optim, name)([p], lr=0.1, capturable=True, **kw)
    out: dict[str, object] = {"optimizer": name, "kwargs": kw}
    try:
        opt.step()
    except Exception as e:  # noqa: BLE001
        out["error"] = type(e).__name__
        out["message"] = str(e)
    out["state"] = sorted(opt.state[p])
    out["param"] = p.detach().tolist()
    return out


@pytest.mark.parametrize("case", DATA, ids=lambda c: f"{c['optimizer']}-{c['kwargs']}")
def test_capturable_on_cpu_as_pytorch(case: dict) -> None:
    got = _run(case["optimizer"], case["kwargs"])
    if "error" not in case:  # the fused steps: PyTorch's numbers, to float32 rounding
        assert "error" not in got, got.get("message")
        assert got["state"] == case["state"]
        assert got["param"] == pytest.approx(case["param"], rel=1e-6)
        return
    assert got == case


def test_a_subclass_words_it_as_its_base() -> None:
    class MyAdam(keyroute.optim.Adam):
        pass

    p = keyroute.nn.Parameter(keyroute.ones(2))
    p.grad = keyroute.ones(2)
    with pytest.raises(AssertionError, match="params and state_steps must be on supported"):
        MyAdam([p], capturable=True).step()
    assert p.tolist() == [1.0, 1.0]


def test_no_gradient_no_check() -> None:
    p = keyroute.nn.Parameter(keyroute.ones(2))
    keyroute.optim.Adam([p], capturable=True).step()  # (nothing to step: no assertion)
