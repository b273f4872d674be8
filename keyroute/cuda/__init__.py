"""torch.cuda as PyTorch's CPU build has it: present, with no device behind it.

Programs test `torch.cuda.is_available()` and pick the CPU; seeding calls are no-ops (PyTorch
queues them until CUDA initialises, which never happens on a CPU build). Anything that needs
a device raises PyTorch's `AssertionError: Torch not compiled with CUDA enabled`. When
keyroute's CUDA backend arrives, this module becomes real.
"""

from __future__ import annotations

from typing import Any

from . import amp  # noqa: F401

__all__ = [
    "is_available",
    "device_count",
    "is_initialized",
    "init",
    "manual_seed",
    "manual_seed_all",
    "seed",
    "seed_all",
    "initial_seed",
    "synchronize",
    "current_device",
    "set_device",
    "get_device_name",
    "get_device_capability",
    "get_device_properties",
    "get_rng_state",
    "set_rng_state",
    "empty_cache",
    "memory_allocated",
    "max_memory_allocated",
    "memory_reserved",
    "max_memory_reserved",
    "is_bf16_supported",
    "device",
    "Stream",
    "Event",
    "current_stream",
    "amp",
]

_NOT_COMPILED = "Torch not compiled with CUDA enabled"


def _lazy_init() -> None:
    # PyTorch raises AssertionError here on a CPU build (torch/cuda/__init__.py, _lazy_init).
    raise AssertionError(_NOT_COMPILED)


def is_available() -> bool:
    return False


def device_count() -> int:
    return 0


def is_initialized() -> bool:
    return False


def init() -> None:
    _lazy_init()


def manual_seed(seed: int) -> None:
    """No-op: no CUDA generator exists (PyTorch queues the call until a CUDA init)."""
    int(seed)


def manual_seed_all(seed: int) -> None:
    int(seed)


def seed() -> None:
    return None


def seed_all() -> None:
    return None


def initial_seed() -> int:
    _lazy_init()
    raise AssertionError(_NOT_COMPILED)  # pragma: no cover


def synchronize(device: Any = None) -> None:
    _lazy_init()


def current_device() -> int:
    _lazy_init()
    raise AssertionError(_NOT_COMPILED)  # pragma: no cover


def set_device(device: Any) -> None:
    _lazy_init()


def get_device_name(device: Any = None) -> str:
    _lazy_init()
    raise AssertionError(_NOT_COMPILED)  # pragma: no cover


def get_device_capability(device: Any = None) -> tuple[int, int]:
    _lazy_init()
    raise AssertionError(_NOT_COMPILED)  # pragma: no cover


def get_device_properties(device: Any = None) -> Any:
    _lazy_init()


def get_rng_state(device: Any = "cuda") -> Any:
    _lazy_init()


def set_rng_state(new_state: Any, device: Any = "cuda") -> None:
    _lazy_init()


def empty_cache() -> None:
    """No-op, as on PyTorch's CPU build (nothing is cached)."""


def memory_allocated(device: Any = None) -> int:
    return 0


def max_memory_allocated(device: Any = None) -> int:
    return 0


def memory_reserved(device: Any = None) -> int:
    return 0


def max_memory_reserved(device: Any = None) -> int:
    return 0


def is_bf16_supported(including_emulation: bool = True) -> bool:
    return False


class device:  # noqa: N801  (torch.cuda.device, a context manager selecting a device)
    def __init__(self, device: Any) -> None:
        self.idx = device

    def __enter__(self) -> None:
        # PyTorch's CPU build does nothing for device(-1) / None and fails on a real index.
        if self.idx not in (None, -1):
            _lazy_init()

    def __exit__(self, *exc: object) -> None:
        return None


class Stream:
    def __init__(self, *args: Any, **kwargs: Any) -> None:
        raise RuntimeError("torch.cuda.Stream requires CUDA support")


class Event:
    def __init__(self, *args: Any, **kwargs: Any) -> None:
        raise RuntimeError("Tried to instantiate dummy base class Event")


def current_stream(device: Any = None) -> Stream:
    _lazy_init()
    raise AssertionError(_NOT_COMPILED)  # pragma: no cover
