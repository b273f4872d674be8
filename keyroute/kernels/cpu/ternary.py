"""CPU kernels of lerp, addcmul/addcdiv, where and masked_fill."""

from __future__ import annotations

import warnings
from collections.abc import Callable
from typing import Any

import numpy as np

from ...aten import elementwise as aten_elementwise
from ...aten._promotion import result_type
from ...aten._shape import broadcast_shapes
from ...tensor._tensor import Tensor
from ...tensor.dtype import bool_
from . import fma as _fma
from ._elementwise_util import (
    _compute_np,
    _contiguous,
    _finish,
    _operand,
    _scalar,
    _shape_check,
)
from ._kernel import kernel

# -- lerp, addcmul, addcdiv


_lerp_arrays = _fma.lerp  # PyTorch's fused |w| < 0.5 ? a + w (b - a) : b - (b - a)(1 - w)


@kernel("lerp.Scalar", quiet=True, leaf=True)
def lerp_Scalar(self: Tensor, end: Tensor, weight: Any) -> Tensor:
    dt = aten_elementwise.lerp_check(self, end, weight, "lerp.Scalar")
    ct = _compute_np(dt)
    a, b = _operand(self, dt, ct), _operand(end, dt, ct)
    _shape_check(self, end)
    w = _scalar(weight, dt, ct)
    return _finish(_lerp_arrays(a, b, w, ct), dt, (self, end))


@kernel("lerp.Tensor", quiet=True, leaf=True)
def lerp_Tensor(self: Tensor, end: Tensor, weight: Tensor) -> Tensor:
    dt = aten_elementwise.lerp_check(self, end, weight, "lerp.Tensor")
    ct = _compute_np(dt)
    a, b, w = (_operand(x, dt, ct) for x in (self, end, weight))
    _shape_check(self, end, weight)
    return _finish(_lerp_arrays(a, b, w, ct), dt, (self, end, weight))


def _addc(op: str) -> Callable[..., Tensor]:
    def k(self: Tensor, tensor1: Tensor, tensor2: Tensor, *, value: Any = 1) -> Tensor:
        _shape_check(self, tensor1, tensor2)
        dt = aten_elementwise.addc_dtype(op, self, tensor1, tensor2)
        ct = _compute_np(dt)
        a, t1, t2 = (_operand(x, dt, ct) for x in (self, tensor1, tensor2))
        v = _scalar(value, dt, ct)
        r = _fma.fma(v * t1, t2, a, ct) if op == "addcmul" else a + (v * t1) / t2
        return _finish(r, dt, (self, tensor1, tensor2))

    k.__name__ = op
    kernel(op, quiet=True, leaf=True)(k)
    return k


_addc_functional = {"addcmul": _addc("addcmul"), "addcdiv": _addc("addcdiv")}


# -- where, masked_fill


@kernel("where.self", quiet=True, leaf=True)
def where_self(condition: Tensor, self: Tensor, other: Tensor) -> Tensor:
    aten_elementwise.check_where_condition(condition)
    if condition._dtype is not bool_:
        warnings.warn(
            "where received a uint8 condition tensor. This behavior is deprecated and will be "
            "removed in a future version of PyTorch. Use a boolean condition instead.",
            UserWarning,
            stacklevel=2,
        )
    dt = result_type(self, other)
    a, b = _operand(self, dt, dt.np), _operand(other, dt, dt.np)
    _shape_check(condition, self, other)
    c = condition._data
    if c.dtype != np.bool_:
        c = c.astype(bool)
    return _finish(np.where(c, a, b), dt, (condition, self, other))


def _masked_fill(self: Tensor, mask: Tensor, value: Any) -> Tensor:
    from ...aten._shape import broadcast_shapes

    shape = broadcast_shapes(mask._data.shape, self._data.shape)
    aten_elementwise.masked_fill_check(self, mask, value)
    dt = self._dtype
    if isinstance(value, Tensor):
        value = value.item()
    v = aten_elementwise.checked_scalar(value, dt)
    # self.expand(shape).clone(contiguous_format).masked_fill_(mask, value)
    out = np.empty(shape, dtype=self._data.dtype)
    np.copyto(out, self._data)
    np.copyto(out, np.asarray(v).astype(out.dtype), where=mask._data)
    return _contiguous(out, dt)


@kernel("masked_fill.Scalar", quiet=True, leaf=True)
def masked_fill_Scalar(self: Tensor, mask: Tensor, value: Any) -> Tensor:
    return _masked_fill(self, mask, value)


@kernel("masked_fill.Tensor", quiet=True, leaf=True)
def masked_fill_Tensor(self: Tensor, mask: Tensor, value: Tensor) -> Tensor:
    return _masked_fill(self, mask, value)


@kernel("masked_fill_.Scalar", "masked_fill_.Tensor", quiet=True, leaf=True)
def masked_fill_(self: Tensor, mask: Tensor, value: Any) -> Tensor:
    # Written in place, without an overlap check: PyTorch still allows (deprecated) masked
    # fills of expanded tensors.
    aten_elementwise.masked_fill_check(self, mask, value)
    aten_elementwise.check_inplace_shape(self, broadcast_shapes(mask._data.shape, self._data.shape))
    if isinstance(value, Tensor):
        value = value.item()
    v = aten_elementwise.checked_scalar(value, self._dtype)
    np.copyto(self._data, np.asarray(v).astype(self._data.dtype), where=mask._data)
    return self
