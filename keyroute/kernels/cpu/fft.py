"""CPU kernels of torch.fft's three transforms (aten/fft.py) on numpy.fft (pocketfft, which
computes float32 in float32 since NumPy 2.0). The result is laid out as the meta rule says
(PyTorch's MKL _exec_fft strides)."""

from __future__ import annotations

import numpy as np

from ...aten import fft as aten_fft
from ...tensor._tensor import Tensor
from ._kernel import kernel, wrap

__all__: list[str] = []

# PyTorch's normalization enum (0 none, 1 1/sqrt(n), 2 1/n) as numpy.fft's norm for a forward
# and an inverse transform.
_FORWARD_NORM = ("backward", "ortho", "forward")
_INVERSE_NORM = ("forward", "ortho", "backward")


def _laid_out(values: np.ndarray, like: Tensor) -> np.ndarray:
    """values copied into a fresh buffer with the meta tensor `like`'s strides."""
    shape = tuple(like.shape)
    strides = like.stride()
    size = values.dtype.itemsize
    n = 1
    for s, st in zip(shape, strides):
        n += (s - 1) * st if s else 0
    if not values.size:
        n = 0
    buf = np.empty(max(n, 1), values.dtype)
    out = np.lib.stride_tricks.as_strided(buf, shape, tuple(st * size for st in strides))
    out[...] = values
    return out


def _dims(dim: list[int], ndim: int) -> list[int]:
    return [d % ndim for d in dim]


@kernel("_fft_r2c")
def fft_r2c_k(self: Tensor, dim: list[int], normalization: int, onesided: bool) -> Tensor:
    m = aten_fft._fft_r2c(self, dim, normalization, onesided)
    a = self._data
    dims = _dims(dim, a.ndim)
    norm = _FORWARD_NORM[normalization]
    if onesided:
        r = np.fft.rfftn(a, axes=dims, norm=norm)
    else:
        r = np.fft.fftn(a, axes=dims, norm=norm)
    return wrap(_laid_out(r.astype(m._dtype.np, copy=False), m), m._dtype)


@kernel("_fft_c2r")
def fft_c2r_k(self: Tensor, dim: list[int], normalization: int, last_dim_size: int) -> Tensor:
    m = aten_fft._fft_c2r(self, dim, normalization, last_dim_size)
    a = self._data
    dims = _dims(dim, a.ndim)
    s = [a.shape[d] for d in dims[:-1]] + [int(last_dim_size)]
    r = np.fft.irfftn(a, s=s, axes=dims, norm=_INVERSE_NORM[normalization])
    return wrap(_laid_out(r.astype(m._dtype.np, copy=False), m), m._dtype)


@kernel("_fft_c2c")
def fft_c2c_k(self: Tensor, dim: list[int], normalization: int, forward: bool) -> Tensor:
    m = aten_fft._fft_c2c(self, dim, normalization, forward)
    a = self._data
    if not dim:
        return wrap(_laid_out(a.copy(), m), m._dtype)
    dims = _dims(dim, a.ndim)
    if forward:
        r = np.fft.fftn(a, axes=dims, norm=_FORWARD_NORM[normalization])
    else:
        r = np.fft.ifftn(a, axes=dims, norm=_INVERSE_NORM[normalization])
    return wrap(_laid_out(r.astype(m._dtype.np, copy=False), m), m._dtype)
