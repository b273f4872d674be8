"""SchemaCheckMode: run each operator and check it mutates and aliases only as its schema says.

Every tensor argument is snapshotted before the call (values, shape, strides); afterwards an
argument that changed must be declared written (`Tensor(a!)`), and an output that shares an
input's storage must be declared an alias of it (`Tensor(a)`). Violations raise naming the
operator and the argument (PyTorch's torch._subclasses.schema_check_mode wording).
"""

from __future__ import annotations

from typing import Any

import numpy as np

from ..tensor._tensor import Tensor, _root_array
from .python_dispatch import TorchDispatchMode

__all__ = ["SchemaCheckMode", "SchemaCheckError"]


class SchemaCheckError(RuntimeError):
    pass


def _snapshot(t: Tensor) -> Any:
    data = t._data
    if not isinstance(data, np.ndarray):
        return (tuple(data.shape), t.stride(), None)
    return (tuple(data.shape), t.stride(), data.copy())


def _changed(t: Tensor, snap: Any) -> bool:
    shape, stride, values = snap
    if tuple(t._data.shape) != shape or t.stride() != stride:
        return True
    if values is None:
        return False
    now = t._data
    if now.dtype.kind in "fc":
        return not np.array_equal(now, values, equal_nan=True)
    return not np.array_equal(now, values)


def _storage(t: Tensor) -> Any:
    data = t._data
    return _root_array(data) if isinstance(data, np.ndarray) else None


def _tensors(v: Any) -> list[Tensor]:
    if isinstance(v, Tensor):
        return [v]
    if isinstance(v, (list, tuple)):
        return [x for x in v if isinstance(x, Tensor)]
    return []


class SchemaCheckMode(TorchDispatchMode):
    """Raise when an operator mutates or aliases an input against its schema."""

    def __init__(self) -> None:
        super().__init__()
        self.ops: list[str] = []
        self.mutated: list[tuple[str, str]] = []
        self.aliasing: list[tuple[str, str]] = []

    def __torch_dispatch__(self, func: Any, types: Any, args: Any = (), kwargs: Any = None) -> Any:
        kwargs = kwargs or {}
        schema = func._schema
        self.ops.append(str(func))
        params = list(schema.arguments)
        values: list[tuple[Any, Any]] = []
        for i, p in enumerate(params):
            if i < len(args):
                values.append((p, args[i]))
            elif p.name in kwargs:
                values.append((p, kwargs[p.name]))
        snaps = [(p, t, _snapshot(t)) for p, v in values for t in _tensors(v)]
        out = func(*args, **kwargs)
        for p, t, snap in snaps:
            written = p.alias_info is not None and p.alias_info.is_write
            if not written and _changed(t, snap):
                self.mutated.append((str(func), p.name))
                raise SchemaCheckError(
                    f"{func}: Argument {p.name} is not defined as mutable but was mutated (its "
                    f"schema is {schema}; declare it Tensor(a!) -- for a custom op, list it in "
                    f"mutates_args -- or stop writing to it)"
                )
        for o in _tensors(out):
            root = _storage(o)
            if root is None:
                continue
            for p, t, _ in snaps:
                if _storage(t) is root and p.alias_info is None:
                    self.aliasing.append((str(func), p.name))
                    raise SchemaCheckError(
                        f"{func}: Argument {p.name} is not defined to alias output but was "
                        f"aliasing (its schema is {schema}; return a new tensor, e.g. "
                        f"{p.name}.clone(), or declare the alias as Tensor(a))"
                    )
        return out


