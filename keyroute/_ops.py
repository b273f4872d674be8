"""`keyroute.ops`: operators by namespace, as `torch.ops` (`ops.aten.add.Tensor`)."""

from __future__ import annotations

import types
from typing import Any

from .dispatcher.operator import _DEFINED_NAMES, _OPS, packet

__all__ = ["ops"]


class _OpNamespace(types.ModuleType):
    """`ops.<ns>`: attribute access returns the packet of ns::<name>."""

    def __init__(self, name: str) -> None:
        super().__init__("keyroute.ops." + name)
        self.name = name

    def __getattr__(self, op_name: str) -> Any:
        # Dunder names are served only when such an operator exists (aten::__and__ does);
        # Python's own probes (__path__, __spec__, ...) get AttributeError.
        qual = f"{self.name}::{op_name}"
        if qual not in _DEFINED_NAMES:
            raise AttributeError(
                f"'_OpNamespace' '{self.name}' object has no attribute '{op_name}'"
            )
        p = packet(qual)
        # Cache as an attribute (no __getattr__ next time); undefining the name removes it.
        setattr(self, op_name, p)
        _CACHED.setdefault(qual, []).append(self)
        return p

    def __iter__(self) -> Any:
        prefix = self.name + "::"
        return iter(
            sorted({op._name[len(prefix) :] for op in _OPS.values() if op._name.startswith(prefix)})
        )


class _Ops(types.ModuleType):
    def __init__(self) -> None:
        super().__init__("keyroute.ops")
        self._namespaces: dict[str, _OpNamespace] = {}

    def __getattr__(self, name: str) -> _OpNamespace:
        if name.startswith("__"):
            raise AttributeError(name)
        ns = self._namespaces.get(name)
        if ns is None:
            ns = self._namespaces[name] = _OpNamespace(name)
        setattr(self, name, ns)
        return ns


ops = _Ops()
_CACHED: dict[str, list[_OpNamespace]] = {}


def forget(qual: str) -> None:
    """Called when ns::name loses its last defined overload: drop cached attributes."""
    for ns in _CACHED.pop(qual, []):
        ns.__dict__.pop(qual.split("::", 1)[1], None)
