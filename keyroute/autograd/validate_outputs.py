"""validate_outputs: the engine's check of each gradient a node returns against the input it
is for (PyTorch's validate_outputs): a broadcast gradient is summed to the input's shape
(at::sum_to), a gradient of another dtype is cast, a shape that does not broadcast raises."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

__all__: list[str] = []


_aten: list[Any] = []  # ops.aten, fetched on first use (keyroute._ops imports this module)


def _ops() -> Any:
    if not _aten:
        from .._ops import ops

        _aten.append(ops.aten)
    return _aten[0]


def _sum_to(g: Any, shape: tuple[int, ...]) -> Any:
    """at::sum_to: a full sum for a 0-d target, else a keepdim sum and a view."""
    aten = _ops()
    gshape = tuple(g._data.shape)
    if gshape == shape:
        return g
    if not shape:
        return aten.sum.default(g)
    lead = len(gshape) - len(shape)
    dims = list(range(lead))
    for i, s in enumerate(shape):
        if s == 1 and gshape[lead + i] != 1:
            dims.append(lead + i)
    if dims:
        g = aten.sum.dim_IntList(g, dims, True)
    if lead:
        g = (
            aten.view.default(g, list(shape))
            if g.is_contiguous()
            else aten.reshape.default(g, list(shape))
        )
    elif tuple(g._data.shape) != shape:
        g = aten.reshape.default(g, list(shape))
    return g


def _validate(node: Any, outputs: Sequence[Any]) -> list[Any]:
    """validate_outputs: reduce broadcast gradients, cast dtypes, check shapes."""
    result = list(outputs)
    meta = node.input_metadata if hasattr(node, "input_metadata") else None
    if meta is None:
        return result
    for i, g in enumerate(result):
        if g is None or i >= len(meta) or meta[i] is None:
            continue
        shape, dtype = meta[i]
        gshape = tuple(g._data.shape)
        if gshape != shape:
            if not _expandable(shape, gshape):
                raise RuntimeError(
                    f"Function {node.name()} returned an invalid gradient at index {i} - got "
                    f"[{', '.join(map(str, gshape))}] but expected shape compatible with "
                    f"[{', '.join(map(str, shape))}]"
                )
            g = _sum_to(g, shape)
        if g._dtype is not dtype:
            if g._dtype.is_complex and not dtype.is_complex:
                g = _ops().real.default(g)  # handle_r_to_c: a real input's gradient is real
            g = _ops().to.dtype(g, dtype)
        result[i] = g
    return result


def _expandable(shape: tuple[int, ...], target: tuple[int, ...]) -> bool:
    if len(shape) > len(target):
        return False
    for s, t in zip(reversed(shape), reversed(target)):
        if s != t and s != 1:
            return False
    return True
