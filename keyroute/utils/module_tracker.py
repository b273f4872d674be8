"""ModuleTracker: which modules' forward (or backward) the current code runs inside.

PyTorch's torch.utils.module_tracker.ModuleTracker: `parents` is the set of fully-qualified
names of the modules running now ("Global" always included). A module is named the first time
one of its ancestors (or itself) runs: the root by its class name, each child as
`<parent name>.<attribute>`, so `Net.blocks.0.attn`. In backward a module is entered when the
gradients of its outputs are computed and left when those of its inputs are.
"""

from __future__ import annotations

import weakref
from collections.abc import Callable
from typing import Any

__all__ = ["ModuleTracker"]


def _tensors(value: Any) -> list[Any]:
    out: list[Any] = []
    stack = [value]
    while stack:
        v = stack.pop()
        if isinstance(v, (list, tuple)):
            stack.extend(v)
        elif isinstance(v, dict):
            stack.extend(v.values())
        elif hasattr(v, "_key_set") and v.requires_grad:
            out.append(v)
    return out


class ModuleTracker:
    """Context manager tracking the module hierarchy (see the module docstring)."""

    parents: set[str]

    def __init__(self) -> None:
        self.parents = {"Global"}
        self._known_modules: weakref.WeakKeyDictionary[Any, str] = weakref.WeakKeyDictionary()
        self._seen_modules: weakref.WeakSet[Any] = weakref.WeakSet()
        self._hooks: list[Any] = []
        self._handles: list[Any] = []

    def _get_mod_name(self, mod: Any) -> str:
        if mod not in self._known_modules:
            self._known_modules[mod] = type(mod).__name__
        name = self._known_modules[mod]
        if mod not in self._seen_modules:
            for child_name, child in mod.named_children():
                self._known_modules[child] = f"{name}.{child_name}"
                self._get_mod_name(child)
            self._seen_modules.add(mod)
        return name

    def name_modules(self, root: Any) -> None:
        """Name `root`'s submodules by their paths relative to it (`layers.0.attn`; the root by
        its class name), as keyroute's memory tools report them."""
        for name, m in root.named_modules():
            self._known_modules[m] = name or type(root).__name__
            self._seen_modules.add(m)

    def _enter(self, name: str) -> Callable[..., None]:
        def fn(*args: Any) -> None:
            self.parents.add(name)

        return fn

    def _leave(self, name: str) -> Callable[..., None]:
        def fn(*args: Any) -> None:
            self.parents.discard(name)

        return fn

    def _on_all_grads(self, tensors: list[Any], fn: Callable[[], None]) -> None:
        """Call fn once the gradients of all `tensors` are computed (a multi-grad hook)."""
        remaining = [len(tensors)]

        def hook(grad: Any) -> None:
            remaining[0] -= 1
            if remaining[0] == 0:
                fn()

        for t in tensors:
            self._hooks.append(t.register_hook(hook))

    def _fw_pre_hook(self, mod: Any, args: Any) -> None:
        name = self._get_mod_name(mod)
        self.parents.add(name)
        tensors = _tensors(args)
        if tensors:
            self._on_all_grads(tensors, self._leave(name))

    def _fw_post_hook(self, mod: Any, args: Any, out: Any) -> None:
        name = self._get_mod_name(mod)
        self.parents.discard(name)
        tensors = _tensors(out)
        if tensors:
            self._on_all_grads(tensors, self._enter(name))

    def __enter__(self) -> ModuleTracker:
        from ..nn.modules.module import (
            register_module_forward_hook,
            register_module_forward_pre_hook,
        )

        self._handles = [
            register_module_forward_pre_hook(self._fw_pre_hook),
            register_module_forward_hook(self._fw_post_hook),
        ]
        return self

    def __exit__(self, *exc: object) -> None:
        for h in self._handles:
            h.remove()
        for h in self._hooks:
            if hasattr(h, "remove"):
                h.remove()
        self._hooks.clear()
