"""torch.mps on a machine without Apple's Metal: present, with no device behind it."""

from __future__ import annotations

__all__ = ["is_available", "device_count", "manual_seed", "seed", "synchronize", "empty_cache"]


def is_available() -> bool:
    return False


def device_count() -> int:
    return 0


def manual_seed(seed: int) -> None:
    """No-op without an MPS device, as PyTorch's."""
    int(seed)


def seed() -> None:
    return None


def synchronize() -> None:
    raise RuntimeError("Cannot execute deviceSynchronize() without MPS backend.")


def empty_cache() -> None:
    return None


def current_allocated_memory() -> int:
    return 0


def driver_allocated_memory() -> int:
    return 0
