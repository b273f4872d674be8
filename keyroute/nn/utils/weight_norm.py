"""torch.nn.utils.weight_norm (the forward-pre-hook form PyTorch deprecates in favour of
parametrizations.weight_norm): module.<name> recomputed from <name>_g and <name>_v before each
forward."""

from __future__ import annotations

import warnings
from typing import Any

from ..modules.module import Module
from ..parameter import Parameter
from ._weight_ops import norm_except_dim
from ._weight_ops import weight_norm as _weight_norm

__all__ = ["WeightNorm", "weight_norm", "remove_weight_norm"]


class WeightNorm:
    name: str
    dim: int

    def __init__(self, name: str, dim: int) -> None:
        self.name = name
        self.dim = -1 if dim is None else dim

    def compute_weight(self, module: Module) -> Any:
        g = getattr(module, self.name + "_g")
        v = getattr(module, self.name + "_v")
        return _weight_norm(v, g, self.dim)

    @staticmethod
    def apply(module: Module, name: str, dim: int) -> WeightNorm:
        hooks = getattr(module, "_weight_norm_hooks", {})
        if name in hooks:
            raise RuntimeError(
                f"Cannot register two weight_norm hooks on the same parameter {name}"
            )
        fn = WeightNorm(name, dim)
        weight = getattr(module, name)
        del module._parameters[name]
        module.register_parameter(name + "_g", Parameter(norm_except_dim(weight, 2, fn.dim).data))
        module.register_parameter(name + "_v", Parameter(weight.data))
        object.__setattr__(module, name, fn.compute_weight(module))
        handle = module.register_forward_pre_hook(fn)
        hooks = dict(hooks)
        hooks[name] = (fn, handle)
        object.__setattr__(module, "_weight_norm_hooks", hooks)
        return fn

    def remove(self, module: Module) -> None:
        weight = self.compute_weight(module)
        object.__delattr__(module, self.name)
        del module._parameters[self.name + "_g"]
        del module._parameters[self.name + "_v"]
        module.register_parameter(self.name, Parameter(weight.data))

    def __call__(self, module: Module, inputs: Any) -> None:
        object.__setattr__(module, self.name, self.compute_weight(module))


def weight_norm(module: Module, name: str = "weight", dim: int | None = 0) -> Module:
    """Reparametrize module.<name> as g * v / ||v|| (deprecated form, with its warning)."""
    warnings.warn(
        "`torch.nn.utils.weight_norm` is deprecated in favor of "
        "`torch.nn.utils.parametrizations.weight_norm`.",
        FutureWarning,
        stacklevel=2,
    )
    WeightNorm.apply(module, name, dim)
    return module


def remove_weight_norm(module: Module, name: str = "weight") -> Module:
    """Undo weight_norm: module.<name> becomes a plain parameter again."""
    hooks = getattr(module, "_weight_norm_hooks", {})
    if name not in hooks:
        raise ValueError(f"weight_norm of '{name}' not found in {module}")
    fn, handle = hooks.pop(name)
    fn.remove(module)
    handle.remove()
    return module
