"""torch.backends.mkldnn: PyTorch's oneDNN switch. keyroute has no oneDNN (its CPU kernels are
NumPy's), so it reports unavailable; the flags hold PyTorch's defaults."""

from __future__ import annotations

import sys
from collections.abc import Iterator
from contextlib import AbstractContextManager

from ._flags import set_flags

__all__ = ["is_available", "flags"]

enabled = True
deterministic = False
allow_tf32 = False
fp32_precision = "none"


def is_available() -> bool:
    return False


def flags(
    enabled: bool | None = False, deterministic: bool | None = False
) -> AbstractContextManager[Iterator[None]]:
    return set_flags(sys.modules[__name__], enabled=enabled, deterministic=deterministic)
