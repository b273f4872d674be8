"""CUDA autocast against PyTorch 2.13's recorded policy on fake cuda tensors
(tools/record_autocast_cuda.py -> tests/data/autocast_cuda.json). Cases named in
autocast_cuda_known_gaps.txt must still differ (strict)."""

from __future__ import annotations

import json
import pathlib

import keyroute._subclasses.fake_tensor  # noqa: F401
import pytest

import keyroute
import keyroute.nn.functional  # noqa: F401
import keyroute.utils._python_dispatch  # noqa: F401

from ._compare import read_gaps
from .autocast_cuda_cases import AUTOCAST_DTYPES, CASES, VARIANTS, run_case

HERE = pathlib.Path(__file__).resolve().parent
DATA = json.loads((HERE.parent / "data/autocast_cuda.json").read_text())
GAPS = read_gaps(HERE / "autocast_cuda_known_gaps.txt")
KEYS = [f"{n}/{d}/{v}" for n in CASES for d in AUTOCAST_DTYPES for v in VARIANTS]


def _gap(key: str) -> str | None:
    return GAPS.get(key) or GAPS.get(key.split("/")[0])


def test_every_case_is_recorded() -> None:
    assert sorted(DATA["cases"]) == sorted(KEYS)


@pytest.mark.parametrize("key", [k for k in KEYS if _gap(k) is None])
def test_case_matches_pytorch(key: str) -> None:
    name, acd, variant = key.split("/")
    assert run_case(name, keyroute, acd, variant) == DATA["cases"][key]


@pytest.mark.parametrize("key", [k for k in KEYS if _gap(k) is not None])
def test_case_known_gap_still_differs(key: str) -> None:
    name, acd, variant = key.split("/")
    assert run_case(name, keyroute, acd, variant) != DATA["cases"][key], _gap(key)


def test_cuda_state_left_off() -> None:
    run_case("mm", keyroute, "float16", "fp32")
    assert not keyroute.is_autocast_enabled("cuda")
    assert keyroute.get_autocast_dtype("cuda") is keyroute.float16


def test_context_manager_disables_without_cuda() -> None:
    # As PyTorch's CPU build: torch.autocast("cuda") warns and leaves CUDA autocast off.
    with pytest.warns(UserWarning, match="CUDA is not available"):
        with keyroute.autocast("cuda"):
            assert not keyroute.is_autocast_enabled("cuda")


def test_cpu_tensors_untouched_by_cuda_autocast() -> None:
    a = keyroute.ones(2, 3)
    keyroute.set_autocast_enabled("cuda", True)
    try:
        assert keyroute.mm(a, a.t()).dtype is keyroute.float32
    finally:
        keyroute.set_autocast_enabled("cuda", False)
