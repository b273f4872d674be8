"""Type promotion exactly as PyTorch's `result_type`.

Operands fall in three priority groups: tensors with dimensions, zero-dim tensors, and Python
scalars ("wrapped numbers"). A lower group only matters when its *category* (bool < integral <
floating < complex) is higher than every higher group's:

>>> from keyroute.tensor.dtype import float32, int64, uint8, float64
>>> combine(uint8, None, int64)  # uint8 tensor + 1000
keyroute.uint8
>>> combine(int64, None, float32)  # int tensor + 2.5 -> the default float dtype
keyroute.float32
>>> combine(float32, float64, None)  # (N,) float32 + 0-dim float64
keyroute.float32
"""

from __future__ import annotations

from typing import Any

from ..tensor.dtype import (
    bool_,
    complex64,
    complex128,
    dtype,
    float64,
    get_default_dtype,
    int64,
    promote_types,
)

__all__ = ["result_type", "combine", "scalar_dtype", "dtype_of_scalar"]


def _complex_of(d: dtype) -> dtype:
    return complex128 if d is float64 else complex64


def _combine_categories(higher: dtype | None, lower: dtype | None) -> dtype | None:
    if higher is None:
        return lower
    if lower is None:
        return higher
    if higher.is_complex:
        return higher
    if lower.is_complex:
        return _complex_of(higher) if higher.is_floating_point else lower
    if higher.is_floating_point:
        return higher
    if higher is bool_ or lower.is_floating_point:
        return promote_types(higher, lower)
    return higher


def combine(dim: dtype | None, zero: dtype | None, wrapped: dtype | None) -> dtype | None:
    """result_type from the promoted dtype of each group (None = group empty)."""
    return _combine_categories(dim, _combine_categories(zero, wrapped))


def dtype_of_scalar(v: Any) -> dtype:
    """The dtype a Python scalar wraps to (float -> default dtype, complex -> its complex)."""
    if isinstance(v, bool):
        return bool_
    if isinstance(v, int):
        return int64
    if isinstance(v, complex):
        return _complex_of(get_default_dtype())
    return get_default_dtype()


scalar_dtype = dtype_of_scalar


def _python_scalar(x: Any) -> Any:
    if isinstance(x, (bool, int, float, complex)):
        return x
    import numbers

    if isinstance(x, numbers.Integral):
        return bool(x) if type(x).__name__ == "bool_" else int(x)
    if isinstance(x, numbers.Real):
        return float(x)
    if isinstance(x, numbers.Complex):
        return complex(x)
    if type(x).__name__ == "bool_":
        return bool(x)
    raise TypeError(f"expected a tensor or a number, got {type(x).__name__}")


def _promote(a: dtype | None, b: dtype) -> dtype:
    return b if a is None else promote_types(a, b)


def result_type(*operands: Any) -> dtype:
    """torch.result_type over tensors and Python scalars (lists of tensors are flattened)."""
    dim = zero = wrapped = None
    for x in operands:
        if isinstance(x, (list, tuple)):
            for y in x:
                if hasattr(y, "_dtype"):
                    if y._data.shape:
                        dim = _promote(dim, y._dtype)
                    else:
                        zero = _promote(zero, y._dtype)
            continue
        d = getattr(x, "_dtype", None)
        if d is not None:
            if x._data.shape:
                dim = _promote(dim, d)
            else:
                zero = _promote(zero, d)
        elif x is not None:
            wrapped = _promote(wrapped, dtype_of_scalar(_python_scalar(x)))
    out = combine(dim, zero, wrapped)
    return out if out is not None else get_default_dtype()
