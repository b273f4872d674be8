"""CPU (NumPy) kernels of the assembly operators: cat, tril/triu, flip, roll, repeat,
repeat_interleave. Each is one NumPy call (np.concatenate, np.tril, np.flip, np.roll, np.tile,
np.repeat) plus, where NumPy's result layout differs from PyTorch's, one copy into an array with
PyTorch's strides.
"""

from __future__ import annotations

import numpy as np

from ...aten import _shape
from ...aten import assembly as asm
from ...aten._meta_util import check
from ...aten._variants import resize_output
from ...tensor.dtype import can_cast
from ._kernel import kernel, wrap
from .indexing import _empty, _laid_out

_contiguous = _shape.contiguous_strides


def _cat_array(tensors, dim):
    d, shape, stride, dt, valid = asm.cat_layout(tensors, dim)
    if not valid:
        return _empty((0,), (1,), dt.np), dt
    out = _empty(shape, stride, dt.np)
    arrays = [t._data for t in valid]
    with np.errstate(invalid="ignore", over="ignore"):
        if len(arrays) == 1:
            np.copyto(out, arrays[0], casting="unsafe")
        else:
            np.concatenate(arrays, axis=d, out=out, casting="unsafe")
    return out, dt


@kernel("cat")
def cat(tensors, dim=0):
    out, dt = _cat_array(tensors, dim)
    return wrap(out, dt)


@kernel("cat.out")
def cat_out(tensors, dim=0, *, out):
    result, dt = _cat_array(tensors, dim)
    if not can_cast(dt, out._dtype):
        raise TypeError(
            f"torch.cat(): input types can't be cast to the desired output type {out._dtype._short}"
        )
    resize_output(out, result.shape)
    with np.errstate(invalid="ignore", over="ignore"):
        np.copyto(out._data, result, casting="unsafe")
    return out


# ----------------------------------------------------------------------------- tril / triu


def _tri_mask(shape: tuple[int, ...], k: int, lower: bool) -> np.ndarray:
    r, c = shape[-2], shape[-1]
    return np.tri(r, c, k, dtype=bool) if lower else ~np.tri(r, c, k - 1, dtype=bool)


@kernel("tril")
def tril(self, diagonal=0):
    asm.tri_check(self, "tril")
    a = self._data
    return wrap(_laid_out(np.tril(a, int(diagonal)), a.shape, _contiguous(a.shape)), self._dtype)


@kernel("triu")
def triu(self, diagonal=0):
    asm.tri_check(self, "triu")
    a = self._data
    return wrap(_laid_out(np.triu(a, int(diagonal)), a.shape, _contiguous(a.shape)), self._dtype)


@kernel("tril_")
def tril_(self, diagonal=0):
    asm.tri_check(self, "tril")
    a = self._data
    np.copyto(a, 0, where=~_tri_mask(a.shape, int(diagonal), True))
    return self


@kernel("triu_")
def triu_(self, diagonal=0):
    asm.tri_check(self, "triu")
    a = self._data
    np.copyto(a, 0, where=~_tri_mask(a.shape, int(diagonal), False))
    return self


# ----------------------------------------------------------------------------- flip / roll


@kernel("flip")
def flip(self, dims):
    a = self._data
    wrapped = _shape.wrap_dims([int(d) for d in dims], a.ndim)
    stride = asm.flip_strides(a.shape, self.stride())
    out = _empty(a.shape, stride, a.dtype)
    np.copyto(out, np.flip(a, wrapped) if wrapped and a.ndim else a)
    return wrap(out, self._dtype)


@kernel("roll")
def roll(self, shifts, dims=()):
    a = self._data
    shifts = [int(s) for s in shifts]
    wrapped = asm.roll_check(a.shape, shifts, list(dims))
    if a.size == 0:
        out = _empty(a.shape, asm.flip_strides(a.shape, self.stride()), a.dtype)
        return wrap(out, self._dtype)
    if not wrapped:
        r = np.roll(a.reshape(-1), shifts[0]).reshape(a.shape)
    else:
        r = np.roll(a, shifts, wrapped)
    return wrap(_laid_out(r, a.shape, _contiguous(a.shape)), self._dtype)


# ----------------------------------------------------------------------------- repeat


@kernel("repeat")
def repeat(self, repeats):
    a = self._data
    padded, target = asm.repeat_target(a.shape, [int(r) for r in repeats])
    if 0 in target:
        return wrap(_empty(target, _contiguous(target), a.dtype), self._dtype)
    r = np.tile(a.reshape(padded), [int(x) for x in repeats])
    return wrap(_laid_out(r, target, _contiguous(target)), self._dtype)


@kernel("repeat_interleave.Tensor")
def repeat_interleave_Tensor(repeats, *, output_size=None):
    asm.repeat_interleave_check(repeats)
    r = repeats._data
    dt = repeats._dtype
    if r.shape[0] == 0:
        return wrap(_empty((0,), (1,), r.dtype), dt)
    if output_size is None:
        check(bool((r >= 0).all()), "repeats can not be negative")
        total = int(r.sum())
    else:
        total = int(output_size)
        csum = np.cumsum(r)
        check(bool((r >= 0).all()) and int(csum[-1]) <= total, "repeats can not be negative")
    out = np.repeat(np.arange(r.shape[0], dtype=r.dtype), r)
    if out.shape[0] != total:
        padded = np.zeros(total, r.dtype)
        n = min(total, out.shape[0])
        padded[:n] = out[:n]
        out = padded
    return wrap(out, dt)
