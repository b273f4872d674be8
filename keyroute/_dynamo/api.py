"""keyroute.compile / keyroute._dynamo.optimize / explain / disable (torch.compile's API)."""

from __future__ import annotations

import functools
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

from . import breaks
from .capture import run_segmented
from .eval_frame import CompiledFunction


class OptimizedModule:
    """A compiled Module (torch._dynamo.eval_frame.OptimizedModule): calls go through the
    compiled forward; attributes, parameters and state_dict are the original module's."""

    def __init__(self, mod: Any, compiled: CompiledFunction) -> None:
        object.__setattr__(self, "_orig_mod", mod)
        object.__setattr__(self, "_compiled", compiled)

    def __call__(self, *args: Any, **kwargs: Any) -> Any:
        return self._compiled(*args, **kwargs)

    def forward(self, *args: Any, **kwargs: Any) -> Any:
        return self._compiled(*args, **kwargs)

    def __getattr__(self, name: str) -> Any:
        return getattr(self._orig_mod, name)

    def __setattr__(self, name: str, value: Any) -> None:
        setattr(self._orig_mod, name, value)

    def __repr__(self) -> str:
        return f"OptimizedModule(\n  (_orig_mod): {self._orig_mod!r}\n)"

    def __dir__(self) -> list[str]:
        return dir(self._orig_mod)


def _is_module(obj: Any) -> bool:
    from ..nn.modules.module import Module

    return isinstance(obj, Module)


def compile(  # noqa: A001 - PyTorch's name
    model: Callable[..., Any] | None = None,
    *,
    fullgraph: bool = False,
    dynamic: bool | None = None,
    backend: str | Callable[..., Any] = "inductor",
    mode: str | None = None,
    options: dict[str, Any] | None = None,
    disable: bool = False,
) -> Any:
    """Compile `model` (a function or Module) as torch.compile: captured on fake tensors,
    guarded, recompiled when a guard fails (see keyroute/_dynamo/eval_frame.py)."""
    if model is None:

        def decorator(fn: Callable[..., Any]) -> Any:
            return compile(
                fn,
                fullgraph=fullgraph,
                dynamic=dynamic,
                backend=backend,
                mode=mode,
                options=options,
                disable=disable,
            )

        return decorator
    if mode is not None and options is not None:
        raise RuntimeError(
            "Either mode or options can be specified, but both can't be specified at the same time."
        )  # noqa: E501
    if mode not in (
        None,
        "default",
        "reduce-overhead",
        "max-autotune",
        "max-autotune-no-cudagraphs",
    ):
        raise RuntimeError(
            f"Unrecognized mode={mode}, should be one of: default, reduce-overhead, "
            "max-autotune, max-autotune-no-cudagraphs"
        )
    if not callable(model):
        raise RuntimeError(f"torch.compile expects a callable, got {type(model).__name__}")
    if disable:
        return model
    if _is_module(model):
        c = CompiledFunction(
            model,
            backend,
            fullgraph=fullgraph,
            dynamic=dynamic,
            mode=mode,
            options=options,
            module=model,
        )
        return OptimizedModule(model, c)
    return CompiledFunction(
        model, backend, fullgraph=fullgraph, dynamic=dynamic, mode=mode, options=options
    )


def optimize(backend: Any = "inductor", *, nopython: bool = False, **kw: Any) -> Any:
    """torch._dynamo.optimize(backend)(fn): as compile(fn, backend=..., fullgraph=nopython)."""

    def deco(fn: Callable[..., Any]) -> Any:
        return compile(fn, backend=backend, fullgraph=nopython, **kw)

    return deco


def disable(
    fn: Callable[..., Any] | None = None, recursive: bool = True, *, reason: Any = None
) -> Any:
    """torch.compiler.disable: `fn` always runs eagerly; inside a compiled function, calling it
    is a graph break."""
    if fn is None:
        return functools.partial(disable, recursive=recursive, reason=reason)
    if isinstance(fn, CompiledFunction):
        return fn.fn

    @functools.wraps(fn)
    def disabled(*args: Any, **kwargs: Any) -> Any:
        if breaks.HOOKS.handlers:
            return breaks.HOOKS.on_break(
                lambda: breaks.disabled_break(fn, reason), lambda: fn(*args, **kwargs), None
            )
        return fn(*args, **kwargs)

    disabled._torchdynamo_disable = True  # type: ignore[attr-defined]
    return disabled


def graph_break(msg: str = "") -> None:
    """torch._dynamo.graph_break(): a break here when compiling; nothing when eager."""
    if breaks.HOOKS.handlers:
        breaks.HOOKS.on_break(lambda: breaks.user_break(msg), lambda: None, None)


@dataclass
class GraphCompileReason:
    reason: str
    user_stack: list[Any]
    graph_break: bool = True


@dataclass
class ExplainOutput:
    """torch._dynamo.backends.debugging.ExplainOutput."""

    graphs: list[Any]
    graph_count: int
    graph_break_count: int
    break_reasons: list[GraphCompileReason]
    op_count: int
    ops_per_graph: list[list[Any]] = field(default_factory=list)
    out_guards: list[Any] = field(default_factory=list)
    compile_times: str = ""

    def __str__(self) -> str:
        out = f"Graph Count: {self.graph_count}\n"
        out += f"Graph Break Count: {self.graph_break_count}\n"
        out += f"Op Count: {self.op_count}\n"
        out += "Break Reasons:\n"
        for i, r in enumerate(self.break_reasons):
            out += f"  Break Reason {i + 1}:\n    Reason: {r.reason}\n    User Stack:\n"
            for fr in r.user_stack:
                out += f"      <FrameSummary file {fr.filename}, line {fr.lineno} in {fr.name}>\n"
        out += "Ops per Graph:\n"
        for i, ops in enumerate(self.ops_per_graph):
            out += f"  Ops {i + 1}:\n"
            for op in ops:
                out += f"    {op}\n"
        return out


def explain(f: Callable[..., Any], *extra_args: Any, **extra_kwargs: Any) -> Any:
    """torch._dynamo.explain(f)(*args): the graphs and graph breaks of compiling `f`."""

    def inner(*args: Any, **kwargs: Any) -> ExplainOutput:
        seg = run_segmented(lambda: breaks_call(f, args, kwargs))
        ops = [[n.target for n in g.graph.nodes if n.op == "call_function"] for g in seg.graphs]
        reasons = [GraphCompileReason(b.reason(), b.user_stack) for b in seg.breaks]
        return ExplainOutput(
            seg.graphs, len(seg.graphs), len(seg.breaks), reasons, sum(map(len, ops)), ops
        )

    if extra_args or extra_kwargs:
        return inner(*extra_args, **extra_kwargs)
    return inner


def breaks_call(f: Callable[..., Any], args: Any, kwargs: Any) -> Any:
    from .eval_frame import _kr_dynamo_call_user_fn

    if isinstance(f, OptimizedModule):
        f = f._orig_mod
    if isinstance(f, CompiledFunction):
        f = f.fn
    return _kr_dynamo_call_user_fn(f, args, kwargs)


def compile_module_in_place(mod: Any, *args: Any, **kwargs: Any) -> None:
    """Module.compile(): the instance's _call_impl becomes the compiled call (the class's
    __call__ is untouched, so uncompiled modules pay nothing)."""
    from ..nn.modules.module import Module

    def call(*a: Any, **k: Any) -> Any:
        return Module._call_impl(mod, a, k)

    call.__signature__ = _signature(mod)  # type: ignore[attr-defined]
    c = compile(call, *args, **kwargs)
    c.module = mod
    c._global_names()
    object.__setattr__(mod, "_call_impl", lambda a, k: c(*a, **k))
    object.__setattr__(mod, "_compiled_call_impl", c)


def _signature(mod: Any) -> Any:
    import inspect

    try:
        return inspect.signature(mod.forward)
    except (TypeError, ValueError):
        return None


def _install() -> None:
    from ..nn.modules import module

    module._COMPILE_IN_PLACE[0] = compile_module_in_place


_install()
