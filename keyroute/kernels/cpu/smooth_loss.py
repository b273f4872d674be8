"""CPU kernels of huber_loss, smooth_l1_loss and their backward operators
(aten/nn/smooth_loss.py), PyTorch's Loss.cpp formulas: float16/bfloat16 compute in float32 and
round once."""

from __future__ import annotations

from typing import Any

import numpy as np

from ...aten.nn import smooth_loss as _m
from ...tensor._tensor import Tensor
from ._kernel import kernel
from .nn import _as, _comp, _round, _strided_like
from .nn import _wrap as wrap

__all__: list[str] = []


def _reduce(loss: np.ndarray, reduction: int, meta: Tensor, dt: Any, comp: Any) -> Tensor:
    if reduction == 0:
        return wrap(_strided_like(_round(loss, dt), meta), dt)
    r = loss.sum(dtype=comp)
    if reduction == 1:
        with np.errstate(all="ignore"):
            r = r / loss.size if loss.size else np.asarray(np.nan, comp)
    return wrap(_round(np.asarray(r, comp), dt), dt)


def _diff(self: Tensor, target: Tensor, comp: Any) -> np.ndarray:
    return np.subtract(_as(self._data, comp), _as(target._data, comp))


@kernel("huber_loss")
def huber_loss(self: Tensor, target: Tensor, reduction: int = 1, delta: float = 1.0) -> Tensor:
    meta = _m.huber_loss(self, target, reduction, delta)
    dt = meta._dtype
    comp = _comp(dt)
    z = np.abs(_diff(self, target, comp))
    loss = np.where(z < delta, 0.5 * z * z, delta * (z - 0.5 * delta)).astype(comp, copy=False)
    return _reduce(loss, reduction, meta, dt, comp)


@kernel("smooth_l1_loss")
def smooth_l1_loss(self: Tensor, target: Tensor, reduction: int = 1, beta: float = 1.0) -> Tensor:
    meta = _m.smooth_l1_loss(self, target, reduction, beta)
    dt = meta._dtype
    comp = _comp(dt)
    z = np.abs(_diff(self, target, comp))
    if beta == 0:
        loss = z
    else:
        loss = np.where(z < beta, 0.5 * z * z / beta, z - 0.5 * beta).astype(comp, copy=False)
    return _reduce(loss, reduction, meta, dt, comp)


def _backward(
    grad_output: Tensor, self: Tensor, target: Tensor, reduction: int, meta: Tensor
) -> tuple[Any, Any, np.ndarray, np.ndarray]:
    dt = meta._dtype
    comp = _comp(dt)
    x = _diff(self, target, comp)
    norm = 1.0 / x.size if reduction == 1 and x.size else 1.0
    g = np.broadcast_to(_as(grad_output._data, comp), x.shape) * comp.type(norm)
    return dt, comp, x, g


@kernel("huber_loss_backward")
def huber_loss_backward(
    grad_output: Tensor, self: Tensor, target: Tensor, reduction: int, delta: float
) -> Tensor:
    meta = _m.huber_loss_backward(grad_output, self, target, reduction, delta)
    dt, comp, x, g = _backward(grad_output, self, target, reduction, meta)
    r = np.where(x < -delta, -g * delta, np.where(x > delta, g * delta, x * g))
    return wrap(_strided_like(_round(r.astype(comp, copy=False), dt), meta), dt)


@kernel("smooth_l1_loss_backward")
def smooth_l1_loss_backward(
    grad_output: Tensor, self: Tensor, target: Tensor, reduction: int, beta: float
) -> Tensor:
    meta = _m.smooth_l1_loss_backward(grad_output, self, target, reduction, beta)
    dt, comp, x, g = _backward(grad_output, self, target, reduction, meta)
    with np.errstate(all="ignore"):
        inner = x * g / beta if beta else np.zeros_like(x)
    r = np.where(x < -beta, -g, np.where(x > beta, g, inner))
    return wrap(_strided_like(_round(r.astype(comp, copy=False), dt), meta), dt)
