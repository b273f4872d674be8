"""The `_foreach_*` operators under autograd as PyTorch's (layers/foreach_autograd.py): node
types and names per output, the gradients of every leaf (or the backward's error), recorded
by tools/record_foreach_autograd.py; out-of-place forms also against finite differences; and
a dispatch mode still sees the single foreach call."""

from __future__ import annotations

import gzip
import json
import os

import numpy as np
import pytest

import keyroute as kr
from tests.autograd.foreach_cases import CASES, decode, make, run

DATA = os.path.join(os.path.dirname(__file__), "..", "data", "foreach_autograd.json.gz")
RECORDED = json.load(gzip.open(DATA, "rt"))["cases"]


def test_recording_covers_cases() -> None:
    assert sorted(RECORDED) == sorted(CASES), "run tools/record_foreach_autograd.py"


@pytest.mark.parametrize("name", sorted(CASES))
def test_foreach_autograd_matches_pytorch(name: str) -> None:
    exp, got = RECORDED[name], run(kr, name)
    assert got.get("error") == exp.get("error")
    assert got.get("nodes") == exp.get("nodes")
    assert got.get("requires_grad") == exp.get("requires_grad")
    assert got.get("backward") == exp.get("backward")
    if "grads" not in exp:
        assert "grads" not in got
        return
    assert len(got["grads"]) == len(exp["grads"])
    for i, (g, e) in enumerate(zip(got["grads"], exp["grads"])):
        assert (g is None) == (e is None), f"{name}: leaf {i}"
        if e is not None:
            np.testing.assert_allclose(decode(g), decode(e), rtol=1e-6, atol=1e-8)


_SMOOTH = sorted(
    n
    for n, (op, _s, _k) in CASES.items()
    if "_." not in op
    and "grads" in RECORDED[n]
    and not any(k in op for k in ("maximum", "minimum", "sign", "abs"))
)


@pytest.mark.parametrize("name", _SMOOTH)
def test_foreach_gradcheck(name: str) -> None:
    op, args, kwargs, leaves, _ = make(kr, name)

    def fn(*xs):  # noqa: ANN002, ANN202
        it = iter(xs)
        full = [
            [next(it) if t.requires_grad else t for t in a]
            if isinstance(a, list) and a and isinstance(a[0], kr.Tensor)
            else (next(it) if isinstance(a, kr.Tensor) and a.requires_grad else a)
            for a in args
        ]
        return tuple(op(*full, **kwargs))

    assert kr.autograd.gradcheck(fn, tuple(leaves), atol=1e-5, rtol=1e-4)


def test_dispatch_mode_sees_one_foreach_call() -> None:
    from keyroute.utils._python_dispatch import TorchDispatchMode

    seen: list[str] = []

    class Log(TorchDispatchMode):
        def __torch_dispatch__(self, func, types, args=(), kwargs=None):  # noqa: ANN001, ANN204
            seen.append(str(func))
            return func(*args, **(kwargs or {}))

    xs = [kr.ones(3, requires_grad=True), kr.ones(2, requires_grad=True)]
    with Log():
        ys = kr._foreach_mul(xs, 2.0)
        zs = [y.clone() for y in ys]
        kr._foreach_add_(zs, 1.0)
    assert seen == [
        "aten._foreach_mul.Scalar",
        "aten.clone.default",
        "aten.clone.default",
        "aten._foreach_add_.Scalar",
    ]
    assert ys[0].grad_fn is ys[1].grad_fn
    assert zs[0].grad_fn is not zs[1].grad_fn


def test_fused_step_leaves_history_alone() -> None:
    p = [kr.ones(3, requires_grad=True) * 1]
    before = p[0].grad_fn
    kr.ops.aten._fused_sgd_.default(
        p,
        [kr.ones(3)],
        [],
        weight_decay=0.0,
        momentum=0.0,
        lr=0.1,
        dampening=0.0,
        nesterov=False,
        maximize=False,
        is_first_step=True,
    )
    assert p[0].grad_fn is before
    assert p[0].detach().numpy().tolist() == pytest.approx([0.9] * 3)
