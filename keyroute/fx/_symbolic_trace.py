"""`symbolic_trace` and `Tracer` (torch.fx): run a Module's forward on Proxies and record it.

keyroute has no `__torch_function__` layer, so while tracing, the functions of `keyroute` and
`keyroute.nn.functional` are wrapped: called with a Proxy they record a call_function node (as
PyTorch's torch-function hook does); otherwise they run. The library's own modules (Linear,
ReLU, ...) are leaves: one call_module node each, as PyTorch's `is_leaf_module`. Parameters and
buffers read in forward become get_attr nodes.
"""

from __future__ import annotations

import functools
import inspect
import types
from typing import Any

from ..nn.modules.module import Module
from ..tensor._tensor import Tensor
from .graph import Graph
from .graph_module import GraphModule
from .node import map_aggregate
from .proxy import Proxy

__all__ = ["Tracer", "symbolic_trace", "wrap"]

_WRAPPED: list[tuple[Any, str]] = []


def wrap(fn_or_name: Any) -> Any:
    """Record calls of this module-level function as call_function nodes (torch.fx.wrap)."""
    frame = inspect.currentframe().f_back  # type: ignore[union-attr]
    name = fn_or_name if isinstance(fn_or_name, str) else fn_or_name.__name__
    _WRAPPED.append((frame.f_globals, name))  # type: ignore[union-attr]
    return fn_or_name


def _has_proxy(args: Any, kwargs: Any) -> bool:
    found = []
    map_aggregate((args, kwargs), lambda x: found.append(1) if isinstance(x, Proxy) else None)
    return bool(found)


class Tracer:
    def __init__(
        self, autowrap_modules: tuple[Any, ...] = (), autowrap_functions: tuple[Any, ...] = ()
    ) -> None:
        self.graph: Graph | None = None
        self.root: Module | None = None
        self._autowrap_functions = autowrap_functions
        self._tensor_attrs: dict[int, str] = {}
        self._constants: dict[str, Tensor] = {}

    def is_leaf_module(self, m: Module, module_qualified_name: str) -> bool:
        mod = type(m).__module__
        from ..nn.modules.container import ModuleDict, ModuleList, Sequential

        return (mod.startswith("keyroute.nn") or mod.startswith("torch.nn")) and not isinstance(
            m, (Sequential, ModuleList, ModuleDict)
        )

    def path_of_module(self, mod: Module) -> str:
        for name, m in self.root.named_modules():  # type: ignore[union-attr]
            if m is mod:
                return name
        raise NameError("module is not installed as a submodule")

    def create_arg(self, a: Any) -> Any:
        def conv(x: Any) -> Any:
            if isinstance(x, Proxy):
                return x.node
            if isinstance(x, Tensor):
                qual = self._tensor_attrs.get(id(x))
                if qual is None:
                    qual = f"_tensor_constant{len(self._constants)}"
                    self._constants[qual] = x
                    self._tensor_attrs[id(x)] = qual
                return self.graph.get_attr(qual)  # type: ignore[union-attr]
            if isinstance(x, Module):
                return x
            return x

        return map_aggregate(a, conv)

    def create_proxy(
        self, kind: str, target: Any, args: Any, kwargs: Any, name: str | None = None
    ) -> Proxy:
        node = self.graph.create_node(
            kind, target, self.create_arg(args), self.create_arg(kwargs), name
        )  # type: ignore[union-attr]
        return Proxy(node, self)

    def call_module(self, m: Module, forward: Any, args: Any, kwargs: Any) -> Any:
        name = self.path_of_module(m)
        if not self.is_leaf_module(m, name):
            return forward(*args, **kwargs)
        return self.create_proxy("call_module", name, args, kwargs)

    def trace(self, root: Any, concrete_args: dict[str, Any] | None = None) -> Graph:
        import keyroute

        self.root = root if isinstance(root, Module) else Module()
        fn = type(root).forward if isinstance(root, Module) else root
        self.graph = Graph(tracer_cls=type(self))
        self._tensor_attrs = {}
        self._constants = {}
        if isinstance(root, Module):
            for qn, p in root.named_parameters():
                self._tensor_attrs[id(p)] = qn
            for qn, b in root.named_buffers():
                self._tensor_attrs[id(b)] = qn
        sig = inspect.signature(fn)
        params = list(sig.parameters.values())
        if isinstance(root, Module):
            params = params[1:]
        concrete_args = concrete_args or {}
        proxies: list[Any] = []
        for p in params:
            if p.name in concrete_args:
                proxies.append(concrete_args[p.name])
                continue
            if p.kind == p.VAR_POSITIONAL:
                raise NotImplementedError("symbolic_trace: *args in forward is not supported")
            node = self.graph.placeholder(p.name if p.kind != p.VAR_KEYWORD else f"**{p.name}")
            proxies.append(Proxy(node, self))
        patches = self._patch(keyroute)
        tracer = self
        orig_call = Module.__call__

        def module_call(mod: Module, *args: Any, **kwargs: Any) -> Any:
            return tracer.call_module(mod, lambda *a, **k: orig_call(mod, *a, **k), args, kwargs)

        Module.__call__ = module_call  # type: ignore[method-assign]
        try:
            out = fn(root, *proxies) if isinstance(root, Module) else fn(*proxies)
        finally:
            Module.__call__ = orig_call  # type: ignore[method-assign]
            for owner, name, orig in reversed(patches):
                setattr(owner, name, orig) if not isinstance(owner, dict) else owner.__setitem__(
                    name, orig
                )
        self.graph.output(self.create_arg(out))
        for qual, t in self._constants.items():
            setattr(self.root, qual, t)
        return self.graph

    def _patch(self, keyroute: Any) -> list[tuple[Any, str, Any]]:
        patches: list[tuple[Any, str, Any]] = []
        tracer = self

        def wrapper(orig: Any) -> Any:
            @functools.wraps(orig)
            def traced(*args: Any, **kwargs: Any) -> Any:
                if _has_proxy(args, kwargs):
                    return tracer.create_proxy("call_function", orig, args, kwargs)
                return orig(*args, **kwargs)

            return traced

        for owner in (keyroute, keyroute.nn.functional):
            for name, value in list(vars(owner).items()):
                if name.startswith("_") or not isinstance(
                    value, (types.FunctionType, types.BuiltinFunctionType)
                ):
                    continue
                patches.append((owner, name, value))
                setattr(owner, name, wrapper(value))
        for globs, name in _WRAPPED:
            if name in globs:
                patches.append((globs, name, globs[name]))
                globs[name] = wrapper(globs[name])
        for fn in self._autowrap_functions:
            globs = fn.__globals__
            patches.append((globs, fn.__name__, fn))
            globs[fn.__name__] = wrapper(fn)
        return patches


def symbolic_trace(root: Any, concrete_args: dict[str, Any] | None = None) -> GraphModule:
    """Trace `root` (a Module or function) into a GraphModule (torch.fx.symbolic_trace)."""
    tracer = Tracer()
    graph = tracer.trace(root, concrete_args)
    name = type(root).__name__ if isinstance(root, Module) else root.__name__
    return GraphModule(tracer.root, graph, name)
