"""Optimizer base class (torch.optim.Optimizer): param groups, per-parameter state,
zero_grad, state_dict/load_state_dict."""

from __future__ import annotations

import functools
from collections import defaultdict
from collections.abc import Iterable
from copy import deepcopy
from typing import Any

from ..profiler import _state as _prof
from ..tensor._tensor import Tensor

__all__ = ["Optimizer", "required"]


class _Required:
    def __repr__(self) -> str:
        return "<required parameter>"


required = _Required()


class Optimizer:
    """Holds parameter groups (dicts with "params" and hyper-parameters) and their state."""

    def __init__(self, params: Any, defaults: dict[str, Any]) -> None:
        self.defaults = defaults
        self.state: dict[Any, dict[str, Any]] = defaultdict(dict)
        self.param_groups: list[dict[str, Any]] = []
        if isinstance(params, Tensor):
            raise TypeError(
                "params argument given to the optimizer should be an iterable of Tensors or "
                f"dicts, but got {type(params).__name__}"
            )
        groups = list(params)
        if len(groups) == 0:
            raise ValueError("optimizer got an empty parameter list")
        if not isinstance(groups[0], dict):
            groups = [{"params": groups}]
        for g in groups:
            self.add_param_group(g)
        self._patch_step_function()

    def _patch_step_function(self) -> None:
        """Wrap the class's step (once) so a profile shows it as PyTorch's does:
        'Optimizer.step#AdamW.step' (PyTorch's Optimizer.profile_hook_step)."""
        cls = type(self)
        step = cls.step
        if getattr(step, "hooked", False):
            return

        @functools.wraps(step)
        def profiled_step(self: Any, *args: Any, **kwargs: Any) -> Any:
            if _prof.collector is None:
                return step(self, *args, **kwargs)
            with _prof.record_function(f"Optimizer.step#{type(self).__name__}.step"):
                return step(self, *args, **kwargs)

        profiled_step.hooked = True  # type: ignore[attr-defined]
        cls.step = profiled_step  # type: ignore[method-assign]

    def add_param_group(self, param_group: dict[str, Any]) -> None:
        params = param_group["params"]
        if isinstance(params, Tensor):
            param_group["params"] = [params]
        elif isinstance(params, set):
            raise TypeError(
                "optimizer parameters need to be organized in ordered collections, but the "
                "ordering of tensors in sets will change between runs. Please use a list instead."
            )
        else:
            param_group["params"] = list(params)
        for p in param_group["params"]:
            if not isinstance(p, Tensor):
                raise TypeError(
                    "optimizer can only optimize Tensors, but one of the params is "
                    f"{type(p).__name__}"
                )
            if not p.is_leaf:
                raise ValueError("can't optimize a non-leaf Tensor")
        for name, default in self.defaults.items():
            if default is required and name not in param_group:
                raise ValueError(
                    "parameter group didn't specify a value of required optimization parameter "
                    f"{name}"
                )
            param_group.setdefault(name, default)
        existing = {id(p) for g in self.param_groups for p in g["params"]}
        if any(id(p) in existing for p in param_group["params"]):
            raise ValueError("some parameters appear in more than one parameter group")
        self.param_groups.append(param_group)

    def zero_grad(self, set_to_none: bool = True) -> None:
        if _prof.collector is not None:
            with _prof.record_function(f"Optimizer.zero_grad#{type(self).__name__}.zero_grad"):
                return self._zero_grad(set_to_none)
        return self._zero_grad(set_to_none)

    def _zero_grad(self, set_to_none: bool) -> None:
        for group in self.param_groups:
            for p in group["params"]:
                g = p.grad
                if g is None:
                    continue
                if set_to_none:
                    p.grad = None
                else:
                    if g.grad_fn is not None:
                        g.detach_()
                    else:
                        g.requires_grad_(False)
                    g.zero_()

    def state_dict(self) -> dict[str, Any]:
        index: dict[int, int] = {}
        groups = []
        start = 0
        for g in self.param_groups:
            ids = list(range(start, start + len(g["params"])))
            for p, i in zip(g["params"], ids):
                index[id(p)] = i
            packed = {k: v for k, v in g.items() if k != "params"}
            packed["params"] = ids
            groups.append(packed)
            start += len(ids)
        state = {index[id(p)]: s for p, s in self.state.items() if id(p) in index}
        return {"state": state, "param_groups": groups}

    def load_state_dict(self, state_dict: dict[str, Any]) -> None:
        state_dict = deepcopy(state_dict)
        groups, saved = self.param_groups, state_dict["param_groups"]
        if len(groups) != len(saved):
            raise ValueError("loaded state dict has a different number of parameter groups")
        if any(len(g["params"]) != len(s["params"]) for g, s in zip(groups, saved)):
            raise ValueError(
                "loaded state dict contains a parameter group that doesn't match the size of "
                "optimizer's group"
            )
        id_map = {}
        for g, s in zip(groups, saved):
            for p, i in zip(g["params"], s["params"]):
                id_map[i] = p
        self.state = defaultdict(dict)
        for k, v in state_dict["state"].items():
            p = id_map.get(int(k))
            if p is not None:
                self.state[p] = {
                    key: (
                        val.to(dtype=p.dtype)
                        if isinstance(val, Tensor) and key != "step" and val.is_floating_point()
                        else val
                    )
                    for key, val in v.items()
                }
        for g, s in zip(groups, saved):
            for key, val in s.items():
                if key != "params":
                    g[key] = val

    def step(self, closure: Any = None) -> Any:
        raise NotImplementedError

    def __repr__(self) -> str:
        out = self.__class__.__name__ + " ("
        for i, g in enumerate(self.param_groups):
            out += f"\nParameter Group {i}"
            for key in sorted(g):
                if key != "params":
                    out += f"\n    {key}: {g[key]}"
        return out + "\n)"

    @staticmethod
    def _params_with_grad(group: dict[str, Any]) -> Iterable[Tensor]:
        return [p for p in group["params"] if p.grad is not None]
