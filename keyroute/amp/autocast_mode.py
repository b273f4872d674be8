"""torch.amp.autocast_mode: the autocast context manager, custom_fwd and custom_bwd.

The context manager sets the thread's autocast state (enabled, dtype, cache) for one device
type and restores it on exit; the casting itself is the Autocast layer
(keyroute/layers/autocast.py). As PyTorch's CPU build, CUDA autocast is disabled with a warning
because no CUDA device is available.
"""

from __future__ import annotations

import collections.abc
import functools
import warnings
from collections.abc import Callable
from typing import Any

from .._naming import type_repr
from ..layers import autocast as _layer

__all__ = ["autocast", "is_autocast_available", "custom_fwd", "custom_bwd"]


def is_autocast_available(device_type: str) -> bool:
    builtin = ("cpu", "cuda", "xpu", "mps", "hpu", "mtia", "maia", "xla", "ipu")
    return device_type in builtin or device_type in _layer.ADDED_DEVICE_TYPES  # register_backend


def _cuda_available() -> bool:
    """amp_definitely_not_available's test: a CUDA device is there (keyroute/cuda)."""
    import keyroute  # the public face: keyroute.cuda knows whether a device is there

    return bool(keyroute.cuda.is_available())


class autocast:  # noqa: N801 - PyTorch's name
    """torch.autocast(device_type, dtype=None, enabled=True, cache_enabled=None)."""

    def __init__(
        self,
        device_type: str,
        dtype: Any = None,
        enabled: bool = True,
        cache_enabled: bool | None = None,
    ) -> None:
        if not isinstance(device_type, str):
            raise ValueError(
                f"Expected `device_type` of type `str`, got: `{type_repr(device_type)}`"
            )
        self.fast_dtype = _layer.get_autocast_dtype(device_type) if dtype is None else dtype
        self.device = device_type
        if not is_autocast_available(device_type):
            raise RuntimeError(
                f"User specified an unsupported autocast device_type '{self.device}'"
            )
        from ..tensor import dtype as _dt

        supported = [_dt.bfloat16, _dt.float16]
        self._cache_enabled = (
            _layer.is_autocast_cache_enabled() if cache_enabled is None else cache_enabled
        )
        name = device_type.upper()
        if enabled:
            if device_type == "cuda" and not _cuda_available():
                warnings.warn(
                    "CUDA is not available or torch_xla is imported. Disabling autocast.",
                    stacklevel=2,
                )
                enabled = False
            elif self.fast_dtype not in supported:
                warnings.warn(
                    f"In {name} autocast, but the target dtype is not supported. Disabling "
                    f"autocast.\n{name} Autocast only supports dtypes of "
                    + ", ".join(map(str, supported))
                    + " currently.",
                    stacklevel=2,
                )
                enabled = False
        self._enabled = bool(enabled)

    def __enter__(self) -> autocast:
        self.prev_cache_enabled = _layer.is_autocast_cache_enabled()
        self.prev = _layer.is_autocast_enabled(self.device)
        self.prev_fastdtype = _layer.get_autocast_dtype(self.device)
        _layer.set_autocast_enabled(self.device, self._enabled)
        _layer.set_autocast_dtype(self.device, self.fast_dtype)
        _layer.autocast_increment_nesting()
        _layer.set_autocast_cache_enabled(self._cache_enabled)
        return self

    def __exit__(self, *exc: object) -> bool:
        # Leaving the outermost region drops the cast cache (no cast outlives its region).
        if _layer.autocast_decrement_nesting() == 0:
            _layer.clear_autocast_cache()
        _layer.set_autocast_enabled(self.device, self.prev)
        _layer.set_autocast_dtype(self.device, self.prev_fastdtype)
        _layer.set_autocast_cache_enabled(self.prev_cache_enabled)
        return False

    def __call__(self, fn: Callable[..., Any]) -> Callable[..., Any]:
        @functools.wraps(fn)
        def wrapped(*args: Any, **kwargs: Any) -> Any:
            with self:
                return fn(*args, **kwargs)

        return wrapped


def _cast(value: Any, device_type: str, dtype: Any) -> Any:
    """Cast floating tensors of `device_type` (not float64) inside containers, as PyTorch's."""
    import numpy as np

    from ..tensor import dtype as _dt
    from ..tensor._tensor import Tensor

    if isinstance(value, Tensor):
        ok = (
            value.is_floating_point()
            and value.device.type == device_type
            and value.dtype is not _dt.float64
        )
        return value.to(dtype) if ok else value
    if isinstance(value, (str, bytes, np.ndarray)):
        return value
    if isinstance(value, collections.abc.Mapping):
        return {
            _cast(k, device_type, dtype): _cast(v, device_type, dtype) for k, v in value.items()
        }
    if isinstance(value, collections.abc.Iterable):
        items = (_cast(v, device_type, dtype) for v in value)
        return type(value)(items) if isinstance(value, (list, tuple)) else items
    return value


def custom_fwd(
    fwd: Callable[..., Any] | None = None, *, device_type: str, cast_inputs: Any = None
) -> Any:
    """Decorator for a custom Function's forward: with `cast_inputs`, inside an autocast region
    the floating inputs are cast to it and forward runs with autocast off."""
    if not isinstance(device_type, str):
        raise ValueError(f"Expected `device_type` of type `str`, got: `{type_repr(device_type)}`")
    if fwd is None:
        return functools.partial(custom_fwd, device_type=device_type, cast_inputs=cast_inputs)

    @functools.wraps(fwd)
    def decorate_fwd(*args: Any, **kwargs: Any) -> Any:
        args[0]._dtype = _layer.get_autocast_dtype(device_type)
        if cast_inputs is None:
            args[0]._fwd_used_autocast = _layer.is_autocast_enabled(device_type)
            return fwd(*args, **kwargs)
        on = _layer.is_autocast_enabled(device_type)
        args[0]._fwd_used_autocast = False
        if not on:
            return fwd(*args, **kwargs)
        with autocast(device_type=device_type, enabled=False):
            return fwd(
                *_cast(args, device_type, cast_inputs), **_cast(kwargs, device_type, cast_inputs)
            )

    return decorate_fwd


def custom_bwd(bwd: Callable[..., Any] | None = None, *, device_type: str) -> Any:
    """Decorator for a custom Function's backward: it runs with forward's autocast state."""
    if not isinstance(device_type, str):
        raise ValueError(f"Expected `device_type` of type `str`, got: `{type_repr(device_type)}`")
    if bwd is None:
        return functools.partial(custom_bwd, device_type=device_type)

    @functools.wraps(bwd)
    def decorate_bwd(*args: Any, **kwargs: Any) -> Any:
        with autocast(
            device_type=device_type, enabled=args[0]._fwd_used_autocast, dtype=args[0]._dtype
        ):
            return bwd(*args, **kwargs)

    return decorate_bwd
