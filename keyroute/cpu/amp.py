"""torch.cpu.amp: the deprecated spellings of torch.amp's autocast and GradScaler for CPU."""

from __future__ import annotations

import warnings
from typing import Any

from ..amp import autocast as _autocast
from ..tensor import dtype as _dt

__all__ = ["autocast"]


class autocast(_autocast):  # noqa: N801 - PyTorch's name
    def __init__(
        self, enabled: bool = True, dtype: Any = _dt.bfloat16, cache_enabled: bool = True
    ) -> None:
        warnings.warn(
            "`torch.cpu.amp.autocast(args...)` is deprecated. "
            "Please use `torch.amp.autocast('cpu', args...)` instead.",
            FutureWarning,
            stacklevel=2,
        )
        super().__init__("cpu", dtype=dtype, enabled=enabled, cache_enabled=cache_enabled)
