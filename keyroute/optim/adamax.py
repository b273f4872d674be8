"""Adamax (Adam with the infinity norm) with PyTorch's single-tensor update."""

from __future__ import annotations

from typing import Any

import keyroute as _kr

from ..tensor._tensor import Tensor
from . import _common as c
from ._single_tensor import SingleTensorOptimizer

__all__ = ["Adamax"]


class Adamax(SingleTensorOptimizer):
    _foreach = "adamax"

    def __init__(
        self,
        params: Any,
        lr: float = 2e-3,
        betas: tuple[float, float] = (0.9, 0.999),
        eps: float = 1e-8,
        weight_decay: float = 0,
        foreach: bool | None = None,
        *,
        maximize: bool = False,
        differentiable: bool = False,
        capturable: bool = False,
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
            foreach=foreach,
            maximize=maximize,
            differentiable=differentiable,
            capturable=capturable,
        )
        super().__init__(params, defaults)

    def _init_group(self, group: dict[str, Any]) -> list[Any]:
        params = []
        for p in group["params"]:
            if p.grad is None:
                continue
            params.append(p)
            c.no_sparse("Adamax", p)
            state = self.state[p]
            if not state:
                state["step"] = c.scalar_tensor(0.0)
                state["exp_avg"] = c.zeros_state(p)
                state["exp_inf"] = c.zeros_state(p)
        return params

    def _hyper(self, group: dict[str, Any]) -> Any:
        return group["betas"], c.to_scalar(group["lr"]), group["eps"], group["weight_decay"]

    def _update(
        self, p: Tensor, grad: Tensor, state: dict[str, Any], group: dict[str, Any], hyper: Any
    ) -> None:
        (beta1, beta2), lr, eps, wd = hyper
        exp_avg, exp_inf, step_t = state["exp_avg"], state["exp_inf"], state["step"]
        step_t += 1
        if wd != 0:
            grad = grad.add(p, alpha=wd)
        exp_avg.lerp_(grad, 1 - beta1)
        if not group["differentiable"]:
            _kr.maximum(exp_inf.mul_(beta2), grad.abs().add_(eps), out=exp_inf)
        else:
            norm_buf = _kr.cat(
                [exp_inf.mul_(beta2).unsqueeze(0), grad.abs().add_(eps).unsqueeze_(0)], 0
            )
            exp_inf.copy_(_kr.amax(norm_buf, 0, keepdim=False))
        clr = lr / (1 - beta1 ** c.value(step_t))
        p.addcdiv_(exp_avg, exp_inf, value=-clr)
