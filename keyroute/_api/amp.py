"""torch._amp_foreach_non_finite_check_and_unscale_ and torch._amp_update_scale_, the
GradScaler's operators (aten/amp_ops.py), as torch-level functions."""

from __future__ import annotations

from typing import Any

from .._ops import ops
from ..tensor._tensor import Tensor
from . import function

A = ops.aten


@function
def _amp_foreach_non_finite_check_and_unscale_(
    self: list[Tensor], found_inf: Tensor, inv_scale: Tensor
) -> None:
    A._amp_foreach_non_finite_check_and_unscale_.default(list(self), found_inf, inv_scale)


@function
def _amp_update_scale_(
    self: Tensor,
    growth_tracker: Tensor,
    found_inf: Tensor,
    scale_growth_factor: float,
    scale_backoff_factor: float,
    growth_interval: int,
) -> Any:
    return A._amp_update_scale_.default(
        self, growth_tracker, found_inf, scale_growth_factor, scale_backoff_factor, growth_interval
    )
