"""keyroute's random streams equal PyTorch 2.13's bit for bit (recorded by
tools/record_random.py; compared live too when torch is importable)."""

from __future__ import annotations

import hashlib
import json
from pathlib import Path
from typing import Any

import numpy as np
import pytest

import keyroute as kr
from tests.random.cases import CASES

DATA = Path(__file__).resolve().parents[1] / "data" / "random_streams.npz"
GAPS_FILE = Path(__file__).with_name("known_gaps.txt")


def _gaps() -> dict[str, str]:
    gaps = {}
    for line in GAPS_FILE.read_text().splitlines():
        line = line.strip()
        if line and not line.startswith("#"):
            name, _, reason = line.partition(" ")
            gaps[name] = reason.strip()
    return gaps


GAPS = _gaps()
_DATA = np.load(DATA)
_META: dict[str, list[str]] = json.loads(bytes(_DATA["__meta__"]).decode())


def _raw(v: Any) -> tuple[np.ndarray, str]:
    assert isinstance(v, kr.Tensor), type(v)
    t = v.detach().contiguous()
    name = str(t.dtype).removeprefix("keyroute.")
    if name in ("float16", "bfloat16"):
        return t.view(kr.int16).numpy().copy(), name
    return t.numpy().copy(), name


def _mismatches(name: str, values: list[Any]) -> list[str]:
    want = _META[name]
    problems = []
    if len(values) != len(want):
        return [f"{len(values)} values, PyTorch gave {len(want)}"]
    for i, (v, dt) in enumerate(zip(values, want)):
        got, got_dt = _raw(v)
        exp = _DATA[f"{name}/{i}"]
        if got_dt != dt:
            problems.append(f"value {i}: dtype {got_dt}, PyTorch's {dt}")
        elif got.shape != exp.shape:
            problems.append(f"value {i}: shape {got.shape}, PyTorch's {exp.shape}")
        elif got.tobytes() != exp.tobytes():
            rows_g = got.reshape(got.size, -1).view(np.uint8)
            rows_e = exp.reshape(exp.size, -1).view(np.uint8)
            bad = np.flatnonzero((rows_g != rows_e).any(axis=1))
            problems.append(
                f"value {i}: {bad.size} of {exp.size} elements differ, first at {bad[0]}"
            )
    return problems


@pytest.mark.parametrize("name", sorted(CASES))
def test_stream_matches_pytorch(name: str) -> None:
    problems = _mismatches(name, CASES[name](kr))
    if name in GAPS:
        assert problems, f"known gap {name!r} now matches PyTorch: remove it ({GAPS[name]})"
        return
    assert not problems, f"{name}: " + "; ".join(problems)


def test_known_gaps_name_cases() -> None:
    assert set(GAPS) <= set(CASES), sorted(set(GAPS) - set(CASES))


INTEL = json.loads((DATA.parent / "random_streams_intel_cpuid.json").read_text())


@pytest.mark.parametrize("name", sorted(CASES))
def test_stream_matches_pytorch_on_an_intel_cpu(name: str) -> None:
    """PyTorch 2.13 under valgrind's GenuineIntel CPUID (tools/record_random_intel_cpuid.py):
    no kernel takes a vendor-specific path (older PyTorch drew bernoulli_(float p) from MKL's
    MCG31 stream on Intel CPUs), so keyroute's values are an Intel CPU's too."""
    assert INTEL["cpu"] == ["GenuineIntel", "AVX2"]
    want = INTEL["values"][name]
    got = [_raw(v) for v in CASES[name](kr)]
    assert [dt for _, dt in got] == [dt for _, dt in want]
    digests = [hashlib.sha256(arr.tobytes()).hexdigest() for arr, _ in got]
    if name in GAPS:
        assert digests != [d for d, _ in want], f"known gap {name!r} now matches"
        return
    assert digests == [d for d, _ in want], name


@pytest.mark.parametrize("name", sorted(CASES))
def test_recorded_data_is_torch_live(name: str) -> None:
    """The recorded values are what the installed PyTorch gives (when it is importable)."""
    torch = pytest.importorskip("torch")
    if not torch.__version__.startswith("2.13"):
        pytest.skip("recorded with torch 2.13")
    values = CASES[name](torch)
    for i, v in enumerate(values):
        t = v.detach().contiguous()
        arr = (
            t.view(torch.int16).numpy() if t.dtype in (torch.float16, torch.bfloat16) else t.numpy()
        )
        assert arr.tobytes() == _DATA[f"{name}/{i}"].tobytes(), f"{name} value {i}"
