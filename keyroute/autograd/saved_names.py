"""`grad_fn._saved_<name>` under PyTorch's names, computed from what keyroute's nodes save.

keyroute's recorder saves what the formula needs under short keys (`s` for the input's
sizes, `result1` for a second output); PyTorch's generated nodes name every saved field
after the derivative formula's argument (`self_sym_sizes`, `mat2_sym_strides`, `indices`,
`total_weight`). The names are resolved here only when the attribute is read (from
FormulaNode.__getattr__, reached only for names a node does not have), so recording a node
costs nothing more.

PyTorch 2.13 returns saved int64 values (dims, indices, sizes) through an unsigned
conversion, so a negative one reads as 2**64 + value (`x.sum(-1).grad_fn._saved_dim` is
`(18446744073709551615,)`); Scalars (alpha, min, exponent, ...) keep their sign. Both
are reproduced.
"""

from __future__ import annotations

import math
from typing import Any

__all__ = ["saved_attribute", "NOT_SAVED"]

NOT_SAVED = object()

# a node's output PyTorch names after the operator's schema, where keyroute keeps result1
_OUTPUT_NAMES = {
    "MaxBackward0": {"indices": "result1"},
    "MinBackward0": {"indices": "result1"},
    "NllLossBackward0": {"total_weight": "result1"},
    "NllLoss2DBackward0": {"total_weight": "result1"},
}
# saved Scalars (returned as given) rather than int64 fields (returned unsigned)
_SCALARS = frozenset(
    {"alpha", "beta", "min", "max", "exponent", "other", "value", "threshold", "negative_slope"}
)
_U64 = 1 << 64


def _unsigned(v: Any) -> Any:
    if isinstance(v, bool):
        return v
    if isinstance(v, int):
        return v % _U64 if v < 0 else v
    if isinstance(v, (list, tuple)):
        return tuple(_unsigned(x) for x in v)
    return v


def _is_saved_tensor(v: Any) -> bool:
    # (graph.SavedTensor, by its method: this module imports nothing from the graph)
    return hasattr(v, "unpack") and hasattr(v, "free")


def _unpack(v: Any, node: Any) -> Any:
    if _is_saved_tensor(v):
        return v.unpack(node)
    if isinstance(v, list) and any(_is_saved_tensor(x) for x in v):
        return [x.unpack(node) if _is_saved_tensor(x) else x for x in v]
    return v


def _sizes_of(saved: dict[str, Any], arg: str, node: Any) -> Any:
    """The sizes of the formula's argument arg: the saved tensor's, or `s` for self."""
    if arg in saved and _is_saved_tensor(saved[arg]):
        return tuple(saved[arg].unpack(node).shape)
    if arg == "self" and "s" in saved:
        return tuple(saved["s"])
    return NOT_SAVED


def saved_attribute(node: Any, saved: dict[str, Any], key: str) -> Any:
    """The value of `node._saved_<key>` (NOT_SAVED when PyTorch's name maps to nothing)."""
    if key in saved:
        v = _unpack(saved[key], node)
        return v if key in _SCALARS else _unsigned(v)
    alias = _OUTPUT_NAMES.get(type(node).__name__, {}).get(key)
    if alias is not None and alias in saved:
        return _unpack(saved[alias], node)
    if key.endswith("_sym_sizes"):
        return _unsigned(_sizes_of(saved, key[: -len("_sym_sizes")], node))
    if key.endswith("_sym_numel"):
        sizes = _sizes_of(saved, key[: -len("_sym_numel")], node)
        return NOT_SAVED if sizes is NOT_SAVED else math.prod(sizes)
    if key.endswith("_sym_strides"):
        arg = saved.get(key[: -len("_sym_strides")])
        if _is_saved_tensor(arg):
            return tuple(arg.unpack(node).stride())
        return NOT_SAVED
    head, sep, index = key.rpartition("_sym_argsize_")
    if sep and index.isdigit():
        sizes = _sizes_of(saved, head, node)
        if sizes is NOT_SAVED and "s" in saved:  # the node's one saved size list
            sizes = tuple(saved["s"])
        return NOT_SAVED if sizes is NOT_SAVED else sizes[int(index)]
    return NOT_SAVED
