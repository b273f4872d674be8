"""`Interpreter` runs a GraphModule node by node (override `call_function` etc. to change what
a node does); `Transformer` runs it on Proxies, building a new graph (torch.fx's classes)."""

from __future__ import annotations

from typing import Any

from .graph import Graph
from .graph_module import GraphModule
from .node import Node, map_aggregate, map_arg
from .proxy import Proxy

__all__ = ["Interpreter", "Transformer"]


class Interpreter:
    def __init__(
        self, module: Any, garbage_collect_values: bool = True, graph: Graph | None = None
    ) -> None:
        self.module = module
        self.graph = graph if graph is not None else module.graph
        self.env: dict[Node, Any] = {}
        self.garbage_collect_values = garbage_collect_values
        self.extra_traceback = True
        self.user_to_last_uses: dict[Node, list[Node]] = {}
        if garbage_collect_values:
            seen: set[Node] = set()
            for node in reversed(list(self.graph.nodes)):
                for n in node.all_input_nodes:
                    if n not in seen:
                        seen.add(n)
                        self.user_to_last_uses.setdefault(node, []).append(n)

    def run(
        self,
        *args: Any,
        initial_env: dict[Node, Any] | None = None,
        enable_io_processing: bool = True,
    ) -> Any:
        self.env = dict(initial_env) if initial_env else {}
        self.args_iter = iter(args)
        for node in self.graph.nodes:
            if node in self.env:
                continue
            self.env[node] = self.run_node(node)
            if self.garbage_collect_values:
                for to_delete in self.user_to_last_uses.get(node, []):
                    self.env.pop(to_delete, None)
            if node.op == "output":
                return self.env[node]
        return None

    def run_node(self, n: Node) -> Any:
        args, kwargs = self.fetch_args_kwargs_from_env(n)
        return getattr(self, n.op)(n.target, args, kwargs)

    def placeholder(self, target: str, args: tuple[Any, ...], kwargs: dict[str, Any]) -> Any:
        if target.startswith("*"):
            return list(self.args_iter)
        try:
            return next(self.args_iter)
        except StopIteration as e:
            if args:
                return args[0]
            raise RuntimeError(
                f"Expected positional argument for parameter {target}, but one was not passed in!"
            ) from e

    def get_attr(self, target: str, args: tuple[Any, ...], kwargs: dict[str, Any]) -> Any:
        return self.fetch_attr(target)

    def call_function(self, target: Any, args: tuple[Any, ...], kwargs: dict[str, Any]) -> Any:
        return target(*args, **kwargs)

    def call_method(self, target: str, args: tuple[Any, ...], kwargs: dict[str, Any]) -> Any:
        self_obj, *rest = args
        return getattr(self_obj, target)(*rest, **kwargs)

    def call_module(self, target: str, args: tuple[Any, ...], kwargs: dict[str, Any]) -> Any:
        return self.fetch_attr(target)(*args, **kwargs)

    def output(self, target: str, args: tuple[Any, ...], kwargs: dict[str, Any]) -> Any:
        return args[0]

    def fetch_attr(self, target: str) -> Any:
        obj = self.module
        for i, atom in enumerate(target.split(".")):
            if not hasattr(obj, atom):
                raise RuntimeError(
                    f"Node referenced nonexistent target {'.'.join(target.split('.')[: i + 1])}"
                )
            obj = getattr(obj, atom)
        return obj

    def fetch_args_kwargs_from_env(self, n: Node) -> tuple[tuple[Any, ...], dict[str, Any]]:
        return self.map_nodes_to_values(n.args, n), self.map_nodes_to_values(n.kwargs, n)

    def map_nodes_to_values(self, args: Any, n: Node) -> Any:
        def load(x: Node) -> Any:
            if x not in self.env:
                raise RuntimeError(
                    f"Node {n} referenced nonexistent value {x}! Run Graph.lint() to diagnose such issues"  # noqa: E501
                )
            return self.env[x]

        return map_arg(args, load)


class Transformer(Interpreter):
    """Re-trace a GraphModule: each method returns a Proxy in a new graph; `transform()` gives
    the new GraphModule."""

    def __init__(self, module: GraphModule) -> None:
        super().__init__(module, garbage_collect_values=False)
        self.new_graph = Graph()
        self._tracer = _TransformerTracer(self.new_graph)

    def placeholder(self, target: str, args: tuple[Any, ...], kwargs: dict[str, Any]) -> Proxy:
        default = args[0] if args else _NO_DEFAULT
        node = (
            self.new_graph.placeholder(target)
            if default is _NO_DEFAULT
            else self.new_graph.placeholder(target, default_value=default)
        )
        return Proxy(node, self._tracer)

    def get_attr(self, target: str, args: tuple[Any, ...], kwargs: dict[str, Any]) -> Proxy:
        return self._tracer.create_proxy("get_attr", target, args, kwargs)

    def call_function(self, target: Any, args: tuple[Any, ...], kwargs: dict[str, Any]) -> Proxy:
        return self._tracer.create_proxy("call_function", target, args, kwargs)

    def call_method(self, target: str, args: tuple[Any, ...], kwargs: dict[str, Any]) -> Proxy:
        return self._tracer.create_proxy("call_method", target, args, kwargs)

    def call_module(self, target: str, args: tuple[Any, ...], kwargs: dict[str, Any]) -> Proxy:
        return self._tracer.create_proxy("call_module", target, args, kwargs)

    def run_node(self, n: Node) -> Any:
        out = super().run_node(n)
        if isinstance(out, Proxy) and n.op != "placeholder":
            out.node.meta = dict(n.meta) | out.node.meta
        return out

    def transform(self) -> GraphModule:
        result = self.run()
        if result is not None:
            self.new_graph.output(
                map_aggregate(result, lambda x: x.node if isinstance(x, Proxy) else x)
            )
        return GraphModule(self.module, self.new_graph, type(self.module).__name__)

    def run(self, *args: Any, **kw: Any) -> Any:  # type: ignore[override]
        self.env = {}
        self.args_iter = iter(())
        for node in self.graph.nodes:
            if node.op == "output":
                args_, _ = self.fetch_args_kwargs_from_env(node)
                return args_[0]
            self.env[node] = self.run_node(node)
        return None


_NO_DEFAULT = object()


class _TransformerTracer:
    def __init__(self, graph: Graph) -> None:
        self.graph = graph

    def create_proxy(
        self, kind: str, target: Any, args: Any, kwargs: Any, name: str | None = None
    ) -> Proxy:
        unwrap = lambda x: x.node if isinstance(x, Proxy) else x  # noqa: E731
        node = self.graph.create_node(
            kind, target, map_aggregate(args, unwrap), map_aggregate(kwargs, unwrap), name
        )
        return Proxy(node, self)
