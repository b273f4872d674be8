"""keyroute.dask: the "dask" device, whose tensors are chunked `dask.array`s.

Operators on dask tensors build dask's task graph and compute nothing; `.to("cpu")`,
`.item()`, `.tolist()` and printing run it, on the `dask.distributed` cluster set with
`use(client)` (or named by `DASK_SCHEDULER_ADDRESS`), else on dask's threaded scheduler.
Autograd runs above the backend as on any device, so `loss.backward()` builds the backward
graph lazily too.

>>> import keyroute, keyroute.dask
>>> x = keyroute.arange(6.0).to("dask")
>>> (x * 2).sum().item()
30.0
"""

from __future__ import annotations

from typing import Any

try:
    import dask.array as _da  # noqa: F401
except ImportError as e:  # pragma: no cover - exercised by a test that hides dask
    raise ImportError(
        "keyroute.dask needs dask: pip install 'keyroute[dask]' (dask[array] and distributed)"
    ) from e

from ..tensor._tensor import Tensor
from . import kernels as _kernels
from ._backend import DEVICE, dask_array, is_dask, wrap
from ._client import compute, current_client, use

__all__ = [
    "DEVICE",
    "use",
    "current_client",
    "compute",
    "as_tensor",
    "from_numpy",
    "rechunk",
    "dask_array",
    "is_dask",
]

_kernels.register()


def as_tensor(array: Any) -> Tensor:
    """A dask tensor over an existing dask array (no copy, no computation)."""
    return wrap(array)


def from_numpy(array: Any, chunks: Any = "auto") -> Tensor:
    """A dask tensor holding a copy of a NumPy array (or CPU tensor), split into `chunks`."""
    import numpy as np

    if isinstance(array, Tensor):
        return wrap(_kernels.to_dask_array(array, chunks), array.dtype)
    return wrap(_da.from_array(np.array(array), chunks=chunks))


def rechunk(t: Tensor, chunks: Any) -> Tensor:
    """The same dask tensor split into other chunks (dask.array.rechunk)."""
    if not is_dask(t):
        raise TypeError(f"rechunk expects a dask tensor, got one on {t.device}")
    return wrap(t._data.array.rechunk(chunks), t.dtype)
