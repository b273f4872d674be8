"""torch.cuda.amp: the deprecated spellings of torch.amp's autocast and GradScaler for CUDA."""

from __future__ import annotations

import warnings
from typing import Any

from ..amp import GradScaler as _GradScaler
from ..amp import autocast as _autocast

__all__ = ["autocast", "GradScaler"]


class autocast(_autocast):  # noqa: N801
    def __init__(self, enabled: bool = True, dtype: Any = None, cache_enabled: bool = True) -> None:
        warnings.warn(
            "`torch.cuda.amp.autocast(args...)` is deprecated. "
            "Please use `torch.amp.autocast('cuda', args...)` instead.",
            FutureWarning,
            stacklevel=2,
        )
        super().__init__("cuda", dtype=dtype, enabled=enabled, cache_enabled=cache_enabled)


class GradScaler(_GradScaler):
    def __init__(self, init_scale: float = 2.0**16, *args: Any, **kwargs: Any) -> None:
        warnings.warn(
            "`torch.cuda.amp.GradScaler(args...)` is deprecated. "
            "Please use `torch.amp.GradScaler('cuda', args...)` instead.",
            FutureWarning,
            stacklevel=2,
        )
        super().__init__("cuda", init_scale, *args, **kwargs)
