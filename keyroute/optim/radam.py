"""RAdam (rectified Adam) with PyTorch's single-tensor update."""

from __future__ import annotations

from typing import Any

from ..tensor._tensor import Tensor
from . import _common as c
from ._single_tensor import SingleTensorOptimizer

__all__ = ["RAdam"]


class RAdam(SingleTensorOptimizer):
    _foreach = "radam"

    def __init__(
        self,
        params: Any,
        lr: float = 1e-3,
        betas: tuple[float, float] = (0.9, 0.999),
        eps: float = 1e-8,
        weight_decay: float = 0,
        decoupled_weight_decay: bool = False,
        *,
        foreach: bool | None = None,
        maximize: bool = False,
        capturable: bool = False,
        differentiable: bool = False,
    ) -> None:
        c.check_lr(lr)
        c.check_nonneg("epsilon", eps)
        c.check_betas(betas)
        c.check_nonneg("weight_decay", weight_decay)
        defaults = dict(
            lr=lr,
            betas=betas,
            eps=eps,
            weight_decay=weight_decay,
            maximize=maximize,
            foreach=foreach,
            capturable=capturable,
            decoupled_weight_decay=decoupled_weight_decay,
            differentiable=differentiable,
        )
        super().__init__(params, defaults)

    def _init_group(self, group: dict[str, Any]) -> list[Any]:
        params = []
        for p in group["params"]:
            if p.grad is None:
                continue
            params.append(p)
            c.no_sparse("RAdam", p)
            state = self.state[p]
            if not state:
                state["step"] = c.scalar_tensor(0.0)
                state["exp_avg"] = c.zeros_state(p)
                state["exp_avg_sq"] = c.zeros_state(p)
        return params

    def _hyper(self, group: dict[str, Any]) -> Any:
        return group["betas"], c.to_scalar(group["lr"]), group["eps"], group["weight_decay"]

    def _update(
        self, p: Tensor, grad: Tensor, state: dict[str, Any], group: dict[str, Any], hyper: Any
    ) -> None:
        (beta1, beta2), lr, eps, wd = hyper
        exp_avg, exp_avg_sq, step_t = state["exp_avg"], state["exp_avg_sq"], state["step"]
        step_t += 1
        step = c.value(step_t)
        if wd != 0:
            if group["decoupled_weight_decay"]:
                p.mul_(1 - lr * wd)
            else:
                grad = grad.add(p, alpha=wd)
        exp_avg.lerp_(grad, 1 - beta1)
        exp_avg_sq.mul_(beta2).addcmul_(grad, grad, value=1 - beta2)
        bias_correction1 = 1 - beta1**step
        bias_correction2 = 1 - beta2**step
        bias_corrected_exp_avg = exp_avg / bias_correction1
        # the maximum and the current length of the approximated SMA
        rho_inf = 2 / (1 - beta2) - 1
        rho_t = rho_inf - 2 * step * (beta2**step) / bias_correction2
        if rho_t > 5.0:
            # the variance is tractable: rectify the adaptive learning rate
            sq = exp_avg_sq.sqrt()
            sq = sq.add(eps) if group["differentiable"] else sq.add_(eps)
            adaptive_lr = (bias_correction2**0.5) / sq
            rect = (
                (rho_t - 4) * (rho_t - 2) * rho_inf / ((rho_inf - 4) * (rho_inf - 2) * rho_t)
            ) ** 0.5
            p.add_(bias_corrected_exp_avg * lr * adaptive_lr * rect, alpha=-1.0)
        else:
            p.add_(bias_corrected_exp_avg * lr, alpha=-1.0)
