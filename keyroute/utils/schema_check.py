"""SchemaCheckMode: run each operator and check it mutates and aliases only as its schema says.

PyTorch's torch._subclasses.schema_check_mode.SchemaCheckMode. Every tensor argument is cloned
before the call (values, strides, storage); afterwards

- an output overlapping an argument's memory must be declared an alias of it (`Tensor(a)`),
- an output that *is* an argument is allowed only for a written argument (`Tensor(a!)`),
- an argument whose values, shape, strides or storage changed must be declared written,
- two outputs may overlap only when declared aliases of each other.

A violation raises RuntimeError with PyTorch's message ("Argument x is not defined as mutable
but was mutated"), followed here by the operator, its schema and what to change. `ops` records
every operator's schema name; `mutated` and `aliasing` the declared mutations and aliases seen.
"""

from __future__ import annotations

from itertools import combinations
from typing import Any, NamedTuple

import numpy as np

from ..dispatcher.boxing import bind_args
from ..tensor._tensor import Tensor, _root_array
from .python_dispatch import TorchDispatchMode

__all__ = ["SchemaCheckMode", "SchemaCheckError", "Mutation", "Aliasing"]


class SchemaCheckError(RuntimeError):
    """An operator mutated or aliased an input against its schema: PyTorch's `message`, then
    keyroute's `context` (the operator, its schema, what to change)."""

    def __init__(self, message: str, context: str) -> None:
        super().__init__(f"{message} ({context})")
        self.message = message
        self.context = context


class Mutation(NamedTuple):
    op_name: str
    arg_name: str


class Aliasing(NamedTuple):
    op_name: str
    arg_name: str
    output_number: str


_UNSAFE_ALIASING = ("aten::_unsafe_view", "aten::unsafe_split")
_MISSING = object()


def _leaves(v: Any) -> list[Any]:
    if isinstance(v, (list, tuple)):
        return [x for item in v for x in _leaves(item)]
    return [v]


def _unwrap(t: Any) -> Any:
    """A wrapper subclass's inner tensor (`.elem`), as PyTorch's mode looks inside."""
    if isinstance(t, Tensor) and type(t) is not Tensor:
        return getattr(t, "elem", t)
    return t


def _storage(t: Tensor) -> Any:
    data = t._data
    return _root_array(data) if isinstance(data, np.ndarray) else None


def _snapshot(t: Any) -> Any:
    """(clone of the values, shape, strides, storage) of a tensor argument, else None."""
    t = _unwrap(t)
    if not isinstance(t, Tensor) or type(t) is not Tensor:
        return None
    data = t._data
    values = data.copy() if isinstance(data, np.ndarray) else None
    return (values, tuple(data.shape), t.stride(), _storage(t))


def _mutated(t: Any, snap: Any) -> bool:
    if snap is None:
        return False
    t = _unwrap(t)
    values, shape, stride, storage = snap
    data = t._data
    if tuple(data.shape) != shape or t.stride() != stride or _storage(t) is not storage:
        return True
    if values is None:
        return False
    if data.dtype.kind in "fc":
        return not np.allclose(data, values, equal_nan=True)
    return not np.array_equal(data, values)


def _overlaps(a: Any, b: Any) -> bool:
    a, b = _unwrap(a), _unwrap(b)
    if not (isinstance(a, Tensor) and isinstance(b, Tensor)):
        return False
    da, db = a._data, b._data
    if not (isinstance(da, np.ndarray) and isinstance(db, np.ndarray)):
        return False
    if da.size == 0 or db.size == 0:
        return False
    return bool(np.may_share_memory(da, db))


def _may_alias(x: Any, y: Any) -> bool:
    """Whether two schema arguments/returns are declared to possibly alias each other."""
    ax, ay = x.alias_info, y.alias_info
    if ax is None or ay is None:
        return False
    sx, sy = ax.all_sets(), ay.all_sets()
    return "*" in sx or "*" in sy or bool(sx & sy)


class SchemaCheckMode(TorchDispatchMode):
    """Raise when an operator mutates or aliases an input against its schema."""

    def __init__(self) -> None:
        super().__init__()
        self.ops: list[str] = []
        self.mutated: list[Mutation] = []
        self.aliasing: list[Aliasing] = []

    def reset_cache(self) -> None:
        self.ops.clear()
        self.mutated.clear()
        self.aliasing.clear()

    def display_ops(self) -> None:
        print(*self.ops, sep=",")

    def _error(self, func: Any, message: str, advice: str) -> SchemaCheckError:
        return SchemaCheckError(message, f"operator {func}, schema {func._schema}; {advice}")

    def __torch_dispatch__(self, func: Any, types: Any, args: Any = (), kwargs: Any = None) -> Any:
        kwargs = kwargs or {}
        schema = func._schema
        op_name = schema.name
        self.ops.append(op_name)
        params = schema.arguments
        values = bind_args(schema, tuple(args), kwargs)
        before = [[_snapshot(t) for t in _leaves(v)] if v is not _MISSING else None for v in values]
        out = func(*args, **kwargs)
        outs = out if isinstance(out, tuple) else (out,)
        for i, p in enumerate(params):
            after = values[i]
            if after is _MISSING or after is None:
                continue
            name = "input" if p.name == "self" else p.name
            for j, o in enumerate(outs):
                if op_name not in _UNSAFE_ALIASING and any(_overlaps(o, a) for a in _leaves(after)):
                    ret = schema.returns[j] if j < len(schema.returns) else None
                    if ret is None or not _may_alias(ret, p):
                        raise self._error(
                            func,
                            f"Argument {name} is not defined to alias output but was aliasing",
                            f"return a new tensor (e.g. {p.name}.clone()) or declare the alias "
                            f"as Tensor(a)",
                        )
                    self.aliasing.append(Aliasing(op_name, name, f"output_{j}"))
                if after is o and isinstance(after, Tensor) and not p.is_write:
                    if op_name not in ("aten::lift", "aten::lift_fresh"):
                        raise self._error(
                            func,
                            f"Dispatcher operators below autograd are not allowed to directly "
                            f"return inputs.\nHowever, we found that `outputs[{j}] is {name}",
                            f"return {p.name}.clone() instead",
                        )
            snaps = before[i]
            if snaps is not None and any(_mutated(t, s) for t, s in zip(_leaves(after), snaps)):
                if not p.is_write:
                    raise self._error(
                        func,
                        f"Argument {name} is not defined as mutable but was mutated",
                        "declare it Tensor(a!) -- for a custom op, list it in mutates_args -- "
                        "or stop writing to it",
                    )
                self.mutated.append(Mutation(op_name, name))
        for i, j in combinations(range(len(schema.returns)), 2):
            if i < len(outs) and j < len(outs) and _overlaps(outs[i], outs[j]):
                if not _may_alias(schema.returns[i], schema.returns[j]):
                    raise self._error(
                        func,
                        f"Outputs {i} and {j} alias unexpectedly",
                        "return separate tensors or declare the outputs' alias sets",
                    )
        return out
