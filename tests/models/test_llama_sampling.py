"""Sampling (temperature, top-k, top-p) against PyTorch's draws with the same seeds, recorded
by tools/record_smollm2.py; needs no weights."""

from __future__ import annotations

import json
from pathlib import Path

import numpy as np
import pytest

import keyroute
from keyroute.models.llama_sampling import check_sampling, sample_next

REF = np.load(Path(__file__).resolve().parents[1] / "data" / "smollm2_reference.npz")
SETTINGS = json.loads(str(REF["sampling_settings"]))


@pytest.mark.parametrize("j", range(len(SETTINGS["fixed"])))
def test_draws_match_pytorch(j: int) -> None:
    temperature, top_k, top_p, seed = SETTINGS["fixed"][j]
    logits = keyroute.from_numpy(REF["sampling_logits"].copy())
    g = keyroute.Generator().manual_seed(seed)
    want = REF[f"sampling_{j}"].tolist()
    got = [sample_next(logits, temperature, top_k, top_p, g) for _ in range(len(want))]
    assert got == want


def test_top_k_and_top_p_restrict_the_draw() -> None:
    logits = keyroute.from_numpy(REF["sampling_logits"].copy())
    order = np.argsort(-REF["sampling_logits"])
    g = keyroute.Generator().manual_seed(0)
    assert {sample_next(logits, 1.0, 3, None, g) for _ in range(60)} <= set(order[:3].tolist())
    # top_p tiny: only the most likely token survives
    assert {sample_next(logits, 1.0, None, 1e-6, g) for _ in range(10)} == {int(order[0])}


def test_greedy_is_argmax() -> None:
    logits = keyroute.from_numpy(REF["sampling_logits"].copy())
    assert sample_next(logits) == int(np.argmax(REF["sampling_logits"]))


@pytest.mark.parametrize(
    "args,message",
    [
        ((-1.0, None, None), "`temperature` (=-1.0) has to be a non-negative float"),
        ((1.0, 0, None), "`top_k` has to be a strictly positive integer, but is 0"),
        ((1.0, None, 1.5), "`top_p` has to be a float > 0 and <= 1, but is 1.5"),
        ((1.0, None, 0.0), "`top_p` has to be a float > 0 and <= 1, but is 0.0"),
    ],
)
def test_bad_settings(args: tuple, message: str) -> None:
    with pytest.raises(ValueError) as e:
        check_sampling(*args)
    assert message in str(e.value)
