"""`Proxy` (torch.fx.Proxy): a stand-in value during symbolic tracing; every operation on it
records a node instead of computing."""

from __future__ import annotations

import operator
from typing import Any

from .node import Node, map_aggregate

__all__ = ["Proxy", "Attribute", "TraceError"]


class TraceError(ValueError):
    pass


class Proxy:
    def __init__(self, node: Node, tracer: Any = None) -> None:
        self.node = node
        self.tracer = tracer

    def __repr__(self) -> str:
        return f"Proxy({self.node.name})"

    def __getattr__(self, k: str) -> Attribute:
        if k.startswith("__") and k.endswith("__"):
            raise AttributeError(k)
        return Attribute(self, k)

    def __call__(self, *args: Any, **kwargs: Any) -> Proxy:
        return self.tracer.create_proxy("call_method", "__call__", (self, *args), kwargs)

    def __iter__(self) -> Any:
        raise TraceError(
            "Proxy object cannot be iterated. This can be attempted when the Proxy is used in a loop or as a *args or **kwargs function argument. See the torch.fx docs on pytorch.org for a more detailed explanation of what types of control flow can be traced, and check out the Proxy docstring for help troubleshooting Proxy iteration errors"  # noqa: E501
        )

    def __bool__(self) -> bool:
        raise TraceError("symbolically traced variables cannot be used as inputs to control flow")

    def __len__(self) -> int:
        raise RuntimeError(
            "'len' is not supported in symbolic tracing by default. If you want this call to be recorded, please call torch.fx.wrap('len') at module scope"  # noqa: E501
        )

    def keys(self) -> Any:
        return self.tracer.create_proxy("call_method", "keys", (self,), {})

    def __index__(self) -> int:
        raise TraceError("symbolically traced variables cannot be used as inputs to control flow")


class Attribute(Proxy):
    """`proxy.attr`: a getattr node made on first use as a value, or a method call."""

    def __init__(self, root: Proxy, attr: str) -> None:
        self.root = root
        self.attr = attr
        self.tracer = root.tracer
        self._node: Node | None = None

    @property
    def node(self) -> Node:  # type: ignore[override]
        if self._node is None:
            self._node = self.tracer.create_proxy(
                "call_function", getattr, (self.root, self.attr), {}
            ).node
        return self._node

    def __call__(self, *args: Any, **kwargs: Any) -> Proxy:
        return self.tracer.create_proxy("call_method", self.attr, (self.root, *args), kwargs)


def _binary(name: str) -> Any:
    fn = getattr(operator, name)

    def impl(self: Proxy, other: Any) -> Proxy:
        return self.tracer.create_proxy("call_function", fn, (self, other), {})

    def rimpl(self: Proxy, other: Any) -> Proxy:
        return self.tracer.create_proxy("call_function", fn, (other, self), {})

    return impl, rimpl


_BINARY = {
    "add": "add",
    "sub": "sub",
    "mul": "mul",
    "truediv": "truediv",
    "floordiv": "floordiv",
    "mod": "mod",
    "pow": "pow",
    "matmul": "matmul",
    "and_": "and",
    "or_": "or",
    "xor": "xor",
    "lshift": "lshift",
    "rshift": "rshift",
}
for _name, _dunder in _BINARY.items():
    _f, _r = _binary(_name)
    setattr(Proxy, f"__{_dunder}__", _f)
    setattr(Proxy, f"__r{_dunder}__", _r)
for _name in ("eq", "ne", "lt", "gt", "le", "ge", "getitem"):
    setattr(Proxy, f"__{_name}__", _binary(_name)[0])


def _unary_method(fn: Any) -> Any:
    def impl(self: Proxy) -> Proxy:
        return self.tracer.create_proxy("call_function", fn, (self,), {})

    return impl


for _name in ("neg", "pos", "invert"):
    setattr(Proxy, f"__{_name}__", _unary_method(getattr(operator, _name)))
Proxy.__hash__ = object.__hash__  # type: ignore[method-assign]


def unwrap_proxies(a: Any) -> Any:
    return map_aggregate(a, lambda x: x.node if isinstance(x, Proxy) else x)
