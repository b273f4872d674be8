"""torch.nn.utils.spectral_norm (the forward-pre-hook form): module.<name> = <name>_orig / sigma,
sigma estimated by power iteration on the buffers <name>_u, <name>_v (updated in training)."""

from __future__ import annotations

from typing import Any

from ... import _api  # noqa: F401
from ...autograd.grad_mode import no_grad
from .. import functional as F
from ..modules.module import Module
from ..parameter import Parameter
from ._fns import fns

__all__ = ["SpectralNorm", "spectral_norm", "remove_spectral_norm"]

_F = fns


class SpectralNorm:
    _version = 1

    def __init__(
        self, name: str = "weight", n_power_iterations: int = 1, dim: int = 0, eps: float = 1e-12
    ) -> None:
        self.name = name
        self.dim = dim
        if n_power_iterations <= 0:
            raise ValueError(
                "Expected n_power_iterations to be positive, but got "
                f"n_power_iterations={n_power_iterations}"
            )
        self.n_power_iterations = n_power_iterations
        self.eps = eps

    def reshape_weight_to_matrix(self, weight: Any) -> Any:
        if self.dim != 0:
            weight = weight.permute(self.dim, *(d for d in range(weight.dim()) if d != self.dim))
        return weight.reshape(weight.size(0), -1)

    def compute_weight(self, module: Module, do_power_iteration: bool) -> Any:
        weight = getattr(module, self.name + "_orig")
        u = getattr(module, self.name + "_u")
        v = getattr(module, self.name + "_v")
        weight_mat = self.reshape_weight_to_matrix(weight)
        if do_power_iteration:
            with no_grad():
                for _ in range(self.n_power_iterations):
                    v.copy_(F.normalize(_F.mv(weight_mat.t(), u), dim=0, eps=self.eps))
                    u.copy_(F.normalize(_F.mv(weight_mat, v), dim=0, eps=self.eps))
                u = u.clone()
                v = v.clone()
        sigma = _F.dot(u, _F.mv(weight_mat, v))
        return weight / sigma

    def remove(self, module: Module) -> None:
        with no_grad():
            weight = self.compute_weight(module, do_power_iteration=False)
        object.__delattr__(module, self.name)
        del module._parameters[self.name + "_orig"]
        del module._buffers[self.name + "_u"]
        del module._buffers[self.name + "_v"]
        module.register_parameter(self.name, Parameter(weight.detach()))

    def __call__(self, module: Module, inputs: Any) -> None:
        object.__setattr__(
            module, self.name, self.compute_weight(module, do_power_iteration=module.training)
        )

    @staticmethod
    def apply(module: Module, name: str, n_power_iterations: int, dim: int, eps: float) -> Any:
        hooks = getattr(module, "_spectral_norm_hooks", {})
        if name in hooks:
            raise RuntimeError(
                f"Cannot register two spectral_norm hooks on the same parameter {name}"
            )
        fn = SpectralNorm(name, n_power_iterations, dim, eps)
        weight = module._parameters[name]
        with no_grad():
            weight_mat = fn.reshape_weight_to_matrix(weight)
            h, w = weight_mat.size()
            u = F.normalize(weight.new_empty(h).normal_(0, 1), dim=0, eps=fn.eps)
            v = F.normalize(weight.new_empty(w).normal_(0, 1), dim=0, eps=fn.eps)
        del module._parameters[name]
        module.register_parameter(name + "_orig", weight)
        object.__setattr__(module, name, weight.data)
        module.register_buffer(name + "_u", u)
        module.register_buffer(name + "_v", v)
        handle = module.register_forward_pre_hook(fn)
        hooks = dict(hooks)
        hooks[name] = (fn, handle)
        object.__setattr__(module, "_spectral_norm_hooks", hooks)
        return fn


def spectral_norm(
    module: Module,
    name: str = "weight",
    n_power_iterations: int = 1,
    eps: float = 1e-12,
    dim: int | None = None,
) -> Module:
    """Divide module.<name> by its spectral norm before every forward."""
    if dim is None:
        dim = 1 if "ConvTranspose" in type(module).__name__ else 0
    SpectralNorm.apply(module, name, n_power_iterations, dim, eps)
    return module


def remove_spectral_norm(module: Module, name: str = "weight") -> Module:
    """Undo spectral_norm: module.<name> becomes a plain parameter again."""
    hooks = getattr(module, "_spectral_norm_hooks", {})
    if name not in hooks:
        raise ValueError(f"spectral_norm of '{name}' not found in {module}")
    fn, handle = hooks.pop(name)
    fn.remove(module)
    handle.remove()
    return module
