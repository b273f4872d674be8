"""CPU kernel of poisson, as PyTorch's sample_poisson (Distributions.cpp, after NumPy's legacy
generator): one element at a time in the result's row-major order, each drawing
uniform_real_distribution<double> values (53 bits of a 64-bit draw) from the generator.

- rate 0: 0, no draw.
- rate < 10: multiply uniforms until the product falls to exp(-rate) or below; the count of
  products still above it is the sample.
- rate >= 10: Hoermann's transformed rejection (PTRS), two uniforms per attempt.

The number of draws per element depends on the values drawn, so the draws are made one at a
time from the generator (PyTorch's kernel is serial too).
"""

from __future__ import annotations

import ctypes
import ctypes.util
import math
from collections.abc import Callable

import numpy as np

from ...random import Generator, get_generator
from ...tensor._tensor import Tensor
from ._kernel import kernel, wrap

__all__: list[str] = []

_M53 = (1 << 53) - 1
_2_53 = 1.0 / (1 << 53)


class _Uniforms:
    """uniform_real_distribution<double>(0, 1) draws, fetched from the generator in blocks
    only as far as they are consumed (unused words of a block would advance PyTorch's stream
    differently, so a block is only as large as the next known minimum need)."""

    def __init__(self, g: Generator) -> None:
        self._g = g

    def take(self, n: int) -> list[float]:
        raw = self._g.random_u64(n)
        return [(int(w) & _M53) * _2_53 for w in raw.tolist()]


def _c_lgamma() -> Callable[[float], float]:
    """The C library's lgamma, which PyTorch calls (Python's math.lgamma is its own
    implementation, a few ulps apart); math.lgamma where no C library is found."""
    try:
        lib = ctypes.CDLL(ctypes.util.find_library("m") or "libm.so.6")
        fn = lib.lgamma
    except (OSError, AttributeError):
        return math.lgamma
    fn.restype = ctypes.c_double
    fn.argtypes = [ctypes.c_double]
    return fn


_lgamma = _c_lgamma()


def _small_rate(u: _Uniforms, lam: float) -> int:
    enlam = math.exp(-lam)
    x = 0
    prod = 1.0
    while True:
        prod *= u.take(1)[0]
        if prod > enlam:
            x += 1
        else:
            return x


def _large_rate(u: _Uniforms, lam: float) -> int:
    slam = math.sqrt(lam)
    loglam = math.log(lam)
    b = 0.931 + 2.53 * slam
    a = -0.059 + 0.02483 * b
    invalpha = 1.1239 + 1.1328 / (b - 3.4)
    vr = 0.9277 - 3.6224 / (b - 2)
    while True:
        uu, v = u.take(2)
        uu -= 0.5
        us = 0.5 - abs(uu)
        k = math.floor((2 * a / us + b) * uu + lam + 0.43)
        if us >= 0.07 and v <= vr:
            return k
        if k < 0 or (us < 0.013 and v > us):
            continue
        lhs = math.log(v) + math.log(invalpha) - math.log(a / (us * us) + b)
        if lhs <= -lam + k * loglam - _lgamma(k + 1.0):
            return k


def sample_poisson(g: Generator, rates: np.ndarray) -> np.ndarray:
    """One Poisson sample per rate (float64 array, row-major), as int64 counts."""
    u = _Uniforms(g)
    out = np.zeros(rates.size, np.int64)
    for i, lam in enumerate(rates.tolist()):
        if not lam >= 0:
            raise RuntimeError("invalid Poisson rate, expected rate to be non-negative")
        if lam >= 10:
            out[i] = _large_rate(u, lam)
        elif lam != 0:
            out[i] = _small_rate(u, lam)
    return out


@kernel("poisson")
def poisson(self: Tensor, generator=None) -> Tensor:
    dt = self._dtype
    if not dt.is_floating_point or dt.category == 3:
        raise NotImplementedError(f"\"poisson_cpu\" not implemented for '{dt._short}'")
    rates = np.ascontiguousarray(self._data).astype(np.float64).reshape(-1)
    counts = sample_poisson(get_generator(generator), rates) if rates.size else rates
    values = counts.astype(np.float64)
    if dt.name in ("float16", "bfloat16"):
        values = values.astype(np.float32)
    return wrap(values.astype(dt.np).reshape(self._data.shape), dt)
