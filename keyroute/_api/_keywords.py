"""PyTorch's keyword names for the `keyroute.<function>` forms of Tensor methods.

Many operators are written once, as a Tensor method `def flip(self, dims)`, and exported
unchanged as `keyroute.flip`. PyTorch names that first parameter `self` on the method but
`input` on the function (`torch.flip(input=x, dims=...)`), so the exported function is a
copy of the method's function whose first parameter is renamed. The copy shares the method's
code object layout (only the local's name differs), so calling it costs exactly what calling
the method does: no wrapper frame is added.
"""

from __future__ import annotations

import types
from collections.abc import Callable
from typing import Any

__all__ = ["renamed", "renamed_first", "function_forms"]


def renamed(fn: Callable[..., Any], names: dict[str, str]) -> Callable[..., Any]:
    """A copy of fn whose parameters are renamed by names ({old: new}); same code otherwise.

    Returns fn itself when there is nothing to rename (builtins, wrappers whose signature
    comes from `__wrapped__`, no parameter of fn is in names)."""
    code = getattr(fn, "__code__", None)
    if not isinstance(fn, types.FunctionType) or code is None or hasattr(fn, "__wrapped__"):
        return fn
    nargs = code.co_argcount + code.co_kwonlyargcount
    params = code.co_varnames[:nargs]
    mapping = {old: new for old, new in names.items() if old in params}
    if not mapping or any(new in code.co_varnames for new in mapping.values()):
        return fn
    varnames = tuple(mapping.get(v, v) if i < nargs else v for i, v in enumerate(code.co_varnames))
    cellvars = tuple(mapping.get(v, v) for v in code.co_cellvars)
    new_fn = types.FunctionType(
        code.replace(co_varnames=varnames, co_cellvars=cellvars),
        fn.__globals__,
        fn.__name__,
        fn.__defaults__,
        fn.__closure__,
    )
    if fn.__kwdefaults__:
        new_fn.__kwdefaults__ = {mapping.get(k, k): v for k, v in fn.__kwdefaults__.items()}
    new_fn.__qualname__ = fn.__qualname__
    new_fn.__doc__ = fn.__doc__
    new_fn.__module__ = fn.__module__
    new_fn.__annotations__ = {mapping.get(k, k): v for k, v in fn.__annotations__.items()}
    new_fn.__dict__.update(fn.__dict__)
    return new_fn


def renamed_first(fn: Callable[..., Any], name: str = "input") -> Callable[..., Any]:
    """fn with its first positional parameter, when it is `self`, renamed to name."""
    code = getattr(fn, "__code__", None)
    if code is None or code.co_argcount == 0 or code.co_varnames[0] != "self":
        return fn
    return renamed(fn, {"self": name})


# torch.<name> functions whose first parameter PyTorch does not call `input`.
_FIRST_NAME = {"split": "tensor"}


def function_forms(functions: dict[str, Callable[..., Any]]) -> dict[str, Callable[..., Any]]:
    """The keyroute.<name> form of each registered function (aliases stay one object)."""
    done: dict[tuple[int, str], Callable[..., Any]] = {}
    out = {}
    for key, fn in functions.items():
        first = _FIRST_NAME.get(key, "input")
        ident = (id(fn), first)
        if ident not in done:
            done[ident] = renamed_first(fn, first)
        out[key] = done[ident]
    return out
