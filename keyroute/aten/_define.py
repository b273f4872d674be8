"""How an aten operator is defined: its schema, its meta function, its decomposition.

    @meta("amax(Tensor self, int[1] dim=[], bool keepdim=False) -> Tensor")
    def amax(self, dim=(), keepdim=False):
        return _amax_meta("amax", self, dim, keepdim)

defines `aten::amax` and records `amax` as its meta function: the shape/dtype/stride rule shared
by every backend (the Meta backend runs it; the CPU backend runs it to word errors; fake tensors
run it). A CompositeImplicitAutograd decomposition is registered with `@composite(schema)`;
backend kernels live in keyroute/kernels, derivatives in keyroute/autograd/derivatives/.

`aten("add.Tensor")` returns the operator object.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from ..dispatcher.operator import OpOverload, find_op
from ..dispatcher.registration import Library, register_helper_file

register_helper_file(__file__)

__all__ = [
    "aten_lib",
    "aten",
    "defop",
    "meta",
    "composite",
    "composite_explicit",
    "META_FUNCTIONS",
    "register_meta",
]

aten_lib = Library._internal("aten", "DEF")
#: op -> meta function (registered on the Meta key by keyroute.kernels.meta).
META_FUNCTIONS: dict[OpOverload, Callable[..., Any]] = {}


def _split(name: str) -> str:
    base, _, overload = name.partition(".")
    return f"aten::{base}" + (f".{overload}" if overload and overload != "default" else "")


_FOUND: dict[str, OpOverload] = {}  # name -> operator: composites look theirs up per call


def aten(name: str) -> OpOverload:
    """The aten operator 'name' or 'name.overload'."""
    op = _FOUND.get(name)
    if op is None:
        op = find_op(_split(name))
        if op is None or op._schema is None:
            raise KeyError(f"aten::{name} is not defined")
        _FOUND[name] = op
    elif op._schema is None:  # its definition was removed (a destroyed library's)
        del _FOUND[name]
        raise KeyError(f"aten::{name} is not defined")
    return op


def defop(schema: str, *, tags: Any = ()) -> OpOverload:
    """Define aten::<schema> and return the operator."""
    aten_lib.define(schema, tags=tags)
    return aten(schema.split("(", 1)[0].strip())


def register_meta(op: OpOverload, fn: Callable[..., Any]) -> None:
    META_FUNCTIONS[op] = fn
    op.meta = fn  # type: ignore[attr-defined]


def meta(
    schema_or_name: str, *, tags: Any = ()
) -> Callable[[Callable[..., Any]], Callable[..., Any]]:
    """Define an operator from a schema (or name an existing one) with this meta function."""

    def wrap(fn: Callable[..., Any]) -> Callable[..., Any]:
        op = defop(schema_or_name, tags=tags) if "(" in schema_or_name else aten(schema_or_name)
        register_meta(op, fn)
        return fn

    return wrap


def composite(
    schema_or_name: str, *, tags: Any = ()
) -> Callable[[Callable[..., Any]], Callable[..., Any]]:
    """Define an operator whose CompositeImplicitAutograd kernel is the decorated function."""

    def wrap(fn: Callable[..., Any]) -> Callable[..., Any]:
        op = defop(schema_or_name, tags=tags) if "(" in schema_or_name else aten(schema_or_name)
        aten_lib.impl(op, fn, "CompositeImplicitAutograd")
        return fn

    return wrap


def composite_explicit(
    schema_or_name: str, *, tags: Any = ()
) -> Callable[[Callable[..., Any]], Callable[..., Any]]:
    """Define an operator whose CompositeExplicitAutograd kernel is the decorated function
    (every backend, below autograd: the op needs its own derivative)."""

    def wrap(fn: Callable[..., Any]) -> Callable[..., Any]:
        op = defop(schema_or_name, tags=tags) if "(" in schema_or_name else aten(schema_or_name)
        aten_lib.impl(op, fn, "CompositeExplicitAutograd")
        return fn

    return wrap
