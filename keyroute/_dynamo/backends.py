"""Compile backends (torch._dynamo.backends): a backend takes the captured GraphModule and
example inputs and returns the callable that runs it.

- "eager": the captured aten graph, run through the dispatcher.
- "aot_eager": AOT Autograd's functionalized forward / backward graphs, run through the
  dispatcher.
- "inductor": keyroute's code generator (keyroute._inductor), which writes NumPy source.
- any callable `(gm, example_inputs) -> callable`, as PyTorch allows.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

__all__ = ["lookup_backend", "register_backend", "list_backends"]

_BACKENDS: dict[str, Callable[..., Any]] = {}


def register_backend(
    compiler_fn: Callable[..., Any] | None = None, name: str | None = None, tags: Any = ()
) -> Any:
    def register(fn: Callable[..., Any]) -> Callable[..., Any]:
        _BACKENDS[name or fn.__name__] = fn
        return fn

    return register(compiler_fn) if compiler_fn is not None else register


def list_backends(exclude_tags: Any = ("debug", "experimental")) -> list[str]:
    return sorted(k for k in _BACKENDS if k not in ("aot_eager",) or not exclude_tags)


@register_backend(name="eager")
def eager(gm: Any, example_inputs: list[Any], **kwargs: Any) -> Callable[..., Any]:
    return gm.forward


@register_backend(name="aot_eager")
def aot_eager(gm: Any, example_inputs: list[Any], **kwargs: Any) -> Callable[..., Any]:
    from .aot import aot_compile

    return aot_compile(gm, example_inputs, None)


@register_backend(name="inductor")
def inductor(gm: Any, example_inputs: list[Any], **kwargs: Any) -> Callable[..., Any]:
    from .._inductor import compile_fx

    return compile_fx(gm, example_inputs, mode=kwargs.get("mode"), options=kwargs.get("options"))


def lookup_backend(backend: Any) -> Callable[..., Any]:
    if callable(backend):
        return backend
    if isinstance(backend, str):
        fn = _BACKENDS.get(backend)
        if fn is None:
            from .exc import InvalidBackend

            raise InvalidBackend(backend)
        return fn
    raise TypeError(f"backend must be a str or a callable, not {type(backend).__name__}")
