"""norm_except_dim and _weight_norm (PyTorch's CompositeImplicitAutograd functions) over
public operators, for the weight-norm helpers."""

from __future__ import annotations

from typing import Any

from ... import _api  # noqa: F401
from ...aten.linalg import op as _op
from ...tensor._tensor import Tensor
from ._fns import fns

_F = fns


def _vector_norm(x: Tensor, ord: float = 2, dim: Any = None, keepdim: bool = False) -> Tensor:  # noqa: A002
    """torch.linalg.vector_norm (aten::linalg_vector_norm)."""
    return _op("linalg_vector_norm")(x, ord, dim, keepdim)


def norm_except_dim(v: Tensor, pow: float = 2, dim: int = 0) -> Tensor:  # noqa: A002
    """The norm of v over every dimension but `dim` (kept as size 1); dim=-1: the whole norm."""
    if dim == -1:
        return _vector_norm(v, pow)
    dims = [d for d in range(v.dim()) if d != dim]
    return _vector_norm(v, pow, dims, True)


def weight_norm(v: Tensor, g: Tensor, dim: int = 0) -> Tensor:
    """v * (g / ||v||), the norm taken over every dimension but `dim`."""
    return v * (g / norm_except_dim(v, 2, dim))
