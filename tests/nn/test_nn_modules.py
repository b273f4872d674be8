"""torch.nn modules against PyTorch: initial state from PyTorch's seeds, then (with PyTorch's
state loaded) outputs, input and parameter gradients, and the state after a few calls
(tools/record_nn_modules.py, tests/nn/module_cases.py). Gaps: tests/nn/known_gaps.txt."""

from __future__ import annotations

import functools
import gzip
import json
import os

import numpy as np
import pytest

import keyroute as kr
from tests.nn.module_cases import CASES, run

DATA = os.path.join(os.path.dirname(__file__), "..", "data", "nn_modules.json.gz")
GAPS_FILE = os.path.join(os.path.dirname(__file__), "known_gaps.txt")


@functools.cache
def _recorded() -> dict:
    with gzip.open(DATA, "rt") as f:
        return json.load(f)["cases"]


@functools.cache
def _gaps() -> dict[str, str]:
    out = {}
    for line in open(GAPS_FILE):
        line = line.strip()
        if line and not line.startswith("#"):
            name, _, why = line.partition(" ")
            out[name] = why
    return out


def _close(got: object, exp: object, what: str, rtol: float = 2e-4, atol: float = 2e-5) -> None:
    if isinstance(exp, dict):
        assert sorted(got) == sorted(exp), what
        for k in exp:
            _close(got[k], exp[k], f"{what}.{k}", rtol, atol)
    elif isinstance(exp, list) and exp and isinstance(exp[0], str):  # [name, value]
        assert got[0] == exp[0], what
        _close(got[1], exp[1], what + "." + exp[0], rtol, atol)
    elif exp is None or got is None:
        assert got is None and exp is None, what
    elif isinstance(exp, list) and (
        not exp or any(isinstance(e, (list, dict)) or e is None for e in exp)
    ):
        assert len(got) == len(exp), what
        for i, (g, e) in enumerate(zip(got, exp)):
            _close(g, e, f"{what}[{i}]", rtol, atol)
    else:
        np.testing.assert_allclose(
            np.asarray(got, dtype=np.float64), np.asarray(exp, dtype=np.float64),
            rtol=rtol, atol=atol, err_msg=what,
        )  # fmt: skip


def _check(name: str, part: str) -> None:
    rec = _recorded()[name]
    gap = _gaps().get(f"{name}:{part}")
    try:
        if part == "init":
            _close(run(kr, name)["init"], rec["init"], f"{name} init", rtol=1e-5, atol=1e-6)
        else:
            got = run(kr, name, rec["init"])
            opts = CASES[name][2]
            tol = {"rtol": opts.get("rtol", 2e-4), "atol": opts.get("atol", 2e-5)}
            for key in ("out", "grads", "after"):
                _close(got[key], rec[key], f"{name} {key}", **tol)
    except (AssertionError, Exception) as e:
        if gap is not None:
            pytest.xfail(gap)
        raise e
    assert gap is None, f"{name}:{part} now matches: remove it from tests/nn/known_gaps.txt"


@pytest.mark.parametrize("name", sorted(CASES))
def test_module_matches_pytorch(name: str) -> None:
    _check(name, "run")


@pytest.mark.parametrize("name", sorted(CASES))
def test_module_init_from_pytorch_seed(name: str) -> None:
    _check(name, "init")


def test_every_case_recorded() -> None:
    missing = sorted(set(CASES) - set(_recorded()))
    assert not missing, f"run tools/record_nn_modules.py: {missing}"
