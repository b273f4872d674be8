"""Comparing a keyroute case result with PyTorch's recorded one (tests/library, tests/utils).

Equal, except that an error may be a keyroute subclass of PyTorch's error type (SchemaCheckError
is a RuntimeError) and its message may go on after PyTorch's whole message: keyroute's errors
say PyTorch's words first, then name the operator and what to change.
"""

from __future__ import annotations

import json
import os
from typing import Any

DATA = os.path.join(os.path.dirname(__file__), "data")
#: keyroute's error class -> the PyTorch class it subclasses, where the names differ.
ERROR_BASES = {"SchemaCheckError": "RuntimeError"}


def recorded(name: str) -> dict[str, Any]:
    with open(os.path.join(DATA, f"extension_{name}.json"), encoding="utf-8") as f:
        return json.load(f)["cases"]


def known_gaps(path: str) -> dict[str, str]:
    """`<case name> <gap name>: <reason>` lines -> {case name: gap name}."""
    gaps = {}
    with open(path, encoding="utf-8") as f:
        for line in f:
            line = line.strip()
            if line and not line.startswith("#"):
                case, _, rest = line.partition(" ")
                gaps[case] = rest.split(":", 1)[0].strip()
    return gaps


def mismatch(expected: Any, got: Any, where: str = "") -> str | None:
    """None when `got` matches `expected` (see the module docstring), else where it differs."""
    if isinstance(expected, dict) and isinstance(got, dict):
        if "error" in expected and "msg" in expected and "error" in got and "msg" in got:
            if ERROR_BASES.get(got["error"], got["error"]) != expected["error"]:
                return f"{where}: error {got['error']} != {expected['error']}"
            e, g = expected["msg"], got["msg"]
            if e != g and not (isinstance(e, str) and isinstance(g, str) and g.startswith(e)):
                return f"{where}: message\n  {g!r}\ndoes not start with PyTorch's\n  {e!r}"
            rest = {k: v for k, v in expected.items() if k not in ("error", "msg")}
            return mismatch(
                rest, {k: v for k, v in got.items() if k not in ("error", "msg")}, where
            )
        if set(expected) != set(got):
            return f"{where}: keys {sorted(got)} != {sorted(expected)}"
        for k in expected:
            m = mismatch(expected[k], got[k], f"{where}/{k}")
            if m:
                return m
        return None
    if isinstance(expected, list) and isinstance(got, list):
        if len(expected) != len(got):
            return f"{where}: {len(got)} items != {len(expected)}:\n  {got}\n  {expected}"
        for i, (e, g) in enumerate(zip(expected, got)):
            m = mismatch(e, g, f"{where}[{i}]")
            if m:
                return m
        return None
    return None if expected == got else f"{where}: {got!r} != {expected!r}"
