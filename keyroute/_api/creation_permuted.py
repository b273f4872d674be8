"""`keyroute.empty_permuted`: an uninitialized tensor whose memory holds its dims in a given
order (see keyroute.aten.empty_permuted)."""

from __future__ import annotations

from typing import Any

from .._ops import ops
from ..tensor._tensor import Tensor
from ._args import _below, _device_arg, _dtype_arg, _finish, _int_list_arg

__all__ = ["empty_permuted"]


def empty_permuted(
    size: Any,
    physical_layout: Any,
    *,
    dtype: Any = None,
    layout: Any = None,
    device: Any = None,
    pin_memory: bool | None = False,
    requires_grad: bool = False,
) -> Tensor:
    """An uninitialized tensor of shape `size` laid out in memory in the dim order
    `physical_layout` (outermost first): `empty_permuted((2, 3), (1, 0))` has strides (1, 2)."""
    shape = _int_list_arg("empty_permuted", "size", size, 1)
    perm = _int_list_arg("empty_permuted", "physical_layout", physical_layout, 2)
    dt = _dtype_arg("empty_permuted", dtype)
    dev = _device_arg("empty_permuted", device)
    t = _below(ops.aten.empty_permuted.default, shape, perm, dtype=dt, device=dev)
    return _finish(t, requires_grad)
