"""Decomposition tables (torch._decomp): Python functions that express an operator with
others, for make_fx's `decomposition_table`. `core_aten_decompositions()` holds PyTorch's
choices for the operators keyroute decomposes (the core ATen opset keeps `permute` not
`t`/`transpose`, `full`/`full_like` not the factories, `sum.dim_IntList` not `sum`, ...);
each function makes the calls PyTorch's decomposition makes, in its order.

    >>> import keyroute
    >>> from keyroute._decomp import core_aten_decompositions, get_decompositions
    >>> table = get_decompositions([keyroute.ops.aten.silu])
"""

from __future__ import annotations

from collections.abc import Callable, Iterable
from typing import Any

from .._ops import ops
from ..dispatcher.operator import OpOverload, OpOverloadPacket

__all__ = [
    "decomposition_table",
    "register_decomposition",
    "get_decompositions",
    "core_aten_decompositions",
]

aten = ops.aten
#: Every registered decomposition (op -> function), as torch._decomp.decomposition_table.
decomposition_table: dict[OpOverload, Callable[..., Any]] = {}
#: The ones in the core ATen table (all of the above here).
_CORE: set[OpOverload] = set()


def _overloads(op: Any) -> list[OpOverload]:
    if isinstance(op, OpOverloadPacket):
        return [getattr(op, name) for name in op.overloads()]
    return [op]


def register_decomposition(
    ops_: Any, registry: dict[Any, Any] | None = None, *, core: bool = True
) -> Callable[[Callable[..., Any]], Callable[..., Any]]:
    """Register the decorated function as the decomposition of `ops_` (an overload, a packet,
    or a list of them)."""
    table = decomposition_table if registry is None else registry

    def wrap(fn: Callable[..., Any]) -> Callable[..., Any]:
        items = ops_ if isinstance(ops_, (list, tuple)) else [ops_]
        for item in items:
            for op in _overloads(item):
                table[op] = fn
                if core and registry is None:
                    _CORE.add(op)
        return fn

    return wrap


def get_decompositions(aten_ops: Iterable[Any]) -> dict[OpOverload, Callable[..., Any]]:
    """The registered decompositions of these operators (packets mean all their overloads)."""
    out = {}
    for item in aten_ops:
        for op in _overloads(item):
            if op in decomposition_table:
                out[op] = decomposition_table[op]
    return out


def core_aten_decompositions() -> dict[OpOverload, Callable[..., Any]]:
    return {op: decomposition_table[op] for op in _CORE}


from . import decompositions  # noqa: E402, F401  (registers the table)
