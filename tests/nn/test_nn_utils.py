"""torch.nn.utils against PyTorch (tests/nn/utils_cases.py, recorded by
tools/record_nn_modules.py into tests/data/nn_utils.json.gz)."""

from __future__ import annotations

import functools
import gzip
import json
import os

import pytest

import keyroute as kr
from tests.nn.test_nn_modules import _close, _gaps
from tests.nn.utils_cases import CASES, run

DATA = os.path.join(os.path.dirname(__file__), "..", "data", "nn_utils.json.gz")


@functools.cache
def _recorded() -> dict:
    with gzip.open(DATA, "rt") as f:
        return json.load(f)["cases"]


def _same(got: object, exp: object, what: str) -> None:
    if isinstance(exp, (str, bool)) or exp is None:
        assert got == exp, what
    elif isinstance(exp, list) and any(isinstance(e, (list, str, bool)) or e is None for e in exp):
        assert isinstance(got, list) and len(got) == len(exp), what
        for i, (g, e) in enumerate(zip(got, exp)):
            _same(g, e, f"{what}[{i}]")
    else:
        _close(got, exp, what)


@pytest.mark.parametrize("name", sorted(CASES))
def test_nn_utils_match_pytorch(name: str) -> None:
    gap = _gaps().get(f"utils:{name}")
    try:
        _same(run(kr, name), _recorded()[name], name)
    except Exception:
        if gap is not None:
            pytest.xfail(gap)
        raise
    assert gap is None, f"utils:{name} now matches: remove it from tests/nn/known_gaps.txt"


def test_clip_grad_norm_logs_foreach_ops() -> None:
    from keyroute.utils._python_dispatch import TorchDispatchMode

    seen: list[str] = []

    class Log(TorchDispatchMode):
        def __torch_dispatch__(self, func, types, args=(), kwargs=None):  # noqa: ANN001
            seen.append(str(func))
            return func(*args, **(kwargs or {}))

    p = kr.nn.Parameter(kr.ones(3))
    p.grad = kr.ones(3)
    with Log():
        kr.nn.utils.clip_grad_norm_([p], 0.5)
    assert "aten._foreach_norm.Scalar" in seen and "aten._foreach_mul_.Tensor" in seen, seen
