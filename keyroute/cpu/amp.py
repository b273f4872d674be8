"""torch.cpu.amp: the deprecated spellings of torch.amp's autocast and GradScaler for CPU."""

from __future__ import annotations

import warnings
from typing import Any

from ..amp import GradScaler as _GradScaler
from ..amp import autocast as _autocast
from ..tensor import dtype as _dt

__all__ = ["autocast", "GradScaler"]


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


class GradScaler(_GradScaler):
    def __init__(
        self,
        init_scale: float = 2.0**16,
        growth_factor: float = 2.0,
        backoff_factor: float = 0.5,
        growth_interval: int = 2000,
        enabled: bool = True,
    ) -> None:
        warnings.warn(
            "`torch.cpu.amp.GradScaler(args...)` is deprecated. "
            "Please use `torch.amp.GradScaler('cpu', args...)` instead.",
            FutureWarning,
            stacklevel=2,
        )
        super().__init__(
            "cpu",
            init_scale=init_scale,
            growth_factor=growth_factor,
            backoff_factor=backoff_factor,
            growth_interval=growth_interval,
            enabled=enabled,
        )
