"""torch.amp: autocast and GradScaler, as PyTorch's CPU build behaves without a GPU.

On a CPU build PyTorch disables CUDA autocast and the CUDA GradScaler with a warning, and the
program runs in full precision; keyroute does the same. CPU autocast (bfloat16 matmuls) is not
implemented: entering an enabled CPU autocast raises NotImplementedError rather than silently
computing in a different precision than PyTorch would.
"""

from __future__ import annotations

import functools
import warnings
from collections.abc import Callable
from typing import Any

__all__ = ["autocast", "GradScaler", "is_autocast_available", "custom_fwd", "custom_bwd"]

_DEVICE_TYPES = ("cpu", "cuda", "xpu", "mps", "hpu", "mtia", "xla", "meta")


def is_autocast_available(device_type: str) -> bool:
    return device_type in ("cpu", "cuda", "xpu", "mps", "hpu", "mtia", "xla")


class autocast:  # noqa: N801
    """torch.autocast(device_type, dtype=None, enabled=True, cache_enabled=None)."""

    def __init__(
        self,
        device_type: str,
        dtype: Any = None,
        enabled: bool = True,
        cache_enabled: bool | None = None,
    ) -> None:
        if not isinstance(device_type, str):
            raise ValueError(f"Expected `device_type` of type `str`, got: `{type(device_type)}`")
        if device_type not in _DEVICE_TYPES:
            raise RuntimeError(
                f"User specified an unsupported autocast device_type '{device_type}'"
            )
        self.device = device_type
        self.fast_dtype = dtype
        self._enabled = bool(enabled)
        if device_type == "cuda" and self._enabled:
            warnings.warn(
                "CUDA is not available or torch_xla is imported. Disabling autocast.",
                UserWarning,
                stacklevel=2,
            )
            self._enabled = False
        if device_type not in ("cpu", "cuda"):
            self._enabled = False

    def __enter__(self) -> autocast:
        if self._enabled:
            raise NotImplementedError(
                "keyroute: autocast on the cpu device is not implemented (run in full "
                "precision: autocast(device_type='cpu', enabled=False))"
            )
        return self

    def __exit__(self, *exc: object) -> None:
        return None

    def __call__(self, fn: Callable[..., Any]) -> Callable[..., Any]:
        @functools.wraps(fn)
        def wrapped(*args: Any, **kwargs: Any) -> Any:
            with self:
                return fn(*args, **kwargs)

        return wrapped


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


def custom_fwd(fwd: Callable[..., Any] | None = None, **kwargs: Any) -> Any:
    """Decorator for custom Function forwards under autocast; autocast is off, so identity."""
    if fwd is None:
        return lambda f: f
    return fwd


def custom_bwd(bwd: Callable[..., Any] | None = None, **kwargs: Any) -> Any:
    if bwd is None:
        return lambda f: f
    return bwd
