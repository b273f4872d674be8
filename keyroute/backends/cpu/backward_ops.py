"""NumPy kernels of the backward operators (keyroute/aten/backward_ops.py): one pass each."""

from __future__ import annotations

import warnings
from typing import Any

import numpy as np

from ...aten import backward_ops as _bw
from ...aten._promotion import result_type
from ...tensor._tensor import Tensor
from ...tensor.dtype import to_dtype
from ._kernel import kernel, wrap

_F32 = np.dtype(np.float32)

# inf/nan are results here (a gradient times a 0/1 mask), not warnings.
warnings.filterwarnings("ignore", category=RuntimeWarning, module=__name__)


def _comp(dt: Any) -> np.dtype:
    """float16/bfloat16 compute in float32 and round once, as PyTorch's CPU kernels do."""
    return _F32 if dt.category == 2 and dt.itemsize == 2 else dt.np


def _arr(t: Tensor, np_dtype: Any) -> np.ndarray:
    a = t._data
    return a if a.dtype == np_dtype else a.astype(np_dtype)


def _out(r: np.ndarray, dt: Any, *like: Tensor) -> Tensor:
    # The meta function gives PyTorch's layout; NumPy's matches it for contiguous inputs.
    out = r if r.dtype == dt.np else r.astype(dt.np)
    if not all(t._data.flags.c_contiguous for t in like):
        out = np.ascontiguousarray(out)
    return wrap(out, dt)


@kernel("threshold_backward")
def threshold_backward(grad_output: Tensor, self: Tensor, threshold: Any) -> Tensor:
    dt = result_type(grad_output, self)
    if grad_output._data.shape != self._data.shape:
        _bw.threshold_backward(grad_output, self, threshold)  # broadcast errors
    comp = _comp(dt)
    g = _arr(grad_output, comp)
    keep = np.less_equal(self._data, threshold)
    np.logical_not(keep, out=keep)  # (NaN in self keeps its gradient, as `self <= t ? 0 : g`)
    # grad * mask: a multiply is 5x faster than np.where on a random mask (no branches); an
    # inf or NaN gradient where the mask is 0 would give NaN, so those take np.where
    r = np.multiply(g, keep, dtype=comp)
    if not np.isfinite(r).all():
        r = np.where(keep, g, np.zeros((), comp))
    return _out(r, dt, grad_output, self)


@kernel("sigmoid_backward")
def sigmoid_backward(grad_output: Tensor, output: Tensor) -> Tensor:
    dt = result_type(grad_output, output)
    comp = _comp(dt)
    y = _arr(output, comp)
    r = np.subtract(1, y, dtype=comp)
    r *= y
    r *= _arr(grad_output, comp)
    return _out(r, dt, grad_output, output)


@kernel("tanh_backward")
def tanh_backward(grad_output: Tensor, output: Tensor) -> Tensor:
    dt = result_type(grad_output, output)
    comp = _comp(dt)
    y = _arr(output, comp)
    r = np.multiply(y, y)
    np.subtract(1, r, out=r)
    r *= _arr(grad_output, comp)
    return _out(r, dt, grad_output, output)


@kernel("_log_softmax_backward_data")
def _log_softmax_backward_data(
    grad_output: Tensor, output: Tensor, dim: int, input_dtype: Any
) -> Tensor:
    _bw._log_softmax_backward_data(grad_output, output, dim, input_dtype)
    dt = to_dtype(input_dtype)
    comp = _comp(grad_output._dtype)
    g = _arr(grad_output, comp)
    total = np.add.reduce(g, axis=dim, keepdims=True)
    r = np.exp(_arr(output, comp))
    r *= total
    np.subtract(g, r, out=r)
    return _out(r, dt, grad_output, output)


@kernel("_softmax_backward_data")
def _softmax_backward_data(
    grad_output: Tensor, output: Tensor, dim: int, input_dtype: Any
) -> Tensor:
    _bw._softmax_backward_data(grad_output, output, dim, input_dtype)
    dt = to_dtype(input_dtype)
    comp = _comp(grad_output._dtype)
    y = _arr(output, comp)
    r = _arr(grad_output, comp) * y
    total = np.add.reduce(r, axis=dim, keepdims=True)
    r -= y * total
    return _out(r, dt, grad_output, output)


@kernel("nll_loss_backward")
def nll_loss_backward(
    grad_output: Tensor,
    self: Tensor,
    target: Tensor,
    weight: Any,
    reduction: int,
    ignore_index: int,
    total_weight: Tensor,
) -> Tensor:
    _bw.nll_loss_backward(grad_output, self, target, weight, reduction, ignore_index, total_weight)
    dt = self._dtype
    comp = _comp(dt)
    x = self._data
    n_rows = 1 if x.ndim == 1 else x.shape[0]
    grad = np.zeros((n_rows, x.shape[-1]), comp)
    t = target._data.reshape(-1).astype(np.int64, copy=False)
    valid = t != ignore_index
    safe = np.where(valid, t, 0)
    w = np.ones(n_rows, comp) if weight is None else _arr(weight, comp)[safe]
    g = _arr(grad_output, comp).reshape(-1)
    if reduction == 0:
        scale = g if g.size == n_rows else np.broadcast_to(g, (n_rows,))
    elif reduction == 1:
        with np.errstate(divide="ignore", invalid="ignore"):
            scale = np.broadcast_to(g / _arr(total_weight, comp).reshape(-1), (n_rows,))
    else:
        scale = np.broadcast_to(g, (n_rows,))
    grad[np.arange(n_rows), safe] = np.where(valid, -w * scale, 0)
    return _out(grad.reshape(x.shape), dt)
