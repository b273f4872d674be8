"""Every aten operator keyroute defines has exactly PyTorch 2.13's schema (recorded)."""

from __future__ import annotations

import gzip
import json
import os

import keyroute  # noqa: F401
from keyroute.dispatcher.operator import all_ops

DATA = os.path.join(os.path.dirname(__file__), "..", "data", "schemas.json.gz")


def _pytorch_schemas() -> dict[str, str]:
    with gzip.open(DATA, "rt") as f:
        schemas = json.load(f)["schemas"]
    out = {}
    for s in schemas:
        q = s["name"] + (f".{s['overload_name']}" if s["overload_name"] else "")
        out[q] = s["str"]
    return out


def test_aten_schemas_are_pytorchs() -> None:
    pytorch = _pytorch_schemas()
    wrong, unknown = [], []
    for op in all_ops():
        if op.namespace != "aten" or op._schema is None:
            continue
        q = op.qualified_name()
        if q not in pytorch:
            unknown.append(q)
        elif str(op._schema) != pytorch[q]:
            wrong.append(f"{q}: keyroute {op._schema} != PyTorch {pytorch[q]}")
    assert not unknown, f"aten operators PyTorch 2.13 does not have: {unknown}"
    assert not wrong, "\n".join(wrong)
