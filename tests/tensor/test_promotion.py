"""keyroute's type promotion against PyTorch's, recorded by tools/record_promotion.py.

Every pair of the 12 dtypes as tensors with dimensions and zero-dim tensors, and each dtype
with Python scalars (bool, int, float, complex) on either side: `result_type` and the dtype
(or error type) of `a + b`, `a / b`, `a < b`, `a * b`; the scalar cases again with float64
as the default dtype.
"""

from __future__ import annotations

import json
import os
from typing import Any

import pytest

import keyroute
from keyroute.aten._promotion import result_type

DATA = os.path.join(os.path.dirname(__file__), "..", "data", "promotion.json")
with open(DATA, encoding="utf-8") as _f:
    RECORDED = json.load(_f)

OPS = {
    "add": lambda a, b: a + b,
    "div": lambda a, b: a / b,
    "lt": lambda a, b: a < b,
    "mul": lambda a, b: a * b,
}
# keyroute has no complex32 (ComplexHalf): PyTorch's float16 + complex gives it.
UNREPRESENTABLE = "complex32"


def operand(spec: dict[str, Any]) -> Any:
    if spec["kind"] == "scalar":
        return {"bool": True, "int": 3, "float": 2.5, "complex": 1 + 2j}[spec["type"]]
    dt = getattr(keyroute, spec["dtype"] if spec["dtype"] != "bool" else "bool_")
    if spec["kind"] == "zerodim":
        return keyroute.ones((), dtype=dt)
    return keyroute.ones(2, dtype=dt)


def outcome(fn: Any) -> Any:
    try:
        value = fn()
    except Exception as e:  # noqa: BLE001 - errors are outcomes too
        return {"error": type(e).__name__}
    if isinstance(value, keyroute.dtype):
        return value.name
    return value.dtype.name


def _label(spec: dict[str, Any]) -> str:
    if spec["kind"] == "scalar":
        return f"py{spec['type']}"
    return f"{spec['kind']}-{spec['dtype']}"


def _params(rows: list[dict[str, Any]]) -> list[Any]:
    out = []
    for row in rows:
        marks = []
        if UNREPRESENTABLE in json.dumps(row):
            marks.append(pytest.mark.xfail(reason="keyroute has no complex32", strict=True))
        out.append(pytest.param(row, id=f"{_label(row['a'])}-{_label(row['b'])}", marks=marks))
    return out


def _check(row: dict[str, Any]) -> None:
    a, b = operand(row["a"]), operand(row["b"])
    got = {"result_type": outcome(lambda: result_type(a, b))}
    for name, fn in OPS.items():
        got[name] = outcome(lambda fn=fn: fn(a, b))
    expected = {k: row[k] for k in got}
    assert got == expected


@pytest.mark.parametrize("row", _params(RECORDED["cases"]))
def test_promotion(row: dict[str, Any]) -> None:
    _check(row)


@pytest.mark.parametrize("row", _params(RECORDED["default_float64"]))
def test_promotion_default_float64(row: dict[str, Any]) -> None:
    keyroute.set_default_dtype(keyroute.float64)
    try:
        _check(row)
    finally:
        keyroute.set_default_dtype(keyroute.float32)


def test_recording_covers_every_pair() -> None:
    dims = [
        r for r in RECORDED["cases"] if r["a"]["kind"] != "scalar" and r["b"]["kind"] != "scalar"
    ]
    assert len(dims) == (12 * 2) ** 2
    scalars = [r for r in RECORDED["cases"] if "scalar" in (r["a"]["kind"], r["b"]["kind"])]
    assert len(scalars) == 12 * 2 * 4 * 2


def test_binary_cache_follows_default_dtype() -> None:
    """The binary fast path caches result dtypes: a default dtype change must reach it."""
    x = keyroute.ones(2, dtype=keyroute.int64)
    assert (x * 2.5).dtype is keyroute.float32
    keyroute.set_default_dtype(keyroute.float64)
    try:
        assert (x * 2.5).dtype is keyroute.float64
    finally:
        keyroute.set_default_dtype(keyroute.float32)
    assert (x * 2.5).dtype is keyroute.float32
