"""torch.distributed: keyroute runs in one process, so it reports unavailable.

`is_available()` is False and `is_initialized()` False, which is what programs check before
using it; the process-group calls raise NotImplementedError.
"""

from __future__ import annotations

from .._absent import absent_getattr

__all__ = ["is_available", "is_initialized", "is_torchelastic_launched"]


def is_available() -> bool:
    return False


def is_initialized() -> bool:
    return False


def is_torchelastic_launched() -> bool:
    return False


__getattr__ = absent_getattr(
    "torch.distributed",
    {
        "init_process_group",
        "destroy_process_group",
        "get_rank",
        "get_world_size",
        "barrier",
        "all_reduce",
        "all_gather",
        "broadcast",
        "reduce",
        "scatter",
        "gather",
        "new_group",
        "send",
        "recv",
    },
    " (keyroute has no distributed backend; torch.distributed.is_available() is False)",
)
