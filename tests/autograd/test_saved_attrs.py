"""`grad_fn._saved_<name>` as PyTorch 2.13 exposes them (recorded by
tools/record_saved_attrs.py in tests/data/saved_attrs.json): for the node of each case's
result, the node's name and every saved attribute PyTorch has, under PyTorch's name and with
its value. Cases that still differ are listed in saved_attrs_known_gaps.txt."""

from __future__ import annotations

import json
import math
import os
import sys
from typing import Any

import pytest

import keyroute as kr

HERE = os.path.dirname(__file__)
sys.path.insert(0, os.path.join(HERE, "..", ".."))
from tools.record_saved_attrs import CASES, inputs  # noqa: E402

with open(os.path.join(HERE, "..", "data", "saved_attrs.json"), encoding="utf-8") as _f:
    RECORDED = json.load(_f)["cases"]
GAPS = dict(
    (line.split(" ", 1) + [""])[:2]
    for line in open(os.path.join(HERE, "saved_attrs_known_gaps.txt"), encoding="utf-8")
    .read()
    .splitlines()
    if line.strip() and not line.startswith("#")
)


def encode(v: Any) -> Any:
    if isinstance(v, kr.Tensor):
        return {
            "dtype": str(v.dtype).replace("keyroute.", "").replace("torch.", ""),
            "shape": list(v.shape),
            "values": v.detach().reshape(-1).tolist(),
        }
    if isinstance(v, (tuple, list)):
        return [encode(x) for x in v]
    if isinstance(v, (bool, int, float, str)) or v is None:
        return v
    return str(v).replace("keyroute.", "torch.")


def same(a: Any, b: Any) -> bool:
    if isinstance(a, float) or isinstance(b, float):
        return (
            isinstance(a, (int, float))
            and isinstance(b, (int, float))
            and (math.isclose(a, b, rel_tol=1e-5, abs_tol=1e-6) or (a != a and b != b))
        )
    if isinstance(a, dict) and isinstance(b, dict):
        return a.keys() == b.keys() and all(same(a[k], b[k]) for k in a)
    if isinstance(a, list) and isinstance(b, list):
        return len(a) == len(b) and all(same(x, y) for x, y in zip(a, b))
    return a == b


def differences(case: str) -> list[str]:
    """What keyroute's node of the case does differently from PyTorch's (empty: none)."""
    rec = RECORDED[case]
    node = eval(CASES[case], inputs(kr)).grad_fn
    out = []
    if type(node).__name__ != rec["node"]:
        out.append(f"node {type(node).__name__} (PyTorch {rec['node']})")
    for name, want in rec["saved"].items():
        try:
            got = encode(getattr(node, name))
        except AttributeError:
            out.append(f"{name} missing")
            continue
        if not same(got, want):
            out.append(f"{name} = {got!r} (PyTorch {want!r})")
    return out


@pytest.mark.parametrize("case", sorted(RECORDED))
def test_saved_attributes_as_pytorchs(case: str) -> None:
    diff = differences(case)
    if case in GAPS:
        assert diff, f"{case} now matches: remove it from saved_attrs_known_gaps.txt"
        pytest.xfail(GAPS[case])
    assert not diff, f"{case}: " + "; ".join(diff)


def test_recorded_cases_are_the_tools_cases() -> None:
    assert set(RECORDED) == set(CASES) and not set(GAPS) - set(CASES)
