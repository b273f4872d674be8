"""torch.backends.cudnn on a CPU build: unavailable, with PyTorch's default flags."""

from __future__ import annotations

import sys
from collections.abc import Iterator
from contextlib import AbstractContextManager
from typing import Any

from ._flags import set_flags

__all__ = ["is_available", "version", "is_acceptable", "flags"]

enabled = True
benchmark = False
benchmark_limit = 10
deterministic = False
allow_tf32 = True
fp32_precision = "none"


def is_available() -> bool:
    return False


def version() -> int | None:
    return None


def is_acceptable(tensor: Any) -> bool:
    return False


def flags(
    enabled: bool | None = False,
    benchmark: bool | None = False,
    benchmark_limit: int | None = 10,
    deterministic: bool | None = False,
    allow_tf32: bool | None = True,
) -> AbstractContextManager[Iterator[None]]:
    return set_flags(
        sys.modules[__name__],
        enabled=enabled,
        benchmark=benchmark,
        benchmark_limit=benchmark_limit,
        deterministic=deterministic,
        allow_tf32=allow_tf32,
    )
