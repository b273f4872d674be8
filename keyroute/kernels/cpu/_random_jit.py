"""Compiled (numba) versions of the random kernels' hot loops, bit for bit the NumPy ones.

`keyroute/kernels/cpu/random.py` builds PyTorch's distributions out of NumPy array passes: the
float `normal_` transform alone is ~40 passes over 8-element rows (avx_mathfun's log and sincos
with their FMA contractions), and `randperm` is a Python swap loop. Each pass costs a
microsecond of NumPy call overhead, so small draws cost hundreds of microseconds. With the
`compile` extra (numba) these loops run compiled, one element at a time, doing the same IEEE
operations in the same order:

- float32 operations stay float32 (numba types `float32 op float32` as float32, and every
  constant here is a `np.float32`); an FMA of floats is the product in double (exact) plus the
  addend, rounded once to double and once to float, as `_random_math.fma32`;
- no `fastmath`: LLVM neither contracts nor reassociates;
- `fma64` is the same error-free product and sum as `_random_math.fma64`;
- libm: numba's `math.log` / `cos` / `sin` call the C library, the same functions the NumPy path
  reaches through `_random_math.libm`. That is checked, not assumed: the first use compares the
  compiled kernels with the NumPy path on probe values and falls back to NumPy for good if any
  bit differs.

Without numba (or if the check fails) `jit_kernels()` is None and the NumPy path runs.
"""

from __future__ import annotations

import importlib.util
import math
from collections.abc import Callable
from typing import Any

import numpy as np

__all__ = ["jit_kernels"]

_f32 = np.float32
_TWO_PI = 2.0 * math.pi
_KERNELS: dict[str, Callable[..., Any]] | None = None
_CHECKED = False
_calls = 0
_WARM_CALLS = 32  # draws before a process loads the compiled kernels
_LARGE = 1 << 15  # a draw this large loads them at once


def _agrees(kernels: dict[str, Callable[..., Any]]) -> bool:
    """The compiled kernels against the NumPy path on probe values: every bit the same."""
    from ._random_math import fill16_double, fill16_float, libm

    rs = np.random.RandomState(97)
    u64 = rs.random_sample((64, 16))
    u64[0, :8] = (0.0, 1e-300, 0.5, 1 - 2**-53, 2**-30, 0.25, 0.75, 0.999)
    u32 = u64.astype(_f32)
    u32[0, :8] = (0.0, 2**-24, 0.5, 1 - 2**-24, 2**-12, 0.25, 0.75, 0.999)
    for mean, std in ((0.0, 1.0), (0.3, 2.5), (-1.0, 0.01)):
        out = np.empty_like(u32)
        kernels["fill16_float"](u32, out, _f32(mean), _f32(std))
        ref = fill16_float(u32, mean, std)
        if not np.array_equal(out.view(np.int32), ref.view(np.int32)):
            return False
        out = np.empty_like(u64)
        kernels["fill16_double"](u64, out, mean, std, mean == 0.0 and std == 1.0)
        ref = fill16_double(u64, mean, std)
        if not np.array_equal(out.view(np.int64), ref.view(np.int64)):
            return False
    u = u64.reshape(-1)
    k = u.size // 2
    c, s = np.empty(k), np.empty(k)
    kernels["box_muller"](u, c, s)
    r = np.sqrt(-2.0 * libm("log1p")(-u[1::2]))
    theta = _TWO_PI * u[0::2]
    return np.array_equal(c, r * libm("cos")(theta)) and np.array_equal(s, r * libm("sin")(theta))


def jit_kernels(size: int) -> dict[str, Callable[..., Any]] | None:
    """The compiled kernels for a draw of `size` values, or None to take the NumPy path.

    Loading numba and its cached kernels costs a few hundred milliseconds once per process, more
    than the NumPy path spends on a few dozen small draws, so a process starts compiled kernels
    only for a large draw or once it has made `_WARM_CALLS` draws (a program drawing in a loop).
    None also when numba is absent or its libm disagrees with the NumPy path.
    """
    global _KERNELS, _CHECKED, _calls
    if _CHECKED:
        return _KERNELS
    _calls += 1
    if size < _LARGE and _calls < _WARM_CALLS:
        return None
    _CHECKED = True
    if importlib.util.find_spec("numba") is not None:
        from ._jit import _unhooked_print

        with _unhooked_print():
            from . import _random_numba as nb

        kernels = {
            "fill16_float": nb.fill16_float,
            "fill16_double": nb.fill16_double,
            "box_muller": nb.box_muller,
            "randperm_forward": nb.randperm_forward,
        }
        _KERNELS = kernels if _agrees(kernels) else None
    return _KERNELS
