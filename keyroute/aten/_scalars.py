"""The check where a Python int enters an operator as a Scalar (PyTorch's argument parser).

PyTorch unpacks a Python int Scalar as int64, or as uint64 when it is too big for int64; an int
outside both raises OverflowError before the operator runs. NumPy would instead wrap it or
compute with Python objects, so keyroute applies the same check at every place a Python scalar
becomes a number (the CPU scalar conversions, the checked scalars of clamp/fill/masked_fill,
the scalar dtype of factories).
"""

from __future__ import annotations

from typing import Any

__all__ = ["check_python_int"]

_INT64_MIN = -(1 << 63)
_UINT64_END = 1 << 64


def check_python_int(v: Any) -> None:
    """Raise PyTorch's OverflowError when Python int v fits neither int64 nor uint64."""
    if v.__class__ is int and not _INT64_MIN <= v < _UINT64_END:
        if v < 0:
            raise OverflowError("can't convert negative int to unsigned")
        raise OverflowError("int too big to convert")
