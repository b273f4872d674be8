"""What a dask-backed tensor holds: `DaskStore`, a chunked `dask.array.Array` with the metadata
the tensor asks its data for.

A Tensor reads shape, size, dtype and strides from its `_data`; a dask array has no strides
(it is a graph of NumPy blocks, not memory), so the store answers with the row-major strides
of the array it describes, as a contiguous tensor on another device would. `__keyroute_host__`
is the protocol `tolist()` and printing use to fetch a device tensor's values: here it runs
the graph.
"""

from __future__ import annotations

from typing import Any

import numpy as np

__all__ = ["DaskStore"]


class DaskStore:
    __slots__ = ("array",)
    base = None  # owns no host memory: never a view of a NumPy array

    def __init__(self, array: Any) -> None:
        self.array = array

    @property
    def shape(self) -> tuple[int, ...]:
        return tuple(int(s) for s in self.array.shape)

    @property
    def ndim(self) -> int:
        return self.array.ndim

    @property
    def size(self) -> int:
        return int(np.prod(self.shape, dtype=np.int64))

    @property
    def dtype(self) -> np.dtype:
        return self.array.dtype

    @property
    def itemsize(self) -> int:
        return self.array.dtype.itemsize

    @property
    def nbytes(self) -> int:
        return self.size * self.itemsize

    @property
    def strides(self) -> tuple[int, ...]:
        out, step = [], self.itemsize
        for n in reversed(self.shape):
            out.append(step)
            step *= max(n, 1)
        return tuple(reversed(out))

    def __keyroute_host__(self) -> np.ndarray:
        from ._client import compute

        return np.asarray(compute(self.array)[0])

    def __repr__(self) -> str:
        return f"DaskStore({self.array!r})"
