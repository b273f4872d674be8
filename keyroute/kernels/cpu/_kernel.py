"""Registering NumPy kernels on the CPU key, and the helpers every CPU kernel uses."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import numpy as np

from ...aten._define import aten
from ...dispatcher.registration import Library, register_helper_file
from ...dispatcher.tls import leaf_kernel
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


def kernel(
    *names: str, quiet: bool = False, leaf: bool = False
) -> Callable[[Callable[..., Any]], Callable[..., Any]]:
    """Register the decorated function as the CPU kernel of each named aten operator; the
    function itself is returned unchanged.

    quiet: run it under ``np.errstate(all="ignore")``. The package's warning filter
        (kernels/cpu/__init__.py) already silences NumPy's floating-point warnings at no cost,
        but a user's ``np.seterr(all="raise")`` turns them into exceptions, which PyTorch never
        raises for inf/nan results. The elementwise kernels take it (about 1 µs a call); their
        hot kernels do not, and go quiet themselves on their general path.
    leaf: the kernel calls no operator, so the autograd recorders may call it without the
        below-autograd guard (dispatcher/tls.py LEAF_KERNELS).
    """

    def register(fn: Callable[..., Any]) -> Callable[..., Any]:
        registered = fn
        if quiet:

            def registered(*args: Any, **kwargs: Any) -> Any:
                with np.errstate(all="ignore"):
                    return fn(*args, **kwargs)

            registered.__name__ = fn.__name__
            registered.__qualname__ = fn.__qualname__
            registered.__doc__ = fn.__doc__
        if leaf:
            leaf_kernel(registered)
        for name in names:
            cpu_lib.impl(aten(name), registered, "CPU")
        return fn

    return register


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
    t._key_set = CPU_KEYS
    t._autograd_meta = None
    t._base = None
    t._version_counter = None
    return t


def arr(x: Any) -> Any:
    """The NumPy array of a tensor; scalars pass through."""
    return x._data if isinstance(x, Tensor) else x
