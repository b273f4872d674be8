"""The Python API over the operators: `keyroute.<function>` and `Tensor.<method>`.

One module per family registers its functions with `@function` and its methods with
`@method`; `keyroute/__init__.py` exports every registered function.

    @function
    @method
    def exp(self): return _exp(self)
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any, TypeVar

__all__ = ["function", "method", "FUNCTIONS", "method_as"]

F = TypeVar("F", bound=Callable[..., Any])
FUNCTIONS: dict[str, Callable[..., Any]] = {}


def function(fn: F) -> F:
    """Export fn as keyroute.<fn.__name__>."""
    FUNCTIONS[fn.__name__] = fn
    return fn


def method(fn: F) -> F:
    """Attach fn to Tensor as a method of the same name."""
    from ..tensor._tensor import Tensor

    setattr(Tensor, fn.__name__, fn)
    return fn


def method_as(*names: str) -> Callable[[F], F]:
    """Attach fn to Tensor under the given names."""

    def wrap(fn: F) -> F:
        from ..tensor._tensor import Tensor

        for name in names:
            setattr(Tensor, name, fn)
        return fn

    return wrap
