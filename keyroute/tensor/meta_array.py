"""MetaArray: the data of a tensor that has metadata only (meta device, fake tensors).

It answers what a NumPy array answers about layout (`shape`, `strides` in bytes, `dtype`,
`ndim`, `size`) so that every metadata path reads a tensor the same way on every device; it
holds no elements and allocates nothing.

>>> m = MetaArray((2, 3), (3, 1), np.dtype("float32"))
>>> m.shape, m.strides, m.size
((2, 3), (12, 4), 6)
"""

from __future__ import annotations

from collections.abc import Sequence

import numpy as np

__all__ = ["MetaArray", "MetaStorage", "contiguous_strides", "new_meta_array"]

_new = object.__new__


class MetaStorage:
    """The identity and size of a meta tensor's storage, shared by its views."""

    __slots__ = ("nbytes", "__weakref__")

    def __init__(self, nbytes: int) -> None:
        self.nbytes = nbytes


def contiguous_strides(shape: tuple[int, ...]) -> tuple[int, ...]:
    """Row-major strides in elements, as PyTorch computes them (size-1 and size-0 dims too)."""
    strides = []
    acc = 1
    for size in reversed(shape):
        strides.append(acc)
        acc *= max(size, 1)
    return tuple(reversed(strides))


def is_contiguous_strides(shape: Sequence[int], strides: Sequence[int]) -> bool:
    """PyTorch's is_contiguous: size-1 dimensions' strides do not matter; empty is contiguous."""
    if 0 in shape:
        return True
    expected = 1
    for size, stride in zip(reversed(tuple(shape)), reversed(tuple(strides))):
        if size != 1:
            if stride != expected:
                return False
            expected *= size
    return True


def is_channels_last_strides(shape: Sequence[int], strides: Sequence[int]) -> bool:
    if len(shape) != 4:
        return False
    n, c, h, w = shape
    expected = 1
    for d in (1, 3, 2, 0):
        size = shape[d]
        if size == 0:
            return True
        if size != 1:
            if strides[d] != expected:
                return False
            expected *= size
    del n, c, h, w
    return True


class MetaArray:
    """Shape, element strides, dtype and storage offset; no data."""

    __slots__ = ("shape", "stride", "dtype", "offset", "storage_nbytes", "storage")

    def __init__(
        self,
        shape: tuple[int, ...],
        stride: tuple[int, ...] | None,
        dtype: np.dtype,
        offset: int = 0,
        storage_nbytes: int | None = None,
        storage: MetaStorage | None = None,
    ) -> None:
        self.shape = tuple(shape)
        self.stride = contiguous_strides(self.shape) if stride is None else tuple(stride)
        self.dtype = dtype
        self.offset = offset
        if storage_nbytes is None:
            extent = (
                1 + sum((s - 1) * st for s, st in zip(self.shape, self.stride))
                if all(self.shape)
                else 0
            )
            storage_nbytes = (offset + extent) * dtype.itemsize if extent else 0
        self.storage_nbytes = storage_nbytes
        self.storage = storage if storage is not None else MetaStorage(storage_nbytes)

    @property
    def strides(self) -> tuple[int, ...]:
        item = self.dtype.itemsize
        return tuple(s * item for s in self.stride)

    @property
    def ndim(self) -> int:
        return len(self.shape)

    @property
    def size(self) -> int:
        n = 1
        for s in self.shape:
            n *= s
        return n

    @property
    def itemsize(self) -> int:
        return self.dtype.itemsize

    @property
    def nbytes(self) -> int:
        return self.size * self.dtype.itemsize

    def __repr__(self) -> str:
        return f"MetaArray(shape={self.shape}, stride={self.stride}, dtype={self.dtype})"


def new_meta_array(
    shape: tuple[int, ...],
    stride: tuple[int, ...],
    dtype: np.dtype,
    offset: int,
    storage_nbytes: int,
    storage: MetaStorage | None = None,
) -> MetaArray:
    """A MetaArray from metadata already checked and normalised (tuples, storage size known):
    the cached meta and fake paths rebuild outputs with it, skipping __init__'s work."""
    m = _new(MetaArray)
    m.shape = shape
    m.stride = stride
    m.dtype = dtype
    m.offset = offset
    m.storage_nbytes = storage_nbytes
    if storage is None:
        storage = _new(MetaStorage)
        storage.nbytes = storage_nbytes
    m.storage = storage
    return m
