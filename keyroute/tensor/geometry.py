"""The one bound check of a strided view against its storage (PyTorch's setStrided +
checkInBoundsForStorage).

Every constructor of a view into storage (as_strided, the other CPU views, unpickling) calls
`check_in_bounds` before NumPy sees the geometry: NumPy's as_strided trusts its arguments, so a
negative or too-large stride or offset would read or write outside the buffer.
"""

from __future__ import annotations

from collections.abc import Sequence

__all__ = ["allocation_error", "check_in_bounds", "contiguous_nbytes", "storage_nbytes_needed"]


def storage_nbytes_needed(
    shape: Sequence[int], stride: Sequence[int], offset: int, itemsize: int
) -> int:
    """Bytes of storage a geometry reaches (PyTorch's computeStorageNbytes); 0 when empty."""
    extent = 1
    for n, st in zip(shape, stride):
        if n == 0:
            return 0
        extent += (n - 1) * st
    return itemsize * (offset + extent)


def check_in_bounds(
    shape: Sequence[int],
    stride: Sequence[int],
    offset: int,
    itemsize: int,
    storage_nbytes: int,
) -> None:
    """Raise PyTorch's RuntimeError unless the geometry lies inside the storage."""
    if len(shape) != len(stride):
        raise RuntimeError("mismatch in length of strides and shape")
    for n in shape:
        if n < 0:
            raise RuntimeError(
                f"Trying to create tensor with negative dimension {n}: {list(shape)}"
            )
    for st in stride:
        if st < 0:
            raise RuntimeError(
                f"as_strided: Negative strides are not supported at the moment, got strides: "
                f"{list(stride)}"
            )
    if offset < 0:
        raise RuntimeError(f"Tensor: invalid storage offset {offset}")
    needed = storage_nbytes_needed(shape, stride, offset, itemsize)
    if needed > storage_nbytes:
        raise RuntimeError(
            f"setStorage: sizes {list(shape)}, strides {list(stride)}, storage offset {offset}, "
            f"and itemsize {itemsize} requiring a storage size of {needed} are out of bounds "
            f"for storage of size {storage_nbytes}"
        )


_INT64_MAX = (1 << 63) - 1


def contiguous_nbytes(shape: Sequence[int], itemsize: int) -> int:
    """Bytes of a contiguous tensor of `shape`, with PyTorch's overflow error (a size past
    int64 cannot be allocated on any device, meta included)."""
    n = itemsize
    for s in shape:
        n *= s
    if n > _INT64_MAX:
        raise RuntimeError(f"Storage size calculation overflowed with sizes={list(shape)}")
    return n


def allocation_error(nbytes: int) -> RuntimeError:
    """PyTorch's error for a CPU allocation that failed (NumPy's MemoryError is an internal)."""
    return RuntimeError(
        f"DefaultCPUAllocator: can't allocate memory: you tried to allocate {nbytes} bytes. "
        f"Error code 12 (Cannot allocate memory)"
    )
