"""Registering NumPy kernels on the CPU key, and the helpers every CPU kernel uses."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import numpy as np

from ...aten._define import aten
from ...dispatcher.registration import Library, register_helper_file
from ...tensor._tensor import CPU_KEYS, Tensor
from ...tensor.dtype import dtype

register_helper_file(__file__)

__all__ = [
    "cpu_lib",
    "kernel",
    "check_no_internal_overlap",
    "fix_empty",
    "wrap",
    "arr",
    "ndarray",
]

cpu_lib = Library._internal("aten", "IMPL")
ndarray = np.ndarray
_new = object.__new__


def kernel(*names: str) -> Callable[[Callable[..., Any]], Callable[..., Any]]:
    """Register the decorated function as the CPU kernel of each named aten operator."""

    def wrap_fn(fn: Callable[..., Any]) -> Callable[..., Any]:
        for name in names:
            cpu_lib.impl(aten(name), fn, "CPU")
        return fn

    return wrap_fn


_OVERLAP_MESSAGE = (
    "unsupported operation: more than one element of the written-to tensor refers to a single "
    "memory location. Please clone() the tensor before performing the operation."
)


def check_no_internal_overlap(a: np.ndarray) -> None:
    """PyTorch's assert_no_internal_overlap for a tensor an operation writes: a dimension of
    stride 0 and size > 1 (an expanded tensor) makes several elements one memory location."""
    if 0 in a.strides and a.size:  # (NumPy gives empty arrays zero strides: no overlap)
        for size, stride in zip(a.shape, a.strides):
            if stride == 0 and size > 1:
                raise RuntimeError(_OVERLAP_MESSAGE)


def fix_empty(r: np.ndarray) -> np.ndarray:
    """NumPy gives zero-size arrays zero strides; PyTorch's fresh tensors are contiguous."""
    if r.size:
        return r
    strides = []
    acc = r.itemsize
    for s in reversed(r.shape):
        strides.append(acc)
        acc *= max(s, 1)
    return np.lib.stride_tricks.as_strided(np.empty(1, r.dtype)[:0], r.shape, strides[::-1])


def wrap(a: Any, dt: dtype) -> Tensor:
    """A new CPU tensor over NumPy result `a` (a NumPy scalar becomes a 0-d array)."""
    if a.__class__ is not ndarray:
        a = np.asarray(a, dtype=dt.np)
    t = _new(Tensor)
    t._data = a
    t._dtype = dt
    t._ks = CPU_KEYS
    t._ag = None
    t._base = None
    t._vc = None
    return t


def arr(x: Any) -> Any:
    """The NumPy array of a tensor; scalars pass through."""
    return x._data if isinstance(x, Tensor) else x
