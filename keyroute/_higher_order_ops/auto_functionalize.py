"""`auto_functionalized` / `auto_functionalized_v2` (torch._higher_order_ops.auto_functionalize):
a functional wrapper of a custom operator that mutates its arguments.

`auto_functionalized_v2(op, _all_bases=[...], **kwargs)` clones the bases the operator writes,
runs the operator on the clones, and returns (the operator's outputs..., the written clones).
Functionalization emits it for a mutating custom operator under the AOT path, then commits the
returned values to the mutated arguments, as PyTorch's AOT graphs show; the copy back into a
graph input happens outside the graph.
"""

from __future__ import annotations

from typing import Any

from ..dispatcher.keys import DispatchKey
from .hop import HigherOrderOperator

__all__ = ["auto_functionalized", "auto_functionalized_v2", "mutated_args_of"]

auto_functionalized = HigherOrderOperator("auto_functionalized")
auto_functionalized_v2 = HigherOrderOperator("auto_functionalized_v2")


def mutated_args_of(op: Any) -> list[str]:
    schema = op._schema
    return [schema.arguments[i].name for i in schema.mutated_arg_indices]


def _returns(op: Any, out: Any) -> tuple[Any, ...]:
    n = len(op._schema.returns)
    if n == 0:
        return ()
    return tuple(out) if n > 1 else (out,)


@auto_functionalized_v2.py_impl(DispatchKey.CompositeExplicitAutograd)
def _v2_dense(_mutable_op: Any, *, _all_bases: list[Any], **kwargs: Any) -> tuple[Any, ...]:
    names = mutated_args_of(_mutable_op)
    clones = [b.clone() for b in _all_bases]
    call = dict(kwargs)
    for name, c in zip(names, clones):
        call[name] = c
    out = _mutable_op(**call)
    return (*_returns(_mutable_op, out), *clones)


@auto_functionalized.py_impl(DispatchKey.CompositeExplicitAutograd)
def _v1_dense(_mutable_op: Any, **kwargs: Any) -> tuple[Any, ...]:
    names = mutated_args_of(_mutable_op)
    call = dict(kwargs)
    clones = []
    for name in names:
        call[name] = call[name].clone()
        clones.append(call[name])
    out = _mutable_op(**call)
    return (*_returns(_mutable_op, out), *clones)
