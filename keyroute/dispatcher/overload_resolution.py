"""Choosing an overload when a packet is called (`ops.aten.add(x, 2)` -> `add.Tensor`).

Like PyTorch's JIT overload matching: the first overload (in registration order) whose schema
accepts the arguments by name, count and type wins; a first pass requires exact kinds (a Python
number does not match a Tensor parameter), a second pass lets numbers stand for tensors.
"""

from __future__ import annotations

import numbers
from typing import Any

__all__ = ["choose_overload", "matches"]


def _is_tensor(v: Any) -> bool:
    return hasattr(v, "_key_set")


def _accepts(type_str: str, v: Any, lenient: bool, n: int | None = None) -> bool:
    """Whether value v fits a parameter whose type prints as `type_str` (PyTorch's Python
    form: 'Tensor', 'Optional[Tensor]', 'List[int]', 'number', ...)."""
    if type_str.startswith("Optional["):
        return v is None or _accepts(type_str[9:-1], v, lenient, n)
    if type_str.startswith("List["):
        elem = type_str[5:-1]
        if isinstance(v, (list, tuple)):
            return all(_accepts(elem, e, lenient) for e in v)
        # int[N] / bool[N] accept a single value, broadcast to N.
        return n is not None and elem in ("int", "SymInt", "bool") and _accepts(elem, v, lenient)
    if type_str == "Tensor":
        if _is_tensor(v):
            return True
        return lenient and isinstance(v, numbers.Number)
    if type_str in ("int", "SymInt"):
        return isinstance(v, numbers.Integral) or (_is_tensor(v) and lenient)
    if type_str == "float":
        if isinstance(v, bool):
            return lenient
        return isinstance(v, numbers.Real) or (_is_tensor(v) and lenient)
    if type_str == "bool":
        return isinstance(v, bool) or (lenient and isinstance(v, numbers.Integral))
    if type_str in ("number", "Scalar"):
        return isinstance(v, numbers.Number) or (lenient and _is_tensor(v))
    if type_str == "str":
        return isinstance(v, str)
    return True  # ScalarType, Device, Layout, MemoryFormat, Generator, Any, Dict, t ...


def matches(schema: Any, args: tuple[Any, ...], kwargs: dict[str, Any], lenient: bool) -> bool:
    params = schema.arguments
    positional = [a for a in params if not a.kwarg_only]
    if len(args) > len(positional):
        return False
    names = {a.name for a in params}
    if any(k not in names for k in kwargs):
        return False
    for i, a in enumerate(params):
        if i < len(args):
            if a.kwarg_only:
                return False
            v = args[i]
        elif a.name in kwargs:
            v = kwargs[a.name]
        elif a.has_default_value() or str(a.real_type).startswith("Optional["):
            continue
        else:
            return False
        if not _accepts(str(a.real_type), v, lenient, a.N):
            return False
    return True


def choose_overload(packet: Any, args: tuple[Any, ...], kwargs: dict[str, Any]) -> Any:
    overloads = list(packet._all().values())
    for lenient in (False, True):
        for op in overloads:
            if matches(op._schema, args, kwargs, lenient):
                return op
    schemas = "\n".join(f"  {op._schema}" for op in overloads)
    raise RuntimeError(
        f"{packet._name}() Expected a value of type matching one of the overloads; no overload "
        f"accepts the arguments given ({len(args)} positional, keywords {sorted(kwargs)}).\n"
        f"Overloads:\n{schemas}"
    )
