"""Layouts and memory formats (torch.strided, torch.contiguous_format, ...).

Schemas carry them as ints (MemoryFormat contiguous_format = 0); both forms are accepted.
"""

from __future__ import annotations

from typing import Any

__all__ = [
    "layout",
    "strided",
    "memory_format",
    "contiguous_format",
    "preserve_format",
    "channels_last",
    "channels_last_3d",
    "to_memory_format",
]


class layout:  # noqa: N801
    __slots__ = ("name", "value")

    def __init__(self, name: str, value: int) -> None:
        self.name, self.value = name, value

    def __repr__(self) -> str:
        return f"keyroute.{self.name}"

    def __int__(self) -> int:
        return self.value


strided = layout("strided", 0)


class memory_format:  # noqa: N801
    __slots__ = ("name", "value")

    def __init__(self, name: str, value: int) -> None:
        self.name, self.value = name, value

    def __repr__(self) -> str:
        return f"keyroute.{self.name}"

    def __int__(self) -> int:
        return self.value


contiguous_format = memory_format("contiguous_format", 0)
preserve_format = memory_format("preserve_format", 1)
channels_last = memory_format("channels_last", 2)
channels_last_3d = memory_format("channels_last_3d", 3)
_BY_VALUE = {
    m.value: m for m in (contiguous_format, preserve_format, channels_last, channels_last_3d)
}


def to_memory_format(x: Any) -> memory_format | None:
    """A memory_format from None, a memory_format or its int (schema) value."""
    if x is None or isinstance(x, memory_format):
        return x
    return _BY_VALUE[int(x)]
