"""torch.testing.make_tensor: a tensor of the given shape and dtype filled with values drawn
uniformly from [low, high), with PyTorch's default ranges per dtype and its draws (uniform_ for
floating types, randint for integral and bool), so that with PyTorch's random streams the
values equal PyTorch's."""

from __future__ import annotations

import math
import warnings
from collections.abc import Sequence
from typing import Any

__all__ = ["make_tensor"]


def _bounds(
    low: float | None,
    high: float | None,
    dtype: Any,
    lo_incl: float,
    hi_excl: float,
    default: tuple[float, float],
    integral: bool,
) -> tuple[float, float]:
    low = default[0] if low is None else low
    high = default[1] if high is None else high
    if any(isinstance(v, float) and math.isnan(v) for v in (low, high)):
        raise ValueError(f"`low` and `high` cannot be NaN, but got low={low} and high={high}")
    if low == high and not integral:
        warnings.warn(
            "Passing `low==high` to `torch.testing.make_tensor` for floating or complex types "
            "is deprecated since 2.1 and will be removed in 2.3. Use `torch.full(...)` instead.",
            FutureWarning,
            stacklevel=3,
        )
    elif low >= high:
        raise ValueError(f"`low` must be less than `high`, but got {low} >= {high}")
    elif high < lo_incl or low >= hi_excl:
        raise ValueError(
            f"The value interval specified by `low` and `high` is [{low}, {high}), "
            f"but {dtype} only supports [{lo_incl}, {hi_excl})"
        )
    low = min(max(low, lo_incl), hi_excl)
    high = min(max(high, lo_incl), hi_excl)
    if integral:
        # randint's high is exclusive: both bounds round up.
        return math.ceil(low), math.ceil(high)
    return low, high


def make_tensor(
    *shape: int | Sequence[int],
    dtype: Any,
    device: Any,
    low: float | None = None,
    high: float | None = None,
    requires_grad: bool = False,
    noncontiguous: bool = False,
    exclude_zero: bool = False,
    memory_format: Any = None,
) -> Any:
    import keyroute as kr

    if len(shape) == 1 and isinstance(shape[0], Sequence):
        shape = tuple(shape[0])
    dims = tuple(int(s) for s in shape)  # type: ignore[arg-type]
    if noncontiguous and memory_format is not None:
        raise ValueError(
            "The parameters `noncontiguous` and `memory_format` are mutually exclusive, but "
            f"got noncontiguous={noncontiguous} and memory_format={memory_format}"
        )
    integral = not (dtype.is_floating_point or dtype.is_complex)
    if requires_grad and integral:
        raise ValueError(
            "`requires_grad=True` is not supported for boolean and integral dtypes, "
            f"but got dtype={dtype}"
        )
    noncontiguous = noncontiguous and math.prod(dims) > 1
    if noncontiguous:
        # Twice the last dimension, then every other element from offset 1: distinct values
        # in a strided, offset view.
        dims = (*dims[:-1], 2 * dims[-1])
    if dtype == kr.bool:
        lo, hi = _bounds(low, high, dtype, 0, 2, (0, 2), True)
        result = kr.randint(int(lo), int(hi), dims, device=device, dtype=dtype)
    elif integral:
        info = kr.iinfo(dtype)
        top = info.max + (1 if dtype != kr.int64 else 0)
        lo, hi = _bounds(low, high, dtype, info.min, top, (-9, 10), True)
        result = kr.randint(int(lo), int(hi), dims, device=device, dtype=dtype)
    elif dtype.is_floating_point or dtype.is_complex:
        info = kr.finfo(dtype)
        lo, hi = _bounds(low, high, dtype, info.min, info.max, (-9, 9), False)
        result = kr.empty(dims, device=device, dtype=dtype)
        target = kr.view_as_real(result) if dtype.is_complex else result
        if hi - lo >= info.max:
            # uniform_ needs high - low to be representable: draw at half scale.
            target.uniform_(lo / 2, hi / 2).mul_(2)
        else:
            target.uniform_(lo, hi)
    else:
        raise TypeError(
            f"The requested dtype '{dtype}' is not supported by torch.testing.make_tensor()."
            " To request support, file an issue at: https://github.com/pytorch/pytorch/issues"
        )
    if noncontiguous:
        result = result[..., 1::2]
    elif memory_format is not None:
        result = result.clone(memory_format=memory_format)
    if exclude_zero:
        result[result == 0] = 1 if integral else kr.finfo(dtype).tiny
    if not integral:
        result.requires_grad = requires_grad
    return result
