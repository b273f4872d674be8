"""torch.backends.cuda on a CPU build: not built; matmul and attention flags at PyTorch's
defaults, so programs that set them run unchanged."""

from __future__ import annotations

import contextlib
from collections.abc import Iterator
from typing import Any

__all__ = [
    "is_built",
    "matmul",
    "flash_sdp_enabled",
    "enable_flash_sdp",
    "mem_efficient_sdp_enabled",
    "enable_mem_efficient_sdp",
    "math_sdp_enabled",
    "enable_math_sdp",
    "cudnn_sdp_enabled",
    "enable_cudnn_sdp",
    "sdp_kernel",
    "preferred_linalg_library",
]


def is_built() -> bool:
    return False


class _MatmulFlags:
    """torch.backends.cuda.matmul: settable flags, read by nothing on a CPU build."""

    def __init__(self) -> None:
        self.allow_tf32 = False
        self.allow_fp16_reduced_precision_reduction = True
        self.allow_bf16_reduced_precision_reduction = True
        self.fp32_precision = "none"


matmul = _MatmulFlags()
_sdp = {"flash": True, "mem_efficient": True, "math": True, "cudnn": True}


def flash_sdp_enabled() -> bool:
    return _sdp["flash"]


def enable_flash_sdp(enabled: bool) -> None:
    _sdp["flash"] = bool(enabled)


def mem_efficient_sdp_enabled() -> bool:
    return _sdp["mem_efficient"]


def enable_mem_efficient_sdp(enabled: bool) -> None:
    _sdp["mem_efficient"] = bool(enabled)


def math_sdp_enabled() -> bool:
    return _sdp["math"]


def enable_math_sdp(enabled: bool) -> None:
    _sdp["math"] = bool(enabled)


def cudnn_sdp_enabled() -> bool:
    return _sdp["cudnn"]


def enable_cudnn_sdp(enabled: bool) -> None:
    _sdp["cudnn"] = bool(enabled)


@contextlib.contextmanager
def sdp_kernel(
    enable_flash: bool = True,
    enable_math: bool = True,
    enable_mem_efficient: bool = True,
    enable_cudnn: bool = True,
) -> Iterator[None]:
    old = dict(_sdp)
    _sdp.update(
        flash=enable_flash,
        math=enable_math,
        mem_efficient=enable_mem_efficient,
        cudnn=enable_cudnn,
    )
    try:
        yield
    finally:
        _sdp.update(old)


def preferred_linalg_library(backend: Any = None) -> str:
    return "Default"
