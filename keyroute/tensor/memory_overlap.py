"""Memory overlap between two tensors, as PyTorch's ATen/MemoryOverlap.cpp decides it.

An operation that writes one tensor while reading another refuses when they partly share
memory: the result would depend on the order the kernel visits the elements. PyTorch's
TensorIterator checks every output against every input (`assert_no_partial_overlap`: the same
memory with the same geometry is allowed, as in `torch.add(a, b, out=a)`); `copy_` returns
early for the very same view and then checks the same way. A layout that is not
non-overlapping-and-dense is "too hard" to decide, and PyTorch lets it through; so does this.
Only tensors holding NumPy data can overlap (meta tensors have no memory).
"""

from __future__ import annotations

from typing import Any

import numpy as np

from ._tensor import _root_array

__all__ = [
    "NO",
    "FULL",
    "PARTIAL",
    "TOO_HARD",
    "OVERLAP_MESSAGE",
    "is_non_overlapping_and_dense",
    "infer_dense_strides",
    "overlap_status",
    "assert_no_partial_overlap",
]

NO, FULL, PARTIAL, TOO_HARD = range(4)

OVERLAP_MESSAGE = (
    "unsupported operation: some elements of the input tensor and the written-to tensor refer "
    "to a single memory location. Please clone() the tensor before performing the operation."
)


def is_non_overlapping_and_dense(shape: tuple[int, ...], strides: tuple[int, ...]) -> bool:
    """c10's is_non_overlapping_and_dense: the elements fill a block of memory exactly once, in
    some order of the dimensions (dimensions of size 1 do not count)."""
    dims = sorted((d for d in range(len(shape)) if shape[d] > 1), key=lambda d: strides[d])
    expected = 1
    for d in dims:
        if strides[d] != expected:
            return False
        expected *= shape[d]
    return True


def infer_dense_strides(shape: tuple[int, ...], strides: tuple[int, ...]) -> tuple[int, ...]:
    """c10's infer_dense_strides: dense strides that keep the order of the given ones, the
    layout PyTorch gives a preserve_format copy of a tensor that is not dense (an expanded
    or a sliced one). Dimensions are ordered by stride, innermost first, by a stable
    insertion sort in which a stride of 0 compares equal to everything (so it stays put)."""
    ndim = len(shape)
    perm = list(range(ndim - 1, -1, -1))

    def should_swap(d0: int, d1: int) -> int:
        s0, s1 = strides[d0], strides[d1]
        if s0 == 0 or s1 == 0:
            return 0
        if s0 != s1:
            return -1 if s0 < s1 else 1
        return 1 if shape[d0] > shape[d1] else 0

    for i in range(1, ndim):
        dim1 = i
        for j in range(1, i + 1):
            dim0 = i - j
            c = should_swap(perm[dim0], perm[dim1])
            if c > 0:
                perm[dim0], perm[dim1] = perm[dim1], perm[dim0]
                dim1 = dim0
            elif c < 0:
                break
    out = [0] * ndim
    acc = 1
    for d in perm:
        out[d] = acc
        acc *= max(shape[d], 1)
    return tuple(out)


def _element_strides(a: np.ndarray) -> tuple[int, ...]:
    return tuple(s // a.itemsize for s in a.strides)


def overlap_status(a: np.ndarray, b: np.ndarray) -> int:
    """PyTorch's get_overlap_status for two arrays: NO, FULL, PARTIAL or TOO_HARD."""
    if a is b:
        return FULL
    if not a.size or not b.size:
        return NO
    if a.base is None and b.base is None:  # two owners: distinct memory (the common case)
        return NO
    if _root_array(a) is not _root_array(b):
        return NO
    if not (
        is_non_overlapping_and_dense(a.shape, _element_strides(a))
        and is_non_overlapping_and_dense(b.shape, _element_strides(b))
    ):
        return TOO_HARD
    a_begin = a.__array_interface__["data"][0]
    b_begin = b.__array_interface__["data"][0]
    a_end = a_begin + a.size * a.itemsize
    b_end = b_begin + b.size * b.itemsize
    if a_begin == b_begin and a_end == b_end:
        return FULL if a.strides == b.strides else PARTIAL
    if a_begin < b_end and b_begin < a_end:
        return PARTIAL
    return NO


def _data(t: Any) -> np.ndarray | None:
    d = getattr(t, "_data", None)
    return d if isinstance(d, np.ndarray) else None


def assert_no_partial_overlap(written: Any, read: Any) -> None:
    """TensorIterator's check of an output against an input: the same memory in the same
    geometry is allowed, any other sharing raises PyTorch's RuntimeError."""
    a, b = _data(written), _data(read)
    if a is not None and b is not None and overlap_status(a, b) == PARTIAL:
        raise RuntimeError(OVERLAP_MESSAGE)
