"""A validating reader of safetensors headers, for the loader without the optional package.

It refuses what the safetensors library refuses, with its exception class (SafetensorError,
the library's own when it is installed) and its "Error while deserializing header: ..."
messages, and it checks the whole header (every offset against the file size) before any
tensor is read, so a corrupt or truncated file never half-loads a model.
"""

from __future__ import annotations

import json
import os
import struct
from pathlib import Path
from typing import Any

__all__ = ["SafetensorError", "read_header"]

try:  # the library's class when present, so `except SafetensorError` works for both
    from safetensors import SafetensorError
except ImportError:  # pragma: no cover - exercised on installs without the extra

    class SafetensorError(Exception):  # type: ignore[no-redef]
        """A corrupt safetensors file (the safetensors library's exception)."""


_MAX_HEADER = 100_000_000
# safetensors dtype name -> bits per element (the library's Dtype::bitsize)
_BITS = {
    "BOOL": 8, "U8": 8, "I8": 8, "F8_E5M2": 8, "F8_E4M3": 8, "F8_E8M0": 8,
    "I16": 16, "U16": 16, "F16": 16, "BF16": 16, "I32": 32, "U32": 32, "F32": 32,
    "C64": 64, "F64": 64, "I64": 64, "U64": 64, "C128": 128, "F4": 4,
    "F6_E2M3": 6, "F6_E3M2": 6,
}  # fmt: skip


def _fail(reason: str) -> SafetensorError:
    return SafetensorError(f"Error while deserializing header: {reason}")


def _entry(name: str, info: Any) -> tuple[str, list[int], tuple[int, int]]:
    if not isinstance(info, dict):
        raise _fail(f"invalid JSON in header: invalid type for tensor `{name}`, expected struct")
    for field in ("dtype", "shape", "data_offsets"):
        if field not in info:
            raise _fail(f"invalid JSON in header: missing field `{field}`")
    dtype, shape, offsets = info["dtype"], info["shape"], info["data_offsets"]
    if dtype not in _BITS:
        raise _fail(f"invalid JSON in header: unknown variant `{dtype}`")
    ok_int = lambda v: isinstance(v, int) and not isinstance(v, bool) and v >= 0  # noqa: E731
    if not isinstance(shape, list) or not all(ok_int(s) for s in shape):
        raise _fail("invalid JSON in header: invalid type for `shape`, expected a sequence")
    if not (isinstance(offsets, list) and len(offsets) == 2 and all(ok_int(o) for o in offsets)):
        raise _fail("invalid JSON in header: invalid type for `data_offsets`, expected a pair")
    return dtype, shape, (offsets[0], offsets[1])


def read_header(path: str | Path) -> tuple[dict[str, Any], int]:
    """The validated header (name -> {"dtype", "shape", "data_offsets"}, plus "__metadata__")
    and the byte offset where tensor data starts; SafetensorError for a corrupt file."""
    size = os.path.getsize(path)
    with open(path, "rb") as f:
        raw = f.read(8)
        if len(raw) < 8:
            raise _fail("header too small")
        (n,) = struct.unpack("<Q", raw)
        if n > _MAX_HEADER:
            raise _fail("header too large")
        if 8 + n > size:
            raise _fail("invalid header length")
        text = f.read(n)
    try:
        decoded = text.decode("utf-8")
    except UnicodeDecodeError as exc:
        raise _fail(f"invalid UTF-8 in header: {exc.reason}") from None
    try:
        header = json.loads(decoded)
    except ValueError as exc:
        raise _fail(f"invalid JSON in header: {exc}") from None
    if not isinstance(header, dict):
        raise _fail("invalid JSON in header: invalid type, expected struct HashMetadata")
    entries = [(k, _entry(k, v)) for k, v in header.items() if k != "__metadata__"]
    entries.sort(key=lambda e: e[1][2])
    start = 0
    for name, (dtype, shape, (begin, end)) in entries:
        if begin != start or end < begin:
            raise _fail(f"invalid offset for tensor `{name}`")
        start = end
        count = 1
        for s in shape:
            count *= s
        bits = count * _BITS[dtype]
        if bits % 8 or end - begin != bits // 8:
            raise _fail("invalid shape, data type, or offset for tensor")
    if start + 8 + n != size:
        raise _fail("incomplete metadata, file not fully covered")
    return header, 8 + n
