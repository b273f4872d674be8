"""CPU kernels of the anti-aliased interpolation operators (aten/nn/upsample_aa.py), as
UpSampleKernel.cpp's separable AA path: the width pass first, then the height pass, a dim
whose size does not change is skipped; each output is the tap-ordered sum of input * weight
in the opmath type. The backward scatters each output gradient into its window in PyTorch's
loop order (output row, output column, tap row, tap column; np.add.at is sequential), each
term (wx * wy) * grad. uint8 inputs (PyTorch's fixed-point Pillow path) are not done."""

from __future__ import annotations

from typing import Any

import numpy as np

from ...aten.nn import upsample_aa as aten_aa
from ...tensor._tensor import Tensor
from ._kernel import fix_empty, kernel, wrap
from .upsample import _laid_out, _split

__all__: list[str] = []


def _uint8_gap(t: Tensor) -> None:
    if t._dtype.name == "uint8":
        raise NotImplementedError(
            "interpolate(antialias=True) on uint8 tensors (PyTorch's fixed-point path) is not "
            "implemented in keyroute yet"
        )


def _forward(name: str, self: Tensor, output_size: Any, rest: tuple, kw: dict) -> Tensor:
    kind = aten_aa.AA_OPS[name]
    m = aten_aa._aa_meta(name, self, output_size)
    _uint8_gap(self)
    align, scales = _split(2, True, rest, dict(kw))
    a = self._data
    npdt = a.dtype
    dt = aten_aa._opmath(npdt)
    outs = [int(o) for o in output_size]
    y = a
    for d in (1, 0):  # width, then height
        axis = 2 + d
        if y.shape[axis] == outs[d]:
            continue
        idx, w = aten_aa.aa_taps(kind, y.shape[axis], outs[d], align, scales[d], npdt)
        moved = np.moveaxis(y, axis, -1)
        acc = None
        for k in range(idx.shape[1]):
            term = (moved[..., idx[:, k]] * w[:, k]).astype(dt)
            acc = term if acc is None else (acc + term).astype(dt)
        y = np.moveaxis(acc.astype(npdt), -1, axis)
    if y is a:
        y = a.copy()
    return wrap(_laid_out(np.ascontiguousarray(y), m), self._dtype)


def _backward(
    name: str, grad: Tensor, output_size: Any, input_size: Any, rest: tuple, kw: dict
) -> Tensor:
    kind = aten_aa.AA_OPS[name]
    m = aten_aa.AA_BACKWARD_META[name](grad, output_size, input_size, *rest, **kw)
    _uint8_gap(grad)
    align, scales = _split(2, True, rest, dict(kw))
    g = grad._data
    npdt = g.dtype
    dt = aten_aa._opmath(npdt)
    ih, iw = int(input_size[2]), int(input_size[3])
    oh, ow = int(output_size[0]), int(output_size[1])
    planes = g.shape[0] * g.shape[1]
    if planes == 0:
        return wrap(fix_empty(np.zeros(m.shape, npdt)), grad._dtype)
    iy, wy = aten_aa.aa_taps(kind, ih, oh, align, scales[0], npdt)
    ix, wx = aten_aa.aa_taps(kind, iw, ow, align, scales[1], npdt)
    # (oh, ow, ty, tx): flat input index and weight wx * wy of every tap.
    flat = iy[:, None, :, None] * iw + ix[None, :, None, :]
    weight = (wx[None, :, None, :] * wy[:, None, :, None]).astype(dt)
    go = np.ascontiguousarray(g).reshape(planes, oh * ow).astype(dt)
    vals = (weight.reshape(oh * ow, -1)[None] * go[:, :, None]).astype(dt)
    gi = np.zeros((planes, ih * iw), dt)
    np.add.at(gi, (slice(None), flat.reshape(-1)), vals.reshape(planes, -1))
    return wrap(fix_empty(gi.astype(npdt).reshape(m.shape)), grad._dtype)


def _register(name: str) -> None:
    def fwd(self: Tensor, output_size: Any, *rest: Any, **kw: Any) -> Tensor:
        return _forward(name, self, output_size, rest, kw)

    def bwd(grad_output: Tensor, output_size: Any, input_size: Any, *rest: Any, **kw: Any):
        return _backward(name, grad_output, output_size, input_size, rest, kw)

    kernel(name)(fwd)
    kernel(name + "_backward")(bwd)


for _name in aten_aa.AA_OPS:
    _register(_name)
