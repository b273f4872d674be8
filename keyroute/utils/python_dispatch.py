"""`TorchDispatchMode` (torch.utils._python_dispatch): intercept every aten call below autograd.

>>> import keyroute
>>> class Log(TorchDispatchMode):
...     def __init__(self):
...         super().__init__()
...         self.ops = []
...     def __torch_dispatch__(self, func, types, args=(), kwargs=None):
...         self.ops.append(str(func))
...         return func(*args, **(kwargs or {}))
>>> with Log() as log:
...     _ = keyroute.ones(2) * 2
>>> log.ops
['aten.ones.default', 'aten.mul.Tensor']
"""

from __future__ import annotations

import contextlib
from collections.abc import Iterator
from typing import Any

from ..layers.python import mode_stack, pop_mode, push_mode

__all__ = [
    "TorchDispatchMode",
    "_get_current_dispatch_mode",
    "_get_current_dispatch_mode_stack",
    "_pop_mode_temporarily",
    "_disable_current_modes",
    "_len_torch_dispatch_stack",
    "is_traceable_wrapper_subclass",
    "return_and_correct_aliasing",
]


class TorchDispatchMode:
    """Base class of dispatch modes: override `__torch_dispatch__(func, types, args, kwargs)`."""

    def __init__(self, _dispatch_key: Any = None) -> None:
        self._dispatch_key = _dispatch_key

    def __torch_dispatch__(self, func: Any, types: Any, args: Any = (), kwargs: Any = None) -> Any:
        raise NotImplementedError

    def __enter__(self) -> TorchDispatchMode:
        push_mode(self)
        return self

    def __exit__(self, exc_type: Any, exc_val: Any, exc_tb: Any) -> None:
        # PyTorch's __exit__ pops the top mode, whichever it is: modes exited out of order
        # leave the stack as it was before they were entered (and every later op works).
        pop_mode()

    @classmethod
    def push(cls, *args: Any, **kwargs: Any) -> TorchDispatchMode:
        return cls(*args, **kwargs)

    @classmethod
    def is_infra_mode(cls) -> bool:
        return False


def _get_current_dispatch_mode() -> TorchDispatchMode | None:
    stack = mode_stack()
    return stack[-1] if stack else None


def _get_current_dispatch_mode_stack() -> list[TorchDispatchMode]:
    return list(mode_stack())


def _len_torch_dispatch_stack() -> int:
    return len(mode_stack())


@contextlib.contextmanager
def _pop_mode_temporarily() -> Iterator[TorchDispatchMode]:
    mode = pop_mode()
    try:
        yield mode
    finally:
        push_mode(mode)


@contextlib.contextmanager
def _disable_current_modes() -> Iterator[list[TorchDispatchMode]]:
    popped = []
    while mode_stack():
        popped.append(pop_mode())
    try:
        yield popped
    finally:
        for mode in reversed(popped):
            push_mode(mode)


def is_traceable_wrapper_subclass(t: Any) -> bool:
    return hasattr(t, "__tensor_flatten__") and hasattr(type(t), "__tensor_unflatten__")


def return_and_correct_aliasing(func: Any, args: Any, kwargs: Any, out: Any) -> Any:
    return out
