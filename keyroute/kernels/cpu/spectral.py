"""CPU kernel of unfold_backward (aten/spectral.py): the adjoint of Tensor.unfold, as
UnfoldBackwardKernel.cpp sums it: every input position adds the windows that cover it in
increasing window order, starting from zero (float32 sums round as PyTorch's)."""

from __future__ import annotations

from typing import Any

import numpy as np

from ...aten.spectral import unfold_backward as _meta
from ...tensor._tensor import Tensor
from ._kernel import fix_empty, kernel, wrap

__all__: list[str] = []


@kernel("unfold_backward")
def unfold_backward(grad_in: Tensor, input_sizes: Any, dim: int, size: int, step: int) -> Tensor:
    m = _meta(grad_in, input_sizes, dim, size, step)
    g = grad_in._data
    sizes = [int(s) for s in input_sizes]
    out = np.zeros(sizes, g.dtype)
    if not sizes:  # a 0-d input: one window of one element
        return wrap(np.asarray(g.reshape(()), g.dtype).copy(), grad_in._dtype)
    d = dim % len(sizes)
    # grad_in: the input's dims with `dim` counting windows, then a trailing `size` dim.
    for i in range(g.shape[d]):
        piece = np.moveaxis(np.take(g, i, axis=d), -1, d)
        region = [slice(None)] * len(sizes)
        region[d] = slice(i * step, i * step + size)
        out[tuple(region)] += piece
    return wrap(fix_empty(out.reshape(m.shape)), grad_in._dtype)
