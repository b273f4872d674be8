"""The float32 rounding the public programs depend on, against PyTorch's recorded results
(tools/record_program_rounding.py): thin mm/addmm in MKL's sequential order
(keyroute/kernels/cpu/gemm_order.py), mse_loss reduced by a cascade sum, and x ** e through
Sleef's powf (keyroute/kernels/cpu/sleef_pow.py)."""

from __future__ import annotations

import json
import pathlib
import sys

import numpy as np
import pytest

import keyroute as torch

ROOT = pathlib.Path(__file__).resolve().parents[2]
sys.path.insert(0, str(ROOT / "tools"))
from record_program_rounding import gemm_inputs, mse_inputs, pow_inputs  # noqa: E402

RECORD = json.loads((ROOT / "tests/data/program_rounding.json").read_text())


def _bits(hexstr: str) -> np.ndarray:
    return np.frombuffer(bytes.fromhex(hexstr), np.float32)


@pytest.mark.parametrize("entry", RECORD["gemm"], ids=lambda e: "x".join(map(str, e["case"])))
def test_thin_mm_and_addmm_round_as_pytorch(entry: dict) -> None:
    case = tuple(entry["case"])
    a, b, bias = gemm_inputs(case, entry["seed"])
    ta, tb = torch.from_numpy(a), torch.from_numpy(b)
    if case[3]:
        ta = ta.t()
    if case[4]:
        tb = tb.t()
    mm = (ta @ tb).numpy().ravel()
    addmm = torch.addmm(torch.from_numpy(bias), ta, tb).numpy().ravel()
    assert mm.tobytes() == _bits(entry["mm"]).tobytes()
    assert addmm.tobytes() == _bits(entry["addmm"]).tobytes()


@pytest.mark.parametrize("entry", RECORD["mse_loss"], ids=lambda e: f"{e['n']}-{e['reduction']}")
def test_mse_loss_reduces_as_pytorch(entry: dict) -> None:
    x, y = mse_inputs(entry["n"], entry["seed"])
    r = torch.nn.functional.mse_loss(
        torch.from_numpy(x), torch.from_numpy(y), reduction=entry["reduction"]
    )
    assert r.numpy().tobytes() == _bits(entry["out"]).tobytes()


def test_unmodelled_shapes_keep_numpy_product() -> None:
    """A wide product is not in MKL's sequential order: gemm_order declines it."""
    from keyroute.kernels.cpu.gemm_order import sequential_gemm

    a = np.ones((5, 7), np.float32)
    assert sequential_gemm(a, np.ones((7, 3), np.float32)) is None
    assert sequential_gemm(a.astype(np.float64), np.ones((7, 1))) is None


@pytest.mark.parametrize("entry", RECORD["pow"], ids=lambda e: f"{e['n']}-{e['exponent']}")
def test_pow_scalar_rounds_as_pytorch(entry: dict) -> None:
    x = torch.from_numpy(pow_inputs(entry["n"], entry["seed"]))
    assert (x ** entry["exponent"]).numpy().tobytes() == _bits(entry["out"]).tobytes()


def test_pow_strided_input_takes_the_scalar_path() -> None:
    """A non-dense input is all tail in PyTorch's loop: double pow, rounded once."""
    from keyroute.kernels.cpu.sleef_pow import powf_like_pytorch

    a = np.linspace(0.5, 3, 64, dtype=np.float32).reshape(8, 8)[:, ::2]
    expected = np.power(a.astype(np.float64), 1.1).astype(np.float32)
    assert powf_like_pytorch(a, 1.1).tobytes() == expected.tobytes()
