"""torch.amp: autocast (autocast_mode.py over the Autocast layer, keyroute/layers/autocast.py)
and GradScaler, as PyTorch's CPU build behaves without a GPU: CUDA autocast and the CUDA
GradScaler are disabled with PyTorch's warnings.
"""

from __future__ import annotations

import warnings
from typing import Any

from .autocast_mode import autocast, custom_bwd, custom_fwd, is_autocast_available

__all__ = ["autocast", "GradScaler", "is_autocast_available", "custom_fwd", "custom_bwd"]


class GradScaler:
    """torch.amp.GradScaler; on a machine without the device it is disabled (identity)."""

    def __init__(
        self,
        device: str = "cuda",
        init_scale: float = 2.0**16,
        growth_factor: float = 2.0,
        backoff_factor: float = 0.5,
        growth_interval: int = 2000,
        enabled: bool = True,
    ) -> None:
        self._device = device
        self._enabled = bool(enabled)
        if self._enabled and device == "cuda":
            warnings.warn(
                "torch.cuda.amp.GradScaler is enabled, but CUDA is not available.  Disabling.",
                UserWarning,
                stacklevel=2,
            )
            self._enabled = False
        if self._enabled:
            raise NotImplementedError(
                f"keyroute: GradScaler on the {device} device is not implemented "
                "(pass enabled=False)"
            )

    def is_enabled(self) -> bool:
        return self._enabled

    def scale(self, outputs: Any) -> Any:
        return outputs

    def unscale_(self, optimizer: Any) -> None:
        return None

    def step(self, optimizer: Any, *args: Any, **kwargs: Any) -> Any:
        return optimizer.step(*args, **kwargs)

    def update(self, new_scale: Any = None) -> None:
        return None

    def get_scale(self) -> float:
        return 1.0

    def state_dict(self) -> dict[str, Any]:
        return {}

    def load_state_dict(self, state_dict: dict[str, Any]) -> None:
        return None
