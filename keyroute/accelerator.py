"""torch.accelerator: the current accelerator, of which a CPU machine has none."""

from __future__ import annotations

from typing import Any

__all__ = [
    "is_available",
    "current_accelerator",
    "device_count",
    "current_device_index",
    "set_device_index",
    "synchronize",
]

_NONE = "Cannot access accelerator device when none is available."


def is_available() -> bool:
    return False


def current_accelerator(check_available: bool = False) -> Any:
    """None: keyroute runs on the CPU, which PyTorch does not count as an accelerator."""
    return None


def device_count() -> int:
    return 0


def current_device_index() -> int:
    raise RuntimeError(_NONE)


current_device_idx = current_device_index


def set_device_index(device: Any) -> None:
    raise RuntimeError(_NONE)


set_device_idx = set_device_index


def synchronize(device: Any = None) -> None:
    raise RuntimeError(_NONE)
