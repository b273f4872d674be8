"""CPU kernels of the interpolation operators (aten/nn/upsample.py). The forward is separable:
one pass per spatial dim, innermost first, each a weighted sum of taps rounded to the input
dtype, as the nested Interpolate<> evaluation of UpSampleKernel.cpp rounds; the backward
scatters each output gradient into its taps in PyTorch's loop order (np.add.at is
sequential), so float32 sums round as PyTorch's."""

from __future__ import annotations

from typing import Any

import numpy as np

from ...aten.nn import upsample as aten_upsample
from ...tensor._tensor import Tensor
from ._kernel import fix_empty, kernel, wrap

__all__: list[str] = []


def _split(nd: int, align: bool, rest: tuple[Any, ...], kw: dict[str, Any]) -> tuple[bool, list]:
    names = aten_upsample._SCALE_NAMES[nd]
    rest = list(rest)
    align_corners = False
    if align:
        align_corners = kw.pop("align_corners") if "align_corners" in kw else rest.pop(0)
    scales = rest + [None] * (nd - len(rest))
    for i, n in enumerate(names):
        if n in kw:
            scales[i] = kw[n]
    return bool(align_corners), scales


def _taps(kind: str, in_sizes: list[int], out_sizes: list[int], align: bool, scales, npdt):
    return [
        aten_upsample.source_indices(kind, i, o, align, s, npdt)
        for i, o, s in zip(in_sizes, out_sizes, scales)
    ]


def _laid_out(r: np.ndarray, like: Tensor) -> np.ndarray:
    st = like.stride()
    if list(st) == list(_contig(r.shape)):
        return fix_empty(np.ascontiguousarray(r))
    # channels_last: a (N, H, W, C) buffer viewed as NCHW.
    return np.ascontiguousarray(np.moveaxis(r, 1, -1)).transpose(0, 3, 1, 2)


def _contig(shape: tuple[int, ...]) -> list[int]:
    out, acc = [], 1
    for s in reversed(shape):
        out.append(acc)
        acc *= max(s, 1)
    return out[::-1]


def _forward(name: str, self: Tensor, output_size: Any, rest: tuple, kw: dict) -> Tensor:
    nd, kind, align = aten_upsample.UPSAMPLE_OPS[name]
    m = aten_upsample._upsample_meta(name, nd, kind, self, output_size)
    align_corners, scales = _split(nd, align, rest, dict(kw))
    a = self._data
    npdt = a.dtype
    taps = _taps(
        kind, list(a.shape[2:]), [int(o) for o in output_size], align_corners, scales, npdt
    )
    y = a
    for d in range(nd - 1, -1, -1):
        axis = 2 + d
        idx, w = taps[d]
        if len(idx) == 1:
            y = np.take(y, idx[0], axis=axis)
            continue
        shape = [1] * y.ndim
        shape[axis] = -1
        acc = None
        for ii, ww in zip(idx, w):
            term = np.take(y, ii, axis=axis) * ww.reshape(shape)
            acc = term if acc is None else acc + term
        y = acc.astype(npdt, copy=False)
    return wrap(_laid_out(y, m), self._dtype)


def _backward(
    name: str, grad: Tensor, output_size: Any, input_size: Any, rest: tuple, kw: dict
) -> Tensor:
    nd, kind, align = aten_upsample.UPSAMPLE_OPS[name]
    m = aten_upsample.BACKWARD_META[name](grad, output_size, input_size, *rest, **kw)
    align_corners, scales = _split(nd, align, rest, dict(kw))
    g = grad._data
    npdt = g.dtype
    ins = [int(x) for x in input_size[2:]]
    outs = [int(x) for x in output_size]
    taps = _taps(kind, ins, outs, align_corners, scales, npdt)
    # Every (output position, tap combination) in PyTorch's loop order: output positions
    # row-major, then the taps of the outer dim first (bicubic's backward loops x before y).
    order = list(range(nd))
    if kind == "cubic":
        order = order[::-1]
    k = len(taps[0][0])
    flat_idx = np.zeros([*outs, *([k] * nd)], np.int64)
    weight = None
    in_strides = _contig(tuple(ins))
    for pos, d in enumerate(order):
        idx, w = taps[d]
        shape = [1] * (2 * nd)
        shape[d] = outs[d]
        shape[nd + pos] = k
        sel = np.stack(idx, axis=-1).reshape(shape)
        flat_idx = flat_idx + sel * in_strides[d]
        wd = np.stack(w, axis=-1).reshape(shape)
        weight = wd if weight is None else weight * wd
    planes = g.shape[0] * g.shape[1]
    if planes == 0:
        return wrap(fix_empty(np.zeros(m.shape, npdt)), grad._dtype)
    go = np.ascontiguousarray(g).reshape(planes, -1)
    n_out = go.shape[1]
    flat_idx = flat_idx.reshape(n_out, -1)
    if kind == "cubic":
        # out_value * y_coeff * x_coeff: the gradient first, then the coefficients.
        vals = go[:, :, None] * weight.reshape(n_out, -1)[None]
    else:
        vals = weight.reshape(n_out, -1)[None] * go[:, :, None]
    gi = np.zeros((planes, int(np.prod(ins))), npdt)
    np.add.at(gi, (slice(None), flat_idx.reshape(-1)), vals.reshape(planes, -1).astype(npdt))
    return wrap(fix_empty(gi.reshape(m.shape)), grad._dtype)


def _register(name: str) -> None:
    def fwd(self: Tensor, output_size: Any, *rest: Any, **kw: Any) -> Tensor:
        return _forward(name, self, output_size, rest, kw)

    def bwd(grad_output: Tensor, output_size: Any, input_size: Any, *rest: Any, **kw: Any):
        return _backward(name, grad_output, output_size, input_size, rest, kw)

    kernel(name)(fwd)
    kernel(name + "_backward")(bwd)


for _name in aten_upsample.UPSAMPLE_OPS:
    _register(_name)
