"""CPU kernels of 3-d pooling and adaptive max pooling (aten/nn/pool3d.py).

Windows are walked one kernel offset at a time over every output position at once (kT*kH*kW
NumPy steps), so each output sees its window in PyTorch's loop order: max pooling keeps the
first strictly greater value and lets a NaN replace anything (`val > maxval || isnan(val)`),
starting from the window's first in-bounds position. Average pooling divides by the box's
full or in-bounds volume (count_include_pad) or divisor_override; floats compute in float32
for float16/bfloat16 (rounded once), integers truncate. Backward operators scatter the
gradient back through the same offsets or the saved indices.
"""

from __future__ import annotations

import itertools
import math
from typing import Any

import numpy as np

from ...aten.nn import pool3d as P
from ...tensor._tensor import Tensor
from ...tensor.dtype import int64
from ._kernel import fix_empty, kernel, wrap
from .backward_ops import _comp

__all__: list[str] = []


def _lowest(a: np.ndarray) -> Any:
    return -np.inf if a.dtype.kind == "f" else np.iinfo(a.dtype).min


def _padded(x: np.ndarray, k, s, p, d, out, fill: Any) -> np.ndarray:
    """x with `p` cells of `fill` before each spatial dim and enough after for every window."""
    nd = len(k)
    spatial = x.shape[-nd:]
    after = [
        max(0, (out[i] - 1) * s[i] + (k[i] - 1) * d[i] + 1 - spatial[i] - p[i]) for i in range(nd)
    ]
    if not any(p) and not any(after):
        return x
    xp = np.full(
        (*x.shape[:-nd], *(spatial[i] + p[i] + after[i] for i in range(nd))), fill, x.dtype
    )
    xp[(..., *(slice(p[i], p[i] + spatial[i]) for i in range(nd)))] = x
    return xp


def _offset_slices(off, s, d, out) -> tuple[Any, ...]:
    """The padded cells offset `off` of every window reads."""
    return (
        ...,
        *(
            slice(off[i] * d[i], off[i] * d[i] + (out[i] - 1) * s[i] + 1, s[i])
            for i in range(len(off))
        ),
    )


def _positions(off, s, p, d, out) -> list[np.ndarray]:
    """Per spatial dim, the input coordinate offset `off` reads for each output index."""
    return [np.arange(out[i]) * s[i] - p[i] + off[i] * d[i] for i in range(len(off))]


def _flat(coords: list[np.ndarray], spatial) -> np.ndarray:
    """Flat spatial index of the outer product of per-dim coordinates."""
    nd = len(coords)
    flat = np.zeros([len(c) for c in coords], np.int64)
    for i in range(nd):
        shape = [1] * nd
        shape[i] = len(coords[i])
        flat = flat * spatial[i] + coords[i].reshape(shape)
    return flat


def max_pool_nd(x: np.ndarray, k, s, p, d, out) -> tuple[np.ndarray, np.ndarray]:
    nd = len(k)
    spatial = x.shape[-nd:]
    xp = _padded(x, k, s, p, d, out, _lowest(x))
    best = np.full((*x.shape[:-nd], *out), _lowest(x), x.dtype)
    # each window's first in-bounds cell: PyTorch's starting maxindex
    first = []
    for i in range(nd):
        start = np.arange(out[i]) * s[i] - p[i]
        first.append(np.where(start < 0, start + (-start + d[i] - 1) // d[i] * d[i], start))
    arg = np.broadcast_to(_flat(first, spatial), best.shape).copy()
    floating = x.dtype.kind == "f"
    for off in itertools.product(*(range(n) for n in k)):
        v = xp[_offset_slices(off, s, d, out)]
        take = v > best
        if floating:
            take |= np.isnan(v)
        if take.any():
            pos = _positions(off, s, p, d, out)
            inside = [(c >= 0) & (c < spatial[i]) for i, c in enumerate(pos)]
            mask = np.ones(out, bool)
            for i in range(nd):
                shape = [1] * nd
                shape[i] = out[i]
                mask = mask & inside[i].reshape(shape)
            take &= mask
            best = np.where(take, v, best)
            arg = np.where(take, _flat([np.clip(c, 0, None) for c in pos], spatial), arg)
    return best, arg


def _avg_divisor(size: int, o: int, k: int, s: int, p: int, include_pad: bool) -> np.ndarray:
    starts = np.arange(o) * s - p
    ends = np.minimum(starts + k, size + p)
    full = ends - starts
    inb = np.minimum(ends, size) - np.maximum(starts, 0)
    return (full if include_pad else inb).astype(np.float64)


def _divisors(spatial, out, k, s, p, include_pad: bool, override: Any) -> np.ndarray:
    if override is not None:
        return np.full(out, float(override))
    div = np.ones(out)
    for i in range(len(k)):
        shape = [1] * len(k)
        shape[i] = out[i]
        div = div * _avg_divisor(spatial[i], out[i], k[i], s[i], p[i], include_pad).reshape(shape)
    return div


def _round(r: np.ndarray, dt: Any) -> Tensor:
    if dt.category < 2:
        r = np.trunc(r)
    return wrap(fix_empty(np.ascontiguousarray(r.astype(dt.np))), dt)


@kernel("max_pool3d_with_indices")
def max_pool3d_with_indices(
    self: Tensor,
    kernel_size: Any,
    stride: Any = (),
    padding: Any = 0,
    dilation: Any = 1,
    ceil_mode: bool = False,
) -> tuple[Tensor, Tensor]:
    k, s, p, d, out = P.pool3d_output(
        self, "max_pool3d", kernel_size, stride, padding, dilation, ceil_mode,
        "max_pool3d_with_indices_out_cpu_template()",
    )  # fmt: skip
    P.max_pool3d_with_indices(self, kernel_size, stride, padding, dilation, ceil_mode)
    dt = self._dtype
    x = self._data.astype(_comp(dt), copy=False)
    vals, idx = max_pool_nd(x, k, s, p, d, out)
    return (
        wrap(fix_empty(np.ascontiguousarray(vals.astype(dt.np, copy=False))), dt),
        wrap(fix_empty(np.ascontiguousarray(idx)), int64),
    )


def _scatter_indices(grad: np.ndarray, indices: np.ndarray, shape, nd: int) -> np.ndarray:
    lead = shape[: len(shape) - nd]
    m = math.prod(lead)
    n = math.prod(shape[len(shape) - nd :])
    out = np.zeros((m, n), grad.dtype)
    if not m or not indices.size:
        return out.reshape(shape)
    g = grad.reshape(m, -1)
    idx = indices.reshape(m, -1)
    rows = np.broadcast_to(np.arange(m)[:, None], idx.shape)
    np.add.at(out, (rows, idx), g)
    return out.reshape(shape)


@kernel("max_pool3d_with_indices_backward")
def max_pool3d_with_indices_backward(
    grad_output: Tensor,
    self: Tensor,
    kernel_size: Any,
    stride: Any,
    padding: Any,
    dilation: Any,
    ceil_mode: bool,
    indices: Tensor,
) -> Tensor:
    P.max_pool3d_with_indices_backward(
        grad_output, self, kernel_size, stride, padding, dilation, ceil_mode, indices
    )
    dt = self._dtype
    g = grad_output._data.astype(_comp(dt), copy=False)
    r = _scatter_indices(g, indices._data, self._data.shape, 3)
    return wrap(fix_empty(r.astype(dt.np, copy=False)), dt)


@kernel("avg_pool3d")
def avg_pool3d(
    self: Tensor,
    kernel_size: Any,
    stride: Any = (),
    padding: Any = 0,
    ceil_mode: bool = False,
    count_include_pad: bool = True,
    divisor_override: int | None = None,
) -> Tensor:
    P.avg_pool3d(self, kernel_size, stride, padding, ceil_mode, count_include_pad, divisor_override)
    k, s, p, d, out = P.pool3d_output(
        self, "avg_pool3d", kernel_size, stride, padding, None, ceil_mode, "avg_pool3d()", True
    )
    dt = self._dtype
    comp = _comp(dt) if dt.category == 2 else np.dtype(np.float64)
    x = self._data.astype(comp, copy=False)
    xp = _padded(x, k, s, p, d, out, 0)
    acc = np.zeros((*x.shape[:-3], *out), comp)
    for off in itertools.product(*(range(n) for n in k)):
        acc = acc + xp[_offset_slices(off, s, d, out)]
    div = _divisors(x.shape[-3:], out, k, s, p, count_include_pad, divisor_override)
    return _round(acc / div.astype(comp), dt)


@kernel("avg_pool3d_backward")
def avg_pool3d_backward(
    grad_output: Tensor,
    self: Tensor,
    kernel_size: Any,
    stride: Any,
    padding: Any,
    ceil_mode: bool,
    count_include_pad: bool,
    divisor_override: Any,
) -> Tensor:
    P.avg_pool3d_backward(
        grad_output, self, kernel_size, stride, padding, ceil_mode, count_include_pad,
        divisor_override,
    )  # fmt: skip
    k, s, p, d, out = P.pool3d_output(
        self, "avg_pool3d", kernel_size, stride, padding, None, ceil_mode, "avg_pool3d()", True
    )
    dt = self._dtype
    comp = _comp(dt)
    x = self._data
    spatial = x.shape[-3:]
    div = _divisors(spatial, out, k, s, p, count_include_pad, divisor_override)
    g = grad_output._data.astype(comp, copy=False) / div.astype(comp)
    buf = _padded(np.zeros(x.shape, comp), k, s, p, d, out, 0).copy()
    for off in itertools.product(*(range(n) for n in k)):
        buf[_offset_slices(off, s, d, out)] += g
    r = buf[(..., *(slice(p[i], p[i] + spatial[i]) for i in range(3)))]
    return wrap(fix_empty(np.ascontiguousarray(r).astype(dt.np, copy=False)), dt)


def _bins(size: int, out: int) -> list[tuple[int, int]]:
    return [((i * size) // out, -((-(i + 1) * size) // out)) for i in range(out)]


@kernel("_adaptive_avg_pool3d")
def _adaptive_avg_pool3d(self: Tensor, output_size: Any) -> Tensor:
    meta = P._adaptive_avg_pool3d(self, output_size)
    dt = self._dtype
    comp = _comp(dt)
    x = self._data.astype(comp, copy=False)
    out = np.empty(meta._data.shape, comp)
    t_bins, h_bins, w_bins = (_bins(x.shape[-3 + i], meta._data.shape[-3 + i]) for i in range(3))
    for i, (t0, t1) in enumerate(t_bins):
        for j, (h0, h1) in enumerate(h_bins):
            for m, (w0, w1) in enumerate(w_bins):
                out[..., i, j, m] = x[..., t0:t1, h0:h1, w0:w1].mean(axis=(-3, -2, -1))
    return wrap(fix_empty(out.astype(dt.np, copy=False)), dt)


@kernel("_adaptive_avg_pool3d_backward")
def _adaptive_avg_pool3d_backward(grad_output: Tensor, self: Tensor) -> Tensor:
    P._adaptive_avg_pool3d_backward(grad_output, self)
    dt = self._dtype
    comp = _comp(dt)
    g = grad_output._data.astype(comp, copy=False)
    r = np.zeros(self._data.shape, comp)
    bins = [_bins(self._data.shape[-3 + i], g.shape[-3 + i]) for i in range(3)]
    for i, (t0, t1) in enumerate(bins[0]):
        for j, (h0, h1) in enumerate(bins[1]):
            for m, (w0, w1) in enumerate(bins[2]):
                n = (t1 - t0) * (h1 - h0) * (w1 - w0)
                r[..., t0:t1, h0:h1, w0:w1] += (g[..., i, j, m] / comp.type(n))[
                    ..., None, None, None
                ]
    return wrap(fix_empty(r.astype(dt.np, copy=False)), dt)


def _adaptive_max(self: Tensor, output_size: Any, nd: int) -> tuple[Tensor, Tensor]:
    shape = P.adaptive_max_shape(self, output_size, nd)
    dt = self._dtype
    x = self._data.astype(_comp(dt), copy=False)
    spatial = x.shape[-nd:]
    osz = shape[-nd:]
    vals = np.empty(shape, x.dtype)
    idx = np.empty(shape, np.int64)
    strides = [math.prod(spatial[i + 1 :]) for i in range(nd)]
    for cell in itertools.product(*(range(o) for o in osz)):
        box = [_bins(spatial[i], osz[i])[cell[i]] for i in range(nd)]
        win = x[(..., *(slice(a, b) for a, b in box))]
        flat = win.reshape(*win.shape[:-nd], -1)
        nan = np.isnan(flat)
        # the last NaN if any (each NaN replaces the running max), else the first maximum
        last_nan = flat.shape[-1] - 1 - nan[..., ::-1].argmax(-1)
        arg = (
            np.where(nan.any(-1), last_nan, flat.argmax(-1)) if flat.shape[-1] else flat.argmax(-1)
        )
        vals[(..., *cell)] = np.take_along_axis(flat, arg[..., None], -1)[..., 0]
        lens = [b - a for a, b in box]
        flat_idx = np.zeros(arg.shape, np.int64)
        rem = arg
        for i in range(nd):
            inner = math.prod(lens[i + 1 :])
            coord = rem // inner + box[i][0]
            rem = rem % inner
            flat_idx = flat_idx + coord * strides[i]
        idx[(..., *cell)] = flat_idx
    return (
        wrap(fix_empty(vals.astype(dt.np, copy=False)), dt),
        wrap(fix_empty(idx), int64),
    )


@kernel("adaptive_max_pool2d")
def adaptive_max_pool2d(self: Tensor, output_size: Any) -> tuple[Tensor, Tensor]:
    return _adaptive_max(self, output_size, 2)


@kernel("adaptive_max_pool3d")
def adaptive_max_pool3d(self: Tensor, output_size: Any) -> tuple[Tensor, Tensor]:
    return _adaptive_max(self, output_size, 3)


def _adaptive_max_backward(grad_output: Tensor, self: Tensor, indices: Tensor, nd: int) -> Tensor:
    dt = self._dtype
    g = grad_output._data.astype(_comp(dt), copy=False)
    r = _scatter_indices(g, indices._data, self._data.shape, nd)
    return wrap(fix_empty(r.astype(dt.np, copy=False)), dt)


@kernel("adaptive_max_pool2d_backward")
def adaptive_max_pool2d_backward(grad_output: Tensor, self: Tensor, indices: Tensor) -> Tensor:
    P.adaptive_max_pool2d_backward(grad_output, self, indices)
    return _adaptive_max_backward(grad_output, self, indices, 2)


@kernel("adaptive_max_pool3d_backward")
def adaptive_max_pool3d_backward(grad_output: Tensor, self: Tensor, indices: Tensor) -> Tensor:
    P.adaptive_max_pool3d_backward(grad_output, self, indices)
    return _adaptive_max_backward(grad_output, self, indices, 3)
