"""Grad modes: `no_grad`, `enable_grad`, `set_grad_enabled`, `inference_mode`.

Grad mode is thread-local. `inference_mode` works through the dispatch key sets, as in
PyTorch: the autograd keys are excluded and ADInplaceOrView leaves the include set, so no graph
is recorded and no version counter is kept; tensors created inside are inference tensors.

>>> import keyroute
>>> with keyroute.no_grad():
...     keyroute.is_grad_enabled()
False
"""

from __future__ import annotations

import functools
from collections.abc import Callable
from typing import Any, TypeVar

from ..dispatcher.keys import DispatchKey
from ..dispatcher.keyset import INFERENCE_BIT, key_bits
from ..dispatcher.tls import AUTOGRAD_KEYSET
from ..dispatcher.tls import state as _tls

__all__ = [
    "no_grad",
    "enable_grad",
    "set_grad_enabled",
    "inference_mode",
    "is_grad_enabled",
    "is_inference_mode_enabled",
]

F = TypeVar("F", bound=Callable[..., Any])
_ADINPLACE = key_bits(DispatchKey.ADInplaceOrView)


def is_grad_enabled() -> bool:
    return _tls.thread_state.grad_enabled


def _set_grad(enabled: bool) -> None:
    _tls.thread_state.grad_enabled = enabled
    _tls.thread_state.refresh()


class _DecoratorContext:
    """A context manager that also decorates functions (runs them inside the context)."""

    def __call__(self, fn: F) -> F:
        @functools.wraps(fn)
        def wrapper(*args: Any, **kwargs: Any) -> Any:
            with self.clone():
                return fn(*args, **kwargs)

        return wrapper  # type: ignore[return-value]

    def clone(self) -> _DecoratorContext:
        return self.__class__()


class no_grad(_DecoratorContext):  # noqa: N801
    """Disable gradient recording inside the block (thread-local)."""

    def __enter__(self) -> None:
        self.prev = _tls.thread_state.grad_enabled
        _set_grad(False)

    def __exit__(self, *exc: object) -> None:
        _set_grad(self.prev)


class enable_grad(_DecoratorContext):  # noqa: N801
    """Enable gradient recording inside the block."""

    def __enter__(self) -> None:
        self.prev = _tls.thread_state.grad_enabled
        _set_grad(True)

    def __exit__(self, *exc: object) -> None:
        _set_grad(self.prev)


class set_grad_enabled(_DecoratorContext):  # noqa: N801
    """Set grad mode: takes effect at once (as a function call) or for a block."""

    def __init__(self, mode: bool) -> None:
        self.prev = _tls.thread_state.grad_enabled
        self.mode = bool(mode)
        _set_grad(self.mode)

    def __enter__(self) -> None:
        pass

    def __exit__(self, *exc: object) -> None:
        _set_grad(self.prev)

    def clone(self) -> set_grad_enabled:
        return set_grad_enabled(self.mode)


def is_inference_mode_enabled() -> bool:
    return bool(_tls.thread_state.include & INFERENCE_BIT)


class inference_mode(_DecoratorContext):  # noqa: N801
    """Inference mode (torch.inference_mode): no graph, no version counters, inference tensors."""

    def __init__(self, mode: bool = True) -> None:
        self.mode = bool(mode)

    def __enter__(self) -> None:
        self.saved = (
            _tls.thread_state.include,
            _tls.thread_state.exclude,
            _tls.thread_state.grad_enabled,
        )
        if self.mode:
            _tls.thread_state.include = (_tls.thread_state.include & ~_ADINPLACE) | INFERENCE_BIT
            _tls.thread_state.exclude = _tls.thread_state.exclude | AUTOGRAD_KEYSET
            _tls.thread_state.grad_enabled = False
        else:
            _tls.thread_state.include = (_tls.thread_state.include | _ADINPLACE) & ~INFERENCE_BIT
            _tls.thread_state.exclude = _tls.thread_state.exclude & ~AUTOGRAD_KEYSET
            _tls.thread_state.grad_enabled = True
        _tls.thread_state.refresh()

    def __exit__(self, *exc: object) -> None:
        _tls.thread_state.include, _tls.thread_state.exclude, _tls.thread_state.grad_enabled = (
            self.saved
        )
        _tls.thread_state.refresh()

    def clone(self) -> inference_mode:
        return inference_mode(self.mode)
