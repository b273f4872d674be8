"""Small rules the nn operator families share: at::Reduction, the opmath dtype, int[n] expansion."""

from __future__ import annotations

from typing import Any

from ...tensor.dtype import float32

#: at::Reduction: None, Mean, Sum.
REDUCTION = {"none": 0, "mean": 1, "sum": 2}


def _opmath(dt: Any) -> Any:
    """toOpMathType: float16/bfloat16 compute in float32."""
    return float32 if dt.category == 2 and dt.itemsize == 2 else dt


def _not_implemented(kernel_name: str, dt: Any) -> None:
    raise NotImplementedError(f"\"{kernel_name}\" not implemented for '{dt._short}'")


def _ints(v: Any, n: int) -> list[int]:
    """An int or a list of ints as n ints (PyTorch's int[n] argument expansion)."""
    if isinstance(v, int):
        return [v] * n
    v = [int(x) for x in v]
    return v * n if len(v) == 1 else v


def _strided() -> Any:
    from ...tensor.layout import strided

    return strided
