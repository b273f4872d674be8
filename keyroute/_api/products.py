"""torch.* functions and Tensor methods over aten/products.py's operators (trace, addr,
renorm, bilinear, cosine_similarity, inner; the methods addr_ and renorm_) and torch.kl_div."""

from __future__ import annotations

from typing import Any

from .._ops import ops
from ..tensor._tensor import Tensor
from . import function, method

__all__: list[str] = []

aten = ops.aten


@function
@method
def trace(input: Tensor) -> Tensor:  # noqa: A002
    return aten.trace.default(input)


@function
@method
def addr(
    input: Tensor,  # noqa: A002
    vec1: Tensor,
    vec2: Tensor,
    *,
    beta: Any = 1,
    alpha: Any = 1,
    out: Tensor | None = None,
) -> Tensor:
    if out is None:
        return aten.addr.default(input, vec1, vec2, beta=beta, alpha=alpha)
    return aten.addr.out(input, vec1, vec2, beta=beta, alpha=alpha, out=out)


@function
@method
def renorm(
    input: Tensor,  # noqa: A002
    p: Any,
    dim: int,
    maxnorm: Any,
    *,
    out: Tensor | None = None,
) -> Tensor:
    if out is None:
        return aten.renorm.default(input, p, dim, maxnorm)
    return aten.renorm.out(input, p, dim, maxnorm, out=out)


@method
def addr_(self: Tensor, vec1: Tensor, vec2: Tensor, *, beta: Any = 1, alpha: Any = 1) -> Tensor:
    return aten.addr_.default(self, vec1, vec2, beta=beta, alpha=alpha)


@method
def renorm_(self: Tensor, p: Any, dim: int, maxnorm: Any) -> Tensor:
    return aten.renorm_.default(self, p, dim, maxnorm)


@function
def bilinear(input1: Tensor, input2: Tensor, weight: Tensor, bias: Tensor | None = None) -> Tensor:
    return aten.bilinear.default(input1, input2, weight, bias)


@function
def cosine_similarity(x1: Tensor, x2: Tensor, dim: int = 1, eps: float = 1e-8) -> Tensor:
    return aten.cosine_similarity.default(x1, x2, dim, eps)


@function
def kl_div(
    input: Tensor,  # noqa: A002
    target: Tensor,
    reduction: int = 1,
    *,
    log_target: bool = False,
) -> Tensor:
    return aten.kl_div.default(input, target, reduction, log_target=log_target)


@function
@method
def inner(input: Tensor, other: Tensor, *, out: Tensor | None = None) -> Tensor:  # noqa: A002
    """Inner product over the last dims; a 0-dim operand multiplies (aten::inner)."""
    if out is None:
        return aten.inner.default(input, other)
    return aten.inner.out(input, other, out=out)
