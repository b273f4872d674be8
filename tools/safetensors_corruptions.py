"""Corrupt safetensors files, built by hand from a valid one (no library needed).

Shared by tools/record_corrupt_files.py (the safetensors library's outcome of each) and
tests/reliability/test_corrupt_files.py (keyroute's reader against it).
"""

from __future__ import annotations

import json
import struct

import numpy as np

A = np.arange(4, dtype=np.float32)
B = np.ones(2, dtype=np.float32)


def _header(h: object) -> bytes:
    s = json.dumps(h).encode()
    return struct.pack("<Q", len(s)) + s


def base_header() -> dict:
    return {
        "a": {"dtype": "F32", "shape": [4], "data_offsets": [0, 16]},
        "b": {"dtype": "F32", "shape": [2], "data_offsets": [16, 24]},
    }


BODY = A.tobytes() + B.tobytes()


def valid() -> bytes:
    return _header(base_header()) + BODY


def _with(change: dict) -> bytes:
    h = base_header()
    for name, fields in change.items():
        h[name].update(fields)
    return _header(h) + BODY


def corruptions() -> dict[str, bytes]:
    ok = valid()
    (n,) = struct.unpack("<Q", ok[:8])
    no_dtype = base_header()
    del no_dtype["b"]["dtype"]
    return {
        "short": ok[:5],
        "header_too_large": struct.pack("<Q", 2**60) + ok[8:],
        "header_past_end": struct.pack("<Q", n + 1000) + ok[8:],
        "bad_utf8": struct.pack("<Q", 4) + b"\xff\xfe\xfd\xfc",
        "bad_json": struct.pack("<Q", 4) + b"{abc",
        "truncated": ok[:-4],
        "offset_out_of_range": _with({"b": {"data_offsets": [16, 10**6]}}),
        "shape_mismatch": _with({"b": {"shape": [3]}}),
        "missing_dtype": _header(no_dtype) + BODY,
        "unknown_dtype": _with({"b": {"dtype": "Q9"}}),
        "overlapping": _with({"b": {"data_offsets": [8, 16]}}),
        "list_header": _header([1, 2]),
    }
