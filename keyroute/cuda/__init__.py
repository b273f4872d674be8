"""torch.cuda: real when CuPy finds a GPU (the `cuda` extra), PyTorch's CPU build otherwise.

With a GPU (`_gpu.cupy_or_none()`), "cuda" tensors hold CuPy arrays (backend.py: the
kernels of kernels/xp_kernels.py with xp = cupy, a CPU fallback for the rest) and these
functions ask CuPy's runtime and memory pool. Without one, programs test
`torch.cuda.is_available()` and pick the CPU; seeding calls are no-ops (PyTorch queues them
until CUDA initialises, which never happens on a CPU build); anything that needs a device
raises PyTorch's `AssertionError: Torch not compiled with CUDA enabled`.
"""

from __future__ import annotations

from typing import Any

from . import amp  # noqa: F401
from ._gpu import cupy_or_none as _cupy
from .backend import install_stub as _install_stub
from .interop import as_tensor
from .interop import install_methods as _install_methods

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
    "reset_peak_memory_stats",
    "is_bf16_supported",
    "device",
    "Stream",
    "Event",
    "current_stream",
    "amp",
    "as_tensor",
]

_NOT_COMPILED = "Torch not compiled with CUDA enabled"


_install_methods()
_install_stub()  # CUDA kernels give PyTorch's CPU-build error until CuPy finds a GPU


def _lazy_init() -> Any:
    """CuPy, or PyTorch's CPU-build AssertionError (torch/cuda/__init__.py, _lazy_init)."""
    cp = _cupy()
    if cp is None:
        from .backend import installed

        if installed() is not None:  # the kernels on another array module (tests: NumPy)
            return installed()
        raise AssertionError(_NOT_COMPILED)
    return cp


def is_available() -> bool:
    return _cupy() is not None


def device_count() -> int:
    cp = _cupy()
    return 0 if cp is None else int(cp.cuda.runtime.getDeviceCount())


def is_initialized() -> bool:
    return _cupy() is not None


def init() -> None:
    _lazy_init()


def manual_seed(seed: int) -> None:
    """Seeds CuPy's generator; without a GPU a no-op (PyTorch queues it until a CUDA init)."""
    seed = int(seed)
    cp = _cupy()
    if cp is not None:
        cp.random.seed(seed)


def manual_seed_all(seed: int) -> None:
    manual_seed(seed)


def seed() -> None:
    return None


def seed_all() -> None:
    return None


def initial_seed() -> int:
    _lazy_init()
    raise AssertionError(_NOT_COMPILED)  # pragma: no cover


def _index(device: Any) -> int | None:
    if device is None:
        return None
    if isinstance(device, int):
        return device
    from ..tensor.device import Device

    return Device(device).index


def synchronize(device: Any = None) -> None:
    cp = _lazy_init()
    i = _index(device)
    (cp.cuda.Device(i) if i is not None else cp.cuda.Device()).synchronize()


def current_device() -> int:
    return int(_lazy_init().cuda.runtime.getDevice())


def set_device(device: Any) -> None:
    cp = _lazy_init()
    i = _index(device)
    if i is not None and i >= 0:
        cp.cuda.runtime.setDevice(i)


def get_device_name(device: Any = None) -> str:
    cp = _lazy_init()
    i = _index(device)
    props = cp.cuda.runtime.getDeviceProperties(current_device() if i is None else i)
    name = props["name"]
    return name.decode() if isinstance(name, bytes) else str(name)


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
    """Frees CuPy's cached blocks; a no-op without a GPU, as on PyTorch's CPU build."""
    cp = _cupy()
    if cp is not None:
        cp.get_default_memory_pool().free_all_blocks()


def memory_allocated(device: Any = None) -> int:
    cp = _cupy()
    return 0 if cp is None else int(cp.get_default_memory_pool().used_bytes())


def max_memory_allocated(device: Any = None) -> int:
    """The peak of memory_allocated, sampled after each CUDA kernel (backend.py)."""
    from .backend import _state

    return max(_state["peak"], memory_allocated(device))


def reset_peak_memory_stats(device: Any = None) -> None:
    from .backend import _state

    _state["peak"] = memory_allocated(device)


def memory_reserved(device: Any = None) -> int:
    cp = _cupy()
    return 0 if cp is None else int(cp.get_default_memory_pool().total_bytes())


def max_memory_reserved(device: Any = None) -> int:
    return memory_reserved(device)


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
    def __new__(cls, *args: Any, **kwargs: Any) -> Any:
        if _cupy() is None:
            raise RuntimeError("torch.cuda.Stream requires CUDA support")
        from ._gpu import Stream as _Stream

        return _Stream(*args, **kwargs)


class Event:
    def __new__(cls, *args: Any, **kwargs: Any) -> Any:
        if _cupy() is None:
            raise RuntimeError("Tried to instantiate dummy base class Event")
        from ._gpu import Event as _Event

        return _Event(*args, **kwargs)


def current_stream(device: Any = None) -> Stream:
    _lazy_init()
    raise AssertionError(_NOT_COMPILED)  # pragma: no cover
