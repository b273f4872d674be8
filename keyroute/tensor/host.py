"""Device data the host can read, and copies from the CPU to a device backend.

A backend whose tensors hold something other than a NumPy array (a dask graph, a CuPy array)
gives `tolist()` and printing its values through `__keyroute_host__()` on that data object (a
CuPy array through `.get()`), and registers how a CPU tensor moves onto its device
(`COPY_FROM_CPU[device type]`), which the CPU `_to_copy` kernel calls, as PyTorch's copy to
a device goes through the destination backend's copy kernel.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import numpy as np

__all__ = ["host_array", "COPY_FROM_CPU"]

#: device type -> fn(cpu tensor, dtype, device) -> tensor on that device
COPY_FROM_CPU: dict[str, Callable[..., Any]] = {}


def host_array(data: Any) -> np.ndarray | None:
    """data's values as a NumPy array, or None when data has none to give (meta)."""
    if isinstance(data, np.ndarray):
        return data
    fetch = getattr(data, "__keyroute_host__", None)
    if fetch is not None:
        return fetch()
    if type(data).__module__.startswith("cupy"):
        return data.get()
    return None
