"""`HigherOrderOperator` (torch._ops.HigherOrderOperator): an operator whose Python kernels are
chosen per dispatch mode or key with `py_impl`.

A call looks at the dispatch modes on this thread, innermost first: the first mode whose type
has a `py_impl` handles the call (run with that mode popped, as a mode's handler runs). With no
such mode, the kernel for `CompositeExplicitAutograd` (the eager meaning) runs, with the modes
still active, so the operators it calls are seen by them (a FakeTensorMode computes them on
fake tensors). The HOP is reachable as `keyroute.ops.higher_order.<name>`.
"""

from __future__ import annotations

import types
from collections.abc import Callable
from typing import Any

from .._ops import ops
from ..dispatcher.keys import DispatchKey
from ..layers.python import mode_stack
from ..utils.python_dispatch import _pop_mode_temporarily

__all__ = ["HigherOrderOperator"]

_higher_order = types.ModuleType("keyroute.ops.higher_order")
ops.higher_order = _higher_order  # type: ignore[attr-defined]


class HigherOrderOperator:
    def __init__(self, name: str) -> None:
        self._name = name
        self.__name__ = name
        self.__qualname__ = name
        self.__module__ = "keyroute.ops.higher_order"
        self.py_kernels: dict[Any, Callable[..., Any]] = {}
        self.namespace = "higher_order"
        setattr(_higher_order, name, self)

    def name(self) -> str:
        return self._name

    def py_impl(self, k: Any) -> Callable[[Callable[..., Any]], Callable[..., Any]]:
        """Register the decorated function for a mode type or a dispatch key."""

        def wrap(fn: Callable[..., Any]) -> Callable[..., Any]:
            if k in self.py_kernels:
                raise RuntimeError(
                    f"Trying to override a python impl for {k} on operator {self._name}"
                )
            self.py_kernels[k] = fn
            return fn

        return wrap

    def __call__(self, *args: Any, **kwargs: Any) -> Any:
        stack = mode_stack()
        if stack:
            top = stack[-1]
            for cls in type(top).__mro__:
                fn = self.py_kernels.get(cls)
                if fn is not None:
                    with _pop_mode_temporarily() as mode:
                        return fn(mode, *args, **kwargs)
        fn = self.py_kernels.get(DispatchKey.CompositeExplicitAutograd)
        if fn is None:
            raise NotImplementedError(f"{self._name}: no eager (CompositeExplicitAutograd) kernel")
        return fn(*args, **kwargs)

    def __str__(self) -> str:
        return self._name

    def __repr__(self) -> str:
        return f"<higher order op {self._name}>"
