"""The losses' `reduction` handling in one place, as PyTorch's torch/nn/_reduction.py: the
reduction enum aten's loss operators take, the deprecated `size_average`/`reduce` flags, and
applying a reduction to an elementwise loss (PyTorch's C++ apply_loss_reduction)."""

from __future__ import annotations

import warnings
from typing import Any

__all__ = ["get_enum", "legacy_get_string", "legacy_get_enum", "resolve", "apply"]

_ENUM = {"none": 0, "mean": 1, "sum": 2}


def get_enum(reduction: str) -> int:
    """The at::Reduction value of a reduction string (0 none, 1 mean, 2 sum)."""
    try:
        return _ENUM[reduction]
    except KeyError:
        raise ValueError(f"{reduction} is not a valid value for reduction") from None


def legacy_get_string(
    size_average: bool | None, reduce: bool | None, emit_warning: bool = True
) -> str:
    """The reduction the deprecated flags mean (None counts as True), with PyTorch's warning
    (at the caller's line, as PyTorch's stacklevel=2)."""
    size_average = True if size_average is None else size_average
    reduce = True if reduce is None else reduce
    ret = "mean" if size_average and reduce else "sum" if reduce else "none"
    if emit_warning:
        warnings.warn(
            f"size_average and reduce args will be deprecated, please use reduction='{ret}' "
            "instead.",
            stacklevel=2,
        )
    return ret


def legacy_get_enum(
    size_average: bool | None, reduce: bool | None, emit_warning: bool = True
) -> int:
    return get_enum(legacy_get_string(size_average, reduce, emit_warning))


def resolve(size_average: Any, reduce: Any, reduction: str) -> str:
    """A loss's reduction string: `reduction`, unless a deprecated flag is given (warned)."""
    if size_average is None and reduce is None:
        return reduction
    return legacy_get_string(size_average, reduce)


def apply(loss: Any, reduction: str | int) -> Any:
    """An elementwise loss reduced: none -> as is, mean -> loss.mean(), sum -> loss.sum().

    reduction is a string (Python losses) or its enum (aten decompositions)."""
    if reduction == "none" or reduction == 0:
        return loss
    if reduction == "mean" or reduction == 1:
        return loss.mean()
    if reduction == "sum" or reduction == 2:
        return loss.sum()
    raise ValueError(f"{reduction} is not a valid value for reduction")
