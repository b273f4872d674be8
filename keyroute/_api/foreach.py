"""torch._foreach_* functions (aten/foreach.py)."""

from __future__ import annotations

from typing import Any

from ..aten.linalg import op as _op
from ..tensor._tensor import Tensor
from . import function


@function
def _foreach_norm(self: list[Tensor], ord: Any = 2, dtype: Any = None) -> list[Tensor]:  # noqa: A002
    return _op("_foreach_norm.Scalar")(list(self), ord, dtype)


@function
def _foreach_mul(self: list[Tensor], other: Any) -> list[Tensor]:
    name = "_foreach_mul.Tensor" if isinstance(other, Tensor) else "_foreach_mul.Scalar"
    return _op(name)(list(self), other)


@function
def _foreach_mul_(self: list[Tensor], other: Any) -> None:
    name = "_foreach_mul_.Tensor" if isinstance(other, Tensor) else "_foreach_mul_.Scalar"
    _op(name)(list(self), other)


@function
def _foreach_clamp_min_(self: list[Tensor], scalar: Any) -> None:
    _op("_foreach_clamp_min_.Scalar")(list(self), scalar)


@function
def _foreach_clamp_max_(self: list[Tensor], scalar: Any) -> None:
    _op("_foreach_clamp_max_.Scalar")(list(self), scalar)
