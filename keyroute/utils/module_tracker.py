"""ModuleTracker: which modules' forward (and backward) the current code runs inside."""

from __future__ import annotations

from typing import Any

__all__ = ["ModuleTracker"]


class ModuleTracker:
    """`parents` is the set of fully-qualified names of the modules currently executing
    ("Global" always included). Backward is attributed to the module whose forward produced the
    tensors (hooks on their grad_fn)."""

    def __init__(self) -> None:
        self.parents: set[str] = {"Global"}
        self._stack: list[str] = []
        self._mods: list[Any] = []
        self._names: dict[int, str] = {}
        self._handles: list[Any] = []

    def _name(self, mod: Any) -> str:
        name = self._names.get(id(mod))
        if name is None:
            name = type(mod).__name__
            if self._mods:
                parent = self._mods[-1]
                for child_name, child in parent.named_children():
                    if child is mod:
                        name = f"{self._names[id(parent)]}.{child_name}"
                        break
            self._names[id(mod)] = name
        return name

    def _pre(self, mod: Any, args: Any) -> None:
        name = self._name(mod)
        self._stack.append(name)
        self._mods.append(mod)
        self.parents = {"Global", *self._stack}
        for a in args if isinstance(args, tuple) else (args,):
            self._mark_backward(a, name, enter=False)

    def _post(self, mod: Any, args: Any, out: Any) -> None:
        name = self._name(mod)
        if self._stack and self._stack[-1] == name:
            self._stack.pop()
            self._mods.pop()
        self.parents = {"Global", *self._stack}
        for o in out if isinstance(out, (tuple, list)) else (out,):
            self._mark_backward(o, name, enter=True)

    def _mark_backward(self, t: Any, name: str, enter: bool) -> None:
        fn = getattr(t, "grad_fn", None) if hasattr(t, "_ks") else None
        if fn is None:
            return
        if enter:
            fn.register_prehook(lambda grads, n=name: self._enter_bw(n))
        else:
            fn.register_prehook(lambda grads, n=name: self._leave_bw(n))

    def _enter_bw(self, name: str) -> None:
        self._stack.append(name)
        self.parents = {"Global", *self._stack}

    def _leave_bw(self, name: str) -> None:
        if name in self._stack:
            self._stack.remove(name)
        self.parents = {"Global", *self._stack}

    def __enter__(self) -> ModuleTracker:
        from ..nn.modules.module import (
            register_module_forward_hook,
            register_module_forward_pre_hook,
        )

        self._handles = [register_module_forward_pre_hook(self._pre),
                         register_module_forward_hook(self._post)]  # fmt: skip
        return self

    def __exit__(self, *exc: object) -> None:
        for h in self._handles:
            h.remove()

    def name_modules(self, root: Any) -> None:
        """Use fully-qualified names (`layers.0.attn`) for the submodules of `root`."""
        for name, m in root.named_modules():
            self._names[id(m)] = name or type(root).__name__
