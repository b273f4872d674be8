"""Every torch.nn.init fill bit-identical with PyTorch 2.13's from the same seed, its errors
and its gains (recorded by tools/record_nn_init.py in tests/data/nn_init.json)."""

from __future__ import annotations

import json
import os
import warnings

import numpy as np
import pytest

import keyroute as kr
import keyroute.nn.init as init

HERE = os.path.dirname(__file__)
with open(os.path.join(HERE, "..", "data", "nn_init.json"), encoding="utf-8") as _f:
    RECORDED = json.load(_f)
GAPS = dict(
    (line.split(" ", 1) + [""])[:2]
    for line in open(os.path.join(HERE, "init_known_gaps.txt"), encoding="utf-8")
    .read()
    .splitlines()
    if line.strip() and not line.startswith("#")
)


@pytest.mark.parametrize("case", sorted(RECORDED["fills"]))
def test_fill_is_bit_identical(case: str) -> None:
    rec = RECORDED["fills"][case]
    kr.manual_seed(rec["seed"])
    t = kr.empty(rec["shape"], dtype=getattr(kr, rec["dtype"]))
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        r = getattr(init, rec["fn"])(t, *rec["args"], **rec["kwargs"])
    assert r is t
    want = np.array(rec["values"], dtype=rec["dtype"])
    got = t.numpy().reshape(-1)
    assert got.dtype == want.dtype
    if case in GAPS:  # close, not bit-identical: assert both, so a fix shows
        np.testing.assert_allclose(got, want, rtol=1e-5, atol=1e-6)
        assert got.tobytes() != want.tobytes(), f"{case} now matches: remove it from the gaps"
        pytest.xfail(GAPS[case])
    assert got.tobytes() == want.tobytes(), (got, want)
    assert [str(w.message) for w in caught] == rec["warnings"]


@pytest.mark.parametrize("case", sorted(RECORDED["errors"]))
def test_error_as_pytorchs(case: str) -> None:
    rec = RECORDED["errors"][case]
    t = kr.zeros(rec["shape"])
    with pytest.raises(Exception) as info:
        getattr(init, rec["fn"])(t, *rec["args"], **rec["kwargs"])
    assert type(info.value).__name__ == rec["type"]
    assert str(info.value) == rec["message"]
    assert not t.any().item()  # bad input leaves the tensor unchanged


def test_gains() -> None:
    for name, param, gain in RECORDED["gains"]:
        assert init.calculate_gain(name, param) == gain, name


def test_every_pytorch_fill_is_recorded() -> None:
    public = {n for n in dir(init) if not n.startswith("_") and callable(getattr(init, n))} - {
        "calculate_gain",
        "no_grad",
        "Tensor",
        "deprecated_alias",
        "dirac_",
        "orthogonal_",
        "sparse_",
    }
    recorded = {rec["fn"] for rec in RECORDED["fills"].values()}
    assert {"orthogonal_", "sparse_", "dirac_"} <= recorded
    assert {n for n in public if n.endswith("_")} <= recorded
