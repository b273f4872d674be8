"""Coverage of PyTorch 2.13's torch.nn module classes and torch.nn.functional functions
(tests/data/nn_namespace.json, tools/record_nn_namespace.py). tests/nn/nn_missing.txt names
what keyroute lacks; it may only shrink: a name implemented must leave it, and no name may
go missing."""

from __future__ import annotations

import json
import os

import keyroute as kr

HERE = os.path.dirname(__file__)
DATA = os.path.join(HERE, "..", "data", "nn_namespace.json")
MISSING = os.path.join(HERE, "nn_missing.txt")


def _names() -> list[str]:
    data = json.load(open(DATA))
    return [f"nn.{n}" for n in data["nn_classes"]] + [f"F.{n}" for n in data["functional"]]


def _has(name: str) -> bool:
    kind, _, attr = name.partition(".")
    return hasattr(kr.nn if kind == "nn" else kr.nn.functional, attr)


def _listed() -> set[str]:
    return {line.split()[0] for line in open(MISSING) if line.strip() and not line.startswith("#")}


def test_nothing_new_is_missing() -> None:
    missing = {n for n in _names() if not _has(n)}
    new = sorted(missing - _listed())
    assert not new, f"torch.nn names keyroute lost (or that were never listed): {new}"


def test_missing_list_only_shrinks() -> None:
    now_present = sorted(n for n in _listed() if _has(n))
    assert not now_present, f"implemented now, remove from tests/nn/nn_missing.txt: {now_present}"


def test_coverage_count() -> None:
    names = _names()
    have = [n for n in names if _has(n)]
    classes = [n for n in names if n.startswith("nn.")]
    # the figures the report quotes; a drop fails test_nothing_new_is_missing first
    assert len(have) >= len(names) - len(_listed())
    assert len(classes) > 100
