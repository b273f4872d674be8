"""torch.cpu: the CPU device module (always available, one device) and torch.cpu.amp."""

from __future__ import annotations

from typing import Any

from . import amp

__all__ = [
    "amp",
    "current_device",
    "device_count",
    "is_available",
    "is_initialized",
    "set_device",
    "synchronize",
]


def is_available() -> bool:
    return True


def is_initialized() -> bool:
    return True


def device_count() -> int:
    return 1


def current_device() -> str:
    return "cpu"


def set_device(device: Any) -> None:
    """A no-op, as PyTorch's: the CPU is the one CPU device."""


def synchronize(device: Any = None) -> None:
    """CPU work is synchronous here: nothing to wait for."""
