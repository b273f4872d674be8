"""Adadelta with PyTorch's single-tensor update."""

from __future__ import annotations

from typing import Any

from ..autograd.grad_mode import no_grad
from . import _common as c
from .optimizer import Optimizer

__all__ = ["Adadelta"]


class Adadelta(Optimizer):
    def __init__(
        self,
        params: Any,
        lr: float = 1.0,
        rho: float = 0.9,
        eps: float = 1e-6,
        weight_decay: float = 0,
        foreach: bool | None = None,
        *,
        capturable: bool = False,
        maximize: bool = False,
        differentiable: bool = False,
    ) -> None:
        c.check_lr(lr)
        if not 0.0 <= rho <= 1.0:
            raise ValueError(f"Invalid rho value: {rho}")
        c.check_nonneg("epsilon", eps)
        c.check_nonneg("weight_decay", weight_decay)
        defaults = dict(
            lr=lr,
            rho=rho,
            eps=eps,
            weight_decay=weight_decay,
            maximize=maximize,
            capturable=capturable,
            foreach=foreach,
            differentiable=differentiable,
        )
        super().__init__(params, defaults)

    def _init_group(self, group: dict[str, Any]) -> list[Any]:
        params = []
        for p in group["params"]:
            if p.grad is None:
                continue
            params.append(p)
            c.no_sparse("Adadelta", p)
            state = self.state[p]
            if not state:
                state["step"] = c.scalar_zeros()
                state["square_avg"] = c.zeros_state(p)
                state["acc_delta"] = c.zeros_state(p)
        return params

    def step(self, closure: Any = None) -> Any:
        loss = c.call_closure(closure)
        with no_grad():
            for group in self.param_groups:
                params = self._init_group(group)
                c.check_capturable(self, params, group)
                if params and group["foreach"]:  # PyTorch's _multi_tensor_adadelta
                    from . import _foreach_more

                    _foreach_more.adadelta(self, params, group)
                    continue
                lr, rho, eps = c.to_scalar(group["lr"]), group["rho"], group["eps"]
                wd = group["weight_decay"]
                for p in params:
                    state = self.state[p]
                    square_avg, acc_delta = state["square_avg"], state["acc_delta"]
                    state["step"] += 1
                    grad = p.grad if not group["maximize"] else -p.grad
                    if wd != 0:
                        grad = grad.add(p, alpha=wd)
                    square_avg.mul_(rho).addcmul_(grad, grad, value=1 - rho)
                    std = square_avg.add(eps).sqrt_()
                    delta = acc_delta.add(eps).sqrt_()
                    if group["differentiable"]:
                        delta = delta.clone()
                    delta.div_(std).mul_(grad)
                    acc_delta.mul_(rho).addcmul_(delta, delta, value=1 - rho)
                    p.add_(delta, alpha=-lr)
        return loss
