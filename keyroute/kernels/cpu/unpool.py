"""CPU kernels of max_unpool2d / max_unpool3d (aten/nn/unpool.py): zeros, then each input value
written at its flat spatial index; an index outside the output is PyTorch's error."""

from __future__ import annotations

from typing import Any

import numpy as np

from ...aten.nn import unpool as Un
from ...tensor._tensor import Tensor
from ._kernel import fix_empty, kernel, wrap

__all__: list[str] = []


def _unpool(self: Tensor, indices: Tensor, shape: tuple[int, ...], nd: int) -> Tensor:
    a, idx = self._data, indices._data
    spatial = shape[len(shape) - nd :]
    n_out = int(np.prod(spatial))
    lead = a.shape[: a.ndim - nd]
    planes = int(np.prod(lead)) if lead else 1
    src = np.ascontiguousarray(a).reshape(planes, -1)
    ind = np.ascontiguousarray(idx).reshape(planes, -1)
    bad = (ind < 0) | (ind >= n_out)
    if bad.any():
        raise RuntimeError(
            f"Found an invalid max index: {int(ind[bad][0])} (output volumes are of size "
            f"{'x'.join(str(x) for x in spatial)})"
        )
    out = np.zeros((planes, n_out), a.dtype)
    rows = np.arange(planes)[:, None]
    out[rows, ind] = src  # a repeated index keeps the last value, as PyTorch's loop does
    out = out.reshape(shape)
    if self.dim() == 4 and nd == 2 and Un.out_strides(self, shape) is not None:
        out = np.ascontiguousarray(out.transpose(0, 2, 3, 1)).transpose(0, 3, 1, 2)
    return wrap(fix_empty(out), self._dtype)


@kernel("max_unpool2d")
def max_unpool2d_k(self: Tensor, indices: Tensor, output_size: Any) -> Tensor:
    return _unpool(self, indices, Un.unpool_shape(self, indices, output_size, 2), 2)


@kernel("max_unpool3d")
def max_unpool3d_k(
    self: Tensor, indices: Tensor, output_size: Any, stride: Any, padding: Any
) -> Tensor:
    shape = Un.unpool_shape(self, indices, output_size, 3, stride, padding)
    return _unpool(self, indices, shape, 3)
