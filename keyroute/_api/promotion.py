"""torch.result_type under PyTorch's four overloads' keyword names."""

from __future__ import annotations

from typing import Any

from . import function

__all__ = ["result_type"]


@function
def result_type(
    tensor: Any = None,
    other: Any = None,
    *,
    scalar: Any = None,
    scalar1: Any = None,
    scalar2: Any = None,
) -> Any:
    """The dtype PyTorch's promotion gives the two operands.

    PyTorch's overloads are (tensor, other), (scalar, tensor), (tensor, other: Scalar) and
    (scalar1, scalar2); positionally every one is (first, second)."""
    from ..aten._promotion import result_type as _result_type

    operands = [v for v in (scalar, scalar1, tensor, other, scalar2) if v is not None]
    if len(operands) != 2:
        raise TypeError(
            "result_type() received an invalid combination of arguments - expected one of: "
            "(Tensor tensor, Tensor other), (Number scalar, Tensor tensor), "
            "(Tensor tensor, Number other), (Number scalar1, Number scalar2)"
        )
    return _result_type(*operands)
