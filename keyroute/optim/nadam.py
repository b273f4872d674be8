"""NAdam (Adam with Nesterov momentum and momentum decay) with PyTorch's single-tensor update."""

from __future__ import annotations

from typing import Any

from ..tensor._tensor import Tensor
from . import _common as c
from ._single_tensor import SingleTensorOptimizer

__all__ = ["NAdam"]


class NAdam(SingleTensorOptimizer):
    _foreach = "nadam"

    def __init__(
        self,
        params: Any,
        lr: float = 2e-3,
        betas: tuple[float, float] = (0.9, 0.999),
        eps: float = 1e-8,
        weight_decay: float = 0,
        momentum_decay: float = 4e-3,
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
        c.check_nonneg("momentum_decay", momentum_decay)
        defaults = dict(
            lr=lr,
            betas=betas,
            eps=eps,
            weight_decay=weight_decay,
            momentum_decay=momentum_decay,
            decoupled_weight_decay=decoupled_weight_decay,
            maximize=maximize,
            foreach=foreach,
            capturable=capturable,
            differentiable=differentiable,
        )
        super().__init__(params, defaults)

    def _init_group(self, group: dict[str, Any]) -> list[Any]:
        params = []
        for p in group["params"]:
            if p.grad is None:
                continue
            params.append(p)
            c.no_sparse("NAdam", p)
            state = self.state[p]
            if not state:
                state["step"] = c.scalar_tensor(0.0)
                state["mu_product"] = c.scalar_tensor(1.0)
                state["exp_avg"] = c.zeros_state(p)
                state["exp_avg_sq"] = c.zeros_state(p)
        return params

    def _hyper(self, group: dict[str, Any]) -> Any:
        lr, eps, wd = c.to_scalar(group["lr"]), group["eps"], group["weight_decay"]
        return group["betas"], lr, eps, wd, group["momentum_decay"]

    def _update(
        self, p: Tensor, grad: Tensor, state: dict[str, Any], group: dict[str, Any], hyper: Any
    ) -> None:
        (beta1, beta2), lr, eps, wd, md = hyper
        exp_avg, exp_avg_sq = state["exp_avg"], state["exp_avg_sq"]
        mu_product, step_t = state["mu_product"], state["step"]
        step_t += 1
        step = c.value(step_t)
        bias_correction2 = 1 - beta2**step
        if wd != 0:
            if group["decoupled_weight_decay"]:
                p.mul_(1 - lr * wd)
            else:
                grad = grad.add(p, alpha=wd)
        # the momentum cache mu_t and mu_{t+1}
        mu = beta1 * (1.0 - 0.5 * (0.96 ** (step * md)))
        mu_next = beta1 * (1.0 - 0.5 * (0.96 ** ((step + 1) * md)))
        mu_product *= mu
        exp_avg.lerp_(grad, 1 - beta1)
        exp_avg_sq.mul_(beta2).addcmul_(grad, grad, value=1 - beta2)
        denom = exp_avg_sq.div(bias_correction2).sqrt()
        if group["differentiable"]:
            denom = denom.add(eps)
            mu_product_next = mu_product * mu_next
            grad = grad * (-lr * (1.0 - mu) / (1.0 - mu_product))
            exp_avg = exp_avg * (-lr * mu_next / (1.0 - mu_product_next))
            p.addcdiv_(grad, denom)
            p.addcdiv_(exp_avg, denom)
        else:
            mu_product_next = c.value(mu_product) * mu_next
            denom.add_(eps)
            p.addcdiv_(grad, denom, value=(-lr * (1.0 - mu) / (1.0 - c.value(mu_product))))
            p.addcdiv_(exp_avg, denom, value=(-lr * mu_next) / (1.0 - mu_product_next))
