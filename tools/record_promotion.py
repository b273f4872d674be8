"""Record PyTorch's type promotion for every pair of operands into tests/data/promotion.json.

    python tools/record_promotion.py

For each of the 12 dtypes paired with each other, as a tensor with dimensions ("dim"), a
zero-dim tensor ("zerodim") or, for the second operand, a Python scalar (bool, int, float,
complex) in both orders, it records `torch.result_type(a, b)` and the output dtype (or the
error type) of `a + b`, `a / b`, `a < b` and `a * b` (the Python operators, which call
torch.add & co. with a Python scalar passed as a wrapped number). The scalar cases are also
recorded under `torch.set_default_dtype(torch.float64)`. Needs torch==2.13.0.
tests/tensor/test_promotion.py checks keyroute against this file.
"""

from __future__ import annotations

import json
import os
import sys
from typing import Any

import torch

DTYPES = [
    "bool",
    "uint8",
    "int8",
    "int16",
    "int32",
    "int64",
    "float16",
    "bfloat16",
    "float32",
    "float64",
    "complex64",
    "complex128",
]
SCALARS: list[tuple[str, Any]] = [("bool", True), ("int", 3), ("float", 2.5), ("complex", 1 + 2j)]
KINDS = ("dim", "zerodim")
OPS = {
    "add": lambda a, b: a + b,
    "div": lambda a, b: a / b,
    "lt": lambda a, b: a < b,
    "mul": lambda a, b: a * b,
}
OUT = os.path.join(os.path.dirname(__file__), "..", "tests", "data", "promotion.json")


def operand(spec: dict[str, Any]) -> Any:
    """A torch operand from its JSON description."""
    if spec["kind"] == "scalar":
        return {"bool": True, "int": 3, "float": 2.5, "complex": 1 + 2j}[spec["type"]]
    dt = getattr(torch, spec["dtype"])
    if spec["kind"] == "zerodim":
        return torch.ones((), dtype=dt)
    return torch.ones(2, dtype=dt)


def outcome(fn: Any) -> Any:
    try:
        value = fn()
    except Exception as e:  # noqa: BLE001 - errors are outcomes too
        return {"error": type(e).__name__}
    if isinstance(value, torch.dtype):
        return str(value).split(".")[-1]
    return str(value.dtype).split(".")[-1]


def cases() -> list[tuple[dict[str, Any], dict[str, Any]]]:
    out = []
    for da in DTYPES:
        for ka in KINDS:
            a = {"kind": ka, "dtype": da}
            for db in DTYPES:
                for kb in KINDS:
                    out.append((a, {"kind": kb, "dtype": db}))
            for sname, _ in SCALARS:
                s = {"kind": "scalar", "type": sname}
                out.append((a, s))
                out.append((s, a))
    return out


def record(pairs: list[tuple[dict[str, Any], dict[str, Any]]]) -> list[dict[str, Any]]:
    rows = []
    for sa, sb in pairs:
        a, b = operand(sa), operand(sb)
        row: dict[str, Any] = {"a": sa, "b": sb}
        row["result_type"] = outcome(lambda a=a, b=b: torch.result_type(a, b))
        for name, fn in OPS.items():
            row[name] = outcome(lambda fn=fn, a=a, b=b: fn(a, b))
        rows.append(row)
    return rows


def main() -> None:
    torch.set_num_threads(1)
    pairs = cases()
    data: dict[str, Any] = {"torch_version": torch.__version__, "cases": record(pairs)}
    scalar_pairs = [p for p in pairs if "scalar" in (p[0]["kind"], p[1]["kind"])]
    torch.set_default_dtype(torch.float64)
    try:
        data["default_float64"] = record(scalar_pairs)
    finally:
        torch.set_default_dtype(torch.float32)
    with open(OUT, "w", encoding="utf-8") as f:
        json.dump(data, f, indent=None, separators=(",", ":"))
        f.write("\n")
    print(f"{len(data['cases'])} cases, {len(data['default_float64'])} with float64 default")


if __name__ == "__main__":
    main()
    sys.exit(0)
