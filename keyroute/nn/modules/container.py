"""Containers: Sequential, ModuleList, ModuleDict, ParameterList, ParameterDict."""

from __future__ import annotations

from collections import OrderedDict
from collections.abc import Iterable, Iterator
from typing import Any

from ..parameter import Parameter
from .module import Module

__all__ = ["Sequential", "ModuleList", "ModuleDict", "ParameterList", "ParameterDict"]


class Sequential(Module):
    """Modules applied in order; indexable, sliceable, appendable."""

    def __init__(self, *args: Any) -> None:
        super().__init__()
        if len(args) == 1 and isinstance(args[0], OrderedDict):
            for key, module in args[0].items():
                self.add_module(key, module)
        else:
            for i, module in enumerate(args):
                self.add_module(str(i), module)

    def __getitem__(self, idx: int | slice) -> Any:
        if isinstance(idx, slice):
            return Sequential(OrderedDict(list(self._modules.items())[idx]))
        return list(self._modules.values())[_index(idx, len(self))]

    def __setitem__(self, idx: int, module: Module) -> None:
        key = list(self._modules)[_index(idx, len(self))]
        self._modules[key] = module

    def __delitem__(self, idx: int | slice) -> None:
        keys = list(self._modules)
        targets = keys[idx] if isinstance(idx, slice) else [keys[_index(idx, len(self))]]
        for k in targets:
            del self._modules[k]
        items = list(self._modules.values())
        self._modules.clear()
        for i, m in enumerate(items):
            self._modules[str(i)] = m

    def __len__(self) -> int:
        return len(self._modules)

    def __iter__(self) -> Iterator[Module]:
        return iter(self._modules.values())

    def append(self, module: Module) -> Sequential:
        self.add_module(str(len(self)), module)
        return self

    def extend(self, modules: Iterable[Module]) -> Sequential:
        for m in modules:
            self.append(m)
        return self

    def insert(self, index: int, module: Module) -> Sequential:
        items = list(self._modules.values())
        items.insert(index, module)
        self._modules.clear()
        for i, m in enumerate(items):
            self._modules[str(i)] = m
        return self

    def forward(self, input: Any) -> Any:  # noqa: A002
        for module in self._modules.values():
            input = module(input)  # noqa: A001
        return input


def _index(idx: int, n: int) -> int:
    if not -n <= idx < n:
        raise IndexError(f"index {idx} is out of range")
    return idx % n


class ModuleList(Module):
    def __init__(self, modules: Iterable[Module] | None = None) -> None:
        super().__init__()
        if modules is not None:
            self.extend(modules)

    def __getitem__(self, idx: int | slice) -> Any:
        if isinstance(idx, slice):
            return ModuleList(list(self._modules.values())[idx])
        return self._modules[str(_index(idx, len(self)))]

    def __setitem__(self, idx: int, module: Module) -> None:
        self.add_module(str(_index(idx, len(self))), module)

    def __delitem__(self, idx: int | slice) -> None:
        items = list(self._modules.values())
        del items[idx]
        self._modules.clear()
        for i, m in enumerate(items):
            self._modules[str(i)] = m

    def __len__(self) -> int:
        return len(self._modules)

    def __iter__(self) -> Iterator[Module]:
        return iter(self._modules.values())

    def __iadd__(self, modules: Iterable[Module]) -> ModuleList:
        return self.extend(modules)

    def append(self, module: Module) -> ModuleList:
        self.add_module(str(len(self)), module)
        return self

    def extend(self, modules: Iterable[Module]) -> ModuleList:
        for m in modules:
            self.append(m)
        return self

    def insert(self, index: int, module: Module) -> None:
        items = list(self._modules.values())
        items.insert(index, module)
        self._modules.clear()
        for i, m in enumerate(items):
            self._modules[str(i)] = m


class ModuleDict(Module):
    def __init__(self, modules: Any = None) -> None:
        super().__init__()
        if modules is not None:
            self.update(modules)

    def __getitem__(self, key: str) -> Module:
        return self._modules[key]

    def __setitem__(self, key: str, module: Module) -> None:
        self.add_module(key, module)

    def __delitem__(self, key: str) -> None:
        del self._modules[key]

    def __len__(self) -> int:
        return len(self._modules)

    def __iter__(self) -> Iterator[str]:
        return iter(self._modules)

    def __contains__(self, key: str) -> bool:
        return key in self._modules

    def keys(self) -> Iterable[str]:
        return self._modules.keys()

    def items(self) -> Iterable[tuple[str, Module]]:
        return self._modules.items()

    def values(self) -> Iterable[Module]:
        return self._modules.values()

    def pop(self, key: str) -> Module:
        v = self[key]
        del self[key]
        return v

    def clear(self) -> None:
        self._modules.clear()

    def update(self, modules: Any) -> None:
        items = modules.items() if hasattr(modules, "items") else modules
        for k, m in items:
            self[k] = m


class ParameterList(Module):
    def __init__(self, values: Iterable[Any] | None = None) -> None:
        super().__init__()
        self._size = 0
        if values is not None:
            for v in values:
                self.append(v)

    def __getitem__(self, idx: int) -> Parameter:
        return getattr(self, str(_index(idx, self._size)))

    def __setitem__(self, idx: int, param: Any) -> None:
        setattr(
            self,
            str(_index(idx, self._size)),
            param if isinstance(param, Parameter) else Parameter(param),
        )

    def __len__(self) -> int:
        return self._size

    def __iter__(self) -> Iterator[Parameter]:
        return (self[i] for i in range(self._size))

    def append(self, value: Any) -> ParameterList:
        self._size += 1
        self[self._size - 1] = value
        return self

    def extend(self, values: Iterable[Any]) -> ParameterList:
        for v in values:
            self.append(v)
        return self


class ParameterDict(Module):
    def __init__(self, parameters: Any = None) -> None:
        super().__init__()
        if parameters is not None:
            items = parameters.items() if hasattr(parameters, "items") else parameters
            for k, v in items:
                self[k] = v

    def __getitem__(self, key: str) -> Parameter:
        return self._parameters[key]

    def __setitem__(self, key: str, value: Any) -> None:
        self.register_parameter(key, value if isinstance(value, Parameter) else Parameter(value))

    def __len__(self) -> int:
        return len(self._parameters)

    def __iter__(self) -> Iterator[str]:
        return iter(self._parameters)

    def keys(self) -> Iterable[str]:
        return self._parameters.keys()

    def items(self) -> Iterable[tuple[str, Parameter]]:
        return self._parameters.items()

    def values(self) -> Iterable[Parameter]:
        return self._parameters.values()
