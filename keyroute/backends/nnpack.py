"""torch.backends.nnpack: not part of keyroute."""

from __future__ import annotations

__all__ = ["is_available"]

enabled = False


def is_available() -> bool:
    return False
