"""CPU kernels of im2col / col2im and pixel_shuffle / pixel_unshuffle (aten/nn/fold.py). col2im
adds the blocks kernel offset by kernel offset, as Im2Col.h's loop over the column channels
does, so overlapping blocks sum in PyTorch's order."""

from __future__ import annotations

import numpy as np

from ...aten.nn import fold as Fo
from ...aten.nn.upsample import out_strides
from ...tensor._tensor import Tensor
from ._kernel import fix_empty, kernel, wrap

__all__: list[str] = []


def _window(oh: int, ow: int, ki: int, kj: int, d: list[int], s: list[int]) -> tuple[slice, slice]:
    h0, w0 = ki * d[0], kj * d[1]
    return slice(h0, h0 + s[0] * (oh - 1) + 1, s[0]), slice(w0, w0 + s[1] * (ow - 1) + 1, s[1])


@kernel("im2col")
def im2col_k(self: Tensor, kernel_size, dilation, padding, stride) -> Tensor:  # noqa: ANN001
    out_shape, k, d, p, s, oh, ow = Fo.im2col_shape(self, kernel_size, dilation, padding, stride)
    a = self._data
    batched = a.ndim == 4
    x = a if batched else a[None]
    n, c = x.shape[:2]
    xp = np.pad(x, ((0, 0), (0, 0), (p[0], p[0]), (p[1], p[1])))
    cols = np.empty((n, c, k[0], k[1], oh, ow), a.dtype)
    for ki in range(k[0]):
        for kj in range(k[1]):
            hs, ws = _window(oh, ow, ki, kj, d, s)
            cols[:, :, ki, kj] = xp[:, :, hs, ws]
    return wrap(fix_empty(cols.reshape(out_shape)), self._dtype)


@kernel("col2im")
def col2im_k(self: Tensor, output_size, kernel_size, dilation, padding, stride) -> Tensor:  # noqa: ANN001
    out_shape, o, k, d, p, s, bh, bw = Fo.col2im_shape(
        self, output_size, kernel_size, dilation, padding, stride
    )
    a = self._data
    x = a if a.ndim == 3 else a[None]
    n = x.shape[0]
    c = x.shape[1] // (k[0] * k[1])
    cols = x.reshape(n, c, k[0], k[1], bh, bw)
    out = np.zeros((n, c, o[0] + 2 * p[0], o[1] + 2 * p[1]), a.dtype)
    for ki in range(k[0]):
        for kj in range(k[1]):
            hs, ws = _window(bh, bw, ki, kj, d, s)
            out[:, :, hs, ws] += cols[:, :, ki, kj]
    out = np.ascontiguousarray(out[:, :, p[0] : p[0] + o[0], p[1] : p[1] + o[1]])
    return wrap(fix_empty(out.reshape(out_shape)), self._dtype)


def _laid_out(self: Tensor, r: np.ndarray) -> np.ndarray:
    if out_strides(self, r.shape) is not None:  # channels_last: an NHWC buffer
        return np.ascontiguousarray(r.transpose(0, 2, 3, 1)).transpose(0, 3, 1, 2)
    return fix_empty(np.ascontiguousarray(r))


@kernel("pixel_shuffle")
def pixel_shuffle_k(self: Tensor, upscale_factor: int) -> Tensor:
    shape = Fo.pixel_shuffle_shape(self, upscale_factor)
    a, r = self._data, int(upscale_factor)
    *batch, c, h, w = a.shape
    nb = len(batch)
    x = a.reshape(*batch, c // (r * r), r, r, h, w)
    x = x.transpose(*range(nb), nb, nb + 3, nb + 1, nb + 4, nb + 2).reshape(shape)
    return wrap(_laid_out(self, x), self._dtype)


@kernel("pixel_unshuffle")
def pixel_unshuffle_k(self: Tensor, downscale_factor: int) -> Tensor:
    shape = Fo.pixel_unshuffle_shape(self, downscale_factor)
    a, r = self._data, int(downscale_factor)
    *batch, c, h, w = a.shape
    nb = len(batch)
    x = a.reshape(*batch, c, h // r, r, w // r, r)
    x = x.transpose(*range(nb), nb, nb + 2, nb + 4, nb + 1, nb + 3).reshape(shape)
    return wrap(_laid_out(self, x), self._dtype)
