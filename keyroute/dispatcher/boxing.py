"""How arguments reach Python kernels, fallbacks and `__torch_dispatch__`: PyTorch's boxing.

PyTorch boxes every call onto a stack with each argument filled in, then hands a Python kernel
`(args, kwargs)` rebuilt from the schema: positional parameters positionally, minus trailing
ones equal to their default; keyword-only parameters as keywords, only when not equal to
their default. keyroute's own kernels take the arguments as given (no boxing cost); kernels a
user registers receive them the way PyTorch would pass them.

>>> from keyroute.dispatcher.schema import parse_schema
>>> s = parse_schema("ns::f(Tensor x, int y=3, *, float z=1.0) -> Tensor")
>>> normalize_args(s, ("x", 3), {"z": 1.0})
(('x',), {})
>>> normalize_args(s, ("x",), {"y": 4, "z": 2.0})
(('x', 4), {'z': 2.0})
"""

from __future__ import annotations

from typing import Any

__all__ = ["normalize_args", "bind_args"]

_MISSING = object()


def _plan(schema: Any) -> list[tuple[str, bool, bool, Any]]:
    plan = getattr(schema, "_boxing_plan", None)
    if plan is None:
        plan = [
            (a.name, a.kwarg_only, a.has_default_value(), a.default_value) for a in schema.arguments
        ]
        try:
            schema._boxing_plan = plan
        except AttributeError:  # pragma: no cover - a schema type without a __dict__
            pass
    return plan


def _equal(value: Any, default: Any) -> bool:
    if value is default:
        return True
    if hasattr(value, "_key_set") or hasattr(default, "_key_set"):
        return False
    try:
        if isinstance(value, (list, tuple)) and isinstance(default, (list, tuple)):
            return list(value) == list(default)
        if type(value) is bool or type(default) is bool:
            return type(value) is type(default) and value == default
        if hasattr(value, "scalar_type") and isinstance(default, int):
            return value.scalar_type == default  # a dtype vs ScalarType number
        return bool(value == default)
    except Exception:  # noqa: BLE001 - an exotic value is simply "not the default"
        return False


def bind_args(schema: Any, args: tuple[Any, ...], kwargs: dict[str, Any]) -> list[Any]:
    """One value per schema parameter (_MISSING where neither given nor defaulted)."""
    plan = _plan(schema)
    n = len(args)
    if n > len(plan):
        raise TypeError(f"{schema.name}() takes {len(plan)} arguments but {n} were given")
    values = []
    for i, (name, _kw, has_default, default) in enumerate(plan):
        if i < n:
            values.append(args[i])
        elif name in kwargs:
            values.append(kwargs[name])
        elif has_default:
            values.append(default)
        else:
            values.append(_MISSING)
    return values


def normalize_args(
    schema: Any, args: tuple[Any, ...], kwargs: dict[str, Any]
) -> tuple[tuple[Any, ...], dict[str, Any]]:
    """(args, kwargs) as PyTorch passes them to a Python kernel for this schema."""
    if schema is None:
        return args, kwargs
    plan = _plan(schema)
    values = bind_args(schema, args, kwargs)
    positional: list[Any] = []
    out_kwargs: dict[str, Any] = {}
    last_needed = -1
    for i, (_name, kw, has_default, default) in enumerate(plan):
        if kw:
            continue
        v = values[i]
        if v is _MISSING:
            continue
        if not (has_default and _equal(v, default)):
            last_needed = i
    for i, (name, kw, has_default, default) in enumerate(plan):
        v = values[i]
        if kw:
            if v is not _MISSING and not (has_default and _equal(v, default)):
                out_kwargs[name] = v
        elif i <= last_needed:
            positional.append(v if v is not _MISSING else None)
    return tuple(positional), out_kwargs
