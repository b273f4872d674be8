"""`GraphModule` (torch.fx.GraphModule): an nn.Module whose forward is the code generated from
its Graph. `.code` is that source; `print_readable()` prints it as a class with each value's
dtype and shape (`mm: "f32[3, 5]" = ...`), which is valid Python."""

from __future__ import annotations

import linecache
from typing import Any

from ..nn.modules.module import Module
from .graph import Graph, _CodeGen

__all__ = ["GraphModule"]

_counter = [0]


def _copy_attr(from_obj: Any, to_mod: Module, target: str) -> None:
    *prefix, field = target.split(".")
    for item in prefix:
        f = getattr(from_obj, item)
        t = getattr(to_mod, item, None)
        if f is t:
            return
        if t is None:
            t = Module()
            setattr(to_mod, item, t)
        from_obj, to_mod = f, t
    orig = getattr(from_obj, field)
    from ..tensor._tensor import Tensor

    if isinstance(orig, Tensor) and not isinstance(orig, _param_type()):
        to_mod.register_buffer(field, orig)
    else:
        setattr(to_mod, field, orig)


def _param_type() -> type:
    from ..nn.parameter import Parameter

    return Parameter


def _set_attr(mod: Module, target: str, value: Any) -> None:
    *prefix, field = target.split(".")
    for item in prefix:
        nxt = getattr(mod, item, None)
        if nxt is None:
            nxt = Module()
            setattr(mod, item, nxt)
        mod = nxt
    setattr(mod, field, value)


class GraphModule(Module):
    """A Module built from `root` (a Module or a dict of attributes) and a Graph."""

    def __new__(cls, *args: Any, **kwargs: Any) -> GraphModule:
        # Each instance gets its own class so that its forward is its own (as PyTorch's).
        name = kwargs.get("class_name") or (args[2] if len(args) > 2 else None) or "GraphModule"
        sub = type(name, (cls,), {})
        return object.__new__(sub)

    def __init__(self, root: Any, graph: Graph, class_name: str = "GraphModule") -> None:
        super().__init__()
        self.__class__.__name__ = class_name
        self.__class__.__qualname__ = class_name
        if isinstance(root, Module):
            if hasattr(root, "training"):
                self.training = root.training
            for node in graph.nodes:
                if node.op in ("get_attr", "call_module"):
                    _copy_attr(root, self, node.target)
        elif isinstance(root, dict):
            for node in graph.nodes:
                if node.op in ("get_attr", "call_module"):
                    if node.target not in root:
                        raise RuntimeError(
                            f"Node {node} referenced target {node.target} but that target was not provided in "  # noqa: E501
                            f"``root``!"
                        )
                    value = root[node.target]
                    from ..tensor._tensor import Tensor

                    if (
                        isinstance(value, Tensor)
                        and not isinstance(value, _param_type())
                        and "." not in node.target
                    ):
                        self.register_buffer(node.target, value)
                    else:
                        _set_attr(self, node.target, value)
        else:
            raise RuntimeError("Unsupported type " + str(root) + " passed for root!")
        object.__setattr__(self, "meta", {})
        self.graph = graph

    @property
    def graph(self) -> Graph:
        return self.__dict__["_graph"]

    @graph.setter
    def graph(self, g: Graph) -> None:
        object.__setattr__(self, "_graph", g)
        g.owning_module = self
        # Note [lazy recompile]: the code is generated and compiled when first needed (`.code`,
        # a call, `forward`), so tracing does not pay for graphs nobody runs or prints.
        object.__setattr__(self, "_code", None)

    def _ensure_compiled(self) -> None:
        if self.__dict__.get("_code") is None:
            self.recompile()

    @property
    def code(self) -> str:
        self._ensure_compiled()
        return self._code

    def forward(self, *args: Any, **kwargs: Any) -> Any:  # type: ignore[override]
        # Only reached before the first compile (recompile sets the class's own forward).
        self.recompile()
        return type(self).forward(self, *args, **kwargs)

    def recompile(self) -> Any:
        gen = _CodeGen(self.graph, "self", False)
        pc = gen.generate()
        object.__setattr__(self, "_code", pc.src)
        object.__setattr__(self, "_codegen", gen)
        _counter[0] += 1
        filename = f"<eval_with_key>.{_counter[0]}"
        linecache.cache[filename] = (len(pc.src), None, pc.src.splitlines(True), filename)
        ns: dict[str, Any] = dict(pc.globals)
        exec(compile(pc.src, filename, "exec"), ns)
        type(self).forward = ns["forward"]
        return pc

    def __call__(self, *args: Any, **kwargs: Any) -> Any:
        self._ensure_compiled()
        return super().__call__(*args, **kwargs)

    def print_readable(
        self,
        print_output: bool = True,
        include_stride: bool = False,
        include_device: bool = False,
        colored: bool = False,
    ) -> str:
        text = self._readable(type(self).__name__, "")
        if print_output:
            print(text)
        return text

    def _readable(self, name: str, indent: str) -> str:
        gen = _CodeGen(self.graph, "self", True)
        gen.generate()
        lines = [f"class {name}(torch.nn.Module):"]
        lines.append(f"    def forward({gen.typed_signature}):")
        lines += ["        " + ln.rstrip("\n") for ln in gen.typed_body]
        for sub_name, sub in self.named_children():
            if isinstance(sub, GraphModule):
                lines.append("")
                lines.append(sub._readable(sub_name, "    ").rstrip("\n"))
        out = "\n".join(indent + ln if ln else ln for ln in lines) + "\n"
        return out

    def __str__(self) -> str:
        return f"{super().__repr__()}\n\n\n\n{self._code}"

    def __repr__(self) -> str:
        return str(self)
