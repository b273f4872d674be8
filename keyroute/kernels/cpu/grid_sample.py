"""CPU kernel of grid_sampler_2d and its backward (aten/nn/grid_sample.py), after
GridSampler.h: grid coordinates are unnormalized to pixel indices, then border-clipped or
reflected; bilinear mode weighs the four neighbours (out-of-bounds ones count as zero), nearest
mode rounds half to even. The backward scatters into the input and differentiates the weights
with respect to the grid, times the derivative of the coordinate mapping."""

from __future__ import annotations

from typing import Any

import numpy as np

from ...aten.nn import grid_sample as aten_grid_sample
from ...tensor._tensor import Tensor
from ._kernel import fix_empty, kernel, wrap

__all__: list[str] = []


def _reflect(x: np.ndarray, twice_low: int, twice_high: int) -> tuple[np.ndarray, np.ndarray]:
    """reflect_coordinates_set_grad: the reflected coordinate and d(result)/d(x) (+-1)."""
    if twice_low == twice_high:
        return np.zeros_like(x), np.zeros_like(x)
    lo = x.dtype.type(twice_low / 2)
    span = x.dtype.type((twice_high - twice_low) / 2)
    x = x - lo
    sign = np.where(x < 0, -1, 1).astype(x.dtype)
    x = np.abs(x)
    extra = np.fmod(x, span)
    flips = np.floor(x / span)
    even = np.fmod(flips, 2) == 0
    out = np.where(even, extra + lo, span - extra + lo)
    return out.astype(x.dtype), np.where(even, sign, -sign).astype(x.dtype)


def _source_index(
    coord: np.ndarray, size: int, padding_mode: int, align_corners: bool
) -> tuple[np.ndarray, np.ndarray]:
    """grid_sampler_compute_source_index_set_grad: pixel coordinates and their derivative."""
    t = coord.dtype.type
    if align_corners:
        x = (coord + t(1)) / t(2) * t(size - 1)
        g = np.full_like(coord, t(size - 1) / t(2))
    else:
        x = ((coord + t(1)) * t(size) - t(1)) / t(2)
        g = np.full_like(coord, t(size) / t(2))
    if padding_mode == 1:  # border
        g = np.where((x <= 0) | (x >= size - 1), t(0), g)
        x = np.clip(x, t(0), t(size - 1))
    elif padding_mode == 2:  # reflection
        if align_corners:
            x, gr = _reflect(x, 0, 2 * (size - 1))
        else:
            x, gr = _reflect(x, -1, 2 * size - 1)
        g = g * gr
        g = np.where((x <= 0) | (x >= size - 1), t(0), g)
        x = np.clip(x, t(0), t(size - 1))
    return x.astype(coord.dtype), g.astype(coord.dtype)


def _corners(ix: np.ndarray, iy: np.ndarray) -> list[tuple[Any, Any, Any, Any, Any]]:
    """(x index, y index, weight, d weight / d ix, d weight / d iy) of the four neighbours."""
    x0, y0 = np.floor(ix), np.floor(iy)
    x1, y1 = x0 + 1, y0 + 1
    return [
        (x0, y0, (x1 - ix) * (y1 - iy), -(y1 - iy), -(x1 - ix)),
        (x1, y0, (ix - x0) * (y1 - iy), (y1 - iy), -(ix - x0)),
        (x0, y1, (x1 - ix) * (iy - y0), -(iy - y0), (x1 - ix)),
        (x1, y1, (ix - x0) * (iy - y0), (iy - y0), (ix - x0)),
    ]


def _gather(a: np.ndarray, xi: np.ndarray, yi: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """a[n, :, y, x] per grid point (zero out of bounds), shape (N, C, Ho, Wo), and the mask."""
    h, w = a.shape[2:]
    inb = (xi >= 0) & (xi < w) & (yi >= 0) & (yi < h)
    xc = np.clip(xi, 0, w - 1).astype(np.int64)
    yc = np.clip(yi, 0, h - 1).astype(np.int64)
    n_idx = np.arange(a.shape[0])[:, None, None]
    vals = a[n_idx, :, yc, xc]  # (N, Ho, Wo, C)
    vals = np.moveaxis(vals, -1, 1) * inb[:, None]
    return vals, inb


def _prepare(input: Tensor, grid: Tensor, padding_mode: int, align_corners: bool):  # noqa: A002, ANN202
    a = input._data
    g = grid._data
    h, w = a.shape[2:]
    ix, gx = _source_index(g[..., 0], w, padding_mode, align_corners)
    iy, gy = _source_index(g[..., 1], h, padding_mode, align_corners)
    return a, ix, iy, gx, gy


@kernel("grid_sampler_2d")
def grid_sampler_2d_k(input, grid, interpolation_mode, padding_mode, align_corners):  # noqa: A002, ANN001, ANN201
    shape = aten_grid_sample.grid_sampler_2d_check(input, grid, interpolation_mode)
    aten_grid_sample.same_dtype_check(input, grid)
    a, ix, iy, _, _ = _prepare(input, grid, padding_mode, align_corners)
    if interpolation_mode == 1:
        out, _ = _gather(a, np.rint(ix), np.rint(iy))
    else:
        out = np.zeros(shape, a.dtype)
        for xi, yi, wt, _, _ in _corners(ix, iy):
            vals, _ = _gather(a, xi, yi)
            out += vals * wt[:, None].astype(a.dtype)
    return wrap(fix_empty(np.ascontiguousarray(out.astype(a.dtype))), input._dtype)


@kernel("grid_sampler_2d_backward")
def grid_sampler_2d_backward_k(
    grad_output,
    input,
    grid,
    interpolation_mode,
    padding_mode,
    align_corners,
    output_mask,  # noqa: A002, ANN001
):  # noqa: ANN201
    aten_grid_sample.grid_sampler_2d_check(input, grid, interpolation_mode)
    aten_grid_sample.same_dtype_check(input, grid)
    a, ix, iy, gx, gy = _prepare(input, grid, padding_mode, align_corners)
    go = grad_output._data.astype(a.dtype, copy=False)
    n, c, h, w = a.shape
    gin = np.zeros(a.shape, a.dtype)
    ggrid = np.zeros(grid._data.shape, a.dtype)
    flat = gin.reshape(n, c, h * w)
    corners = (
        [(np.rint(ix), np.rint(iy), np.ones_like(ix), None, None)]
        if interpolation_mode == 1
        else _corners(ix, iy)
    )
    gix = np.zeros_like(ix)
    giy = np.zeros_like(iy)
    for xi, yi, wt, dwx, dwy in corners:
        inb = (xi >= 0) & (xi < w) & (yi >= 0) & (yi < h)
        if output_mask[0]:
            lin = (np.clip(yi, 0, h - 1) * w + np.clip(xi, 0, w - 1)).astype(np.int64)
            contrib = go * (wt * inb)[:, None]  # (N, C, Ho, Wo)
            for b in range(n):
                np.add.at(flat[b], (slice(None), lin[b].reshape(-1)), contrib[b].reshape(c, -1))
        if dwx is not None:
            vals, _ = _gather(a, xi, yi)
            s = (vals * go).sum(axis=1)  # over channels
            gix += s * dwx
            giy += s * dwy
    # PyTorch's CPU kernel always returns the grid's gradient; the input's only when asked.
    ggrid[..., 0] = gix * gx
    ggrid[..., 1] = giy * gy
    gi = wrap(fix_empty(gin), input._dtype) if output_mask[0] else None
    return gi, wrap(fix_empty(ggrid), grid._dtype)
