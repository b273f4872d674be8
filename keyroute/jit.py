"""torch.jit: keyroute has no TorchScript compiler; scripting and tracing return the function
or module unchanged, so it runs eagerly (same results, no graph). Saving and loading
TorchScript archives raise NotImplementedError.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any, Final, TypeVar  # noqa: F401  (torch.jit.Final)

from ._absent import absent

__all__ = [
    "script",
    "trace",
    "trace_module",
    "ignore",
    "unused",
    "export",
    "is_scripting",
    "is_tracing",
    "annotate",
    "Final",
    "ScriptModule",
    "ScriptFunction",
    "save",
    "load",
    "freeze",
    "optimize_for_inference",
]

T = TypeVar("T")
_WHY = " (keyroute has no TorchScript)"


def script(
    obj: T, optimize: Any = None, _frames_up: int = 0, _rcb: Any = None, example_inputs: Any = None
) -> T:
    """Return obj itself: it runs eagerly, with the same results."""
    return obj


def trace(func: T, example_inputs: Any = None, *args: Any, **kwargs: Any) -> T:
    """Return func itself (eager); PyTorch's traced graph would compute the same values."""
    return func


def trace_module(mod: T, inputs: Any = None, *args: Any, **kwargs: Any) -> T:
    return mod


def ignore(drop: Any = False, **kwargs: Any) -> Any:
    if callable(drop):
        return drop
    return lambda fn: fn


def unused(fn: Callable[..., Any]) -> Callable[..., Any]:
    return fn


def export(fn: Callable[..., Any]) -> Callable[..., Any]:
    return fn


def is_scripting() -> bool:
    return False


def is_tracing() -> bool:
    return False


def annotate(the_type: Any, the_value: T) -> T:
    return the_value


class ScriptModule:
    """No instances: scripting returns the eager module itself."""


class ScriptFunction:
    """No instances: scripting returns the eager function itself."""


save = absent("torch.jit.save", _WHY)
load = absent("torch.jit.load", _WHY)
freeze = absent("torch.jit.freeze", _WHY)
optimize_for_inference = absent("torch.jit.optimize_for_inference", _WHY)
