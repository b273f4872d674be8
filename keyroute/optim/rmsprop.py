"""RMSprop with PyTorch's single-tensor update (centered, momentum, weight decay, maximize)."""

from __future__ import annotations

from typing import Any

from ..autograd.grad_mode import no_grad
from . import _common as c
from .optimizer import Optimizer

__all__ = ["RMSprop"]


class RMSprop(Optimizer):
    def __init__(
        self,
        params: Any,
        lr: float = 1e-2,
        alpha: float = 0.99,
        eps: float = 1e-8,
        weight_decay: float = 0,
        momentum: float = 0,
        centered: bool = False,
        capturable: bool = False,
        foreach: bool | None = None,
        maximize: bool = False,
        differentiable: bool = False,
    ) -> None:
        c.check_lr(lr)
        c.check_nonneg("epsilon", eps)
        c.check_nonneg("momentum", momentum)
        c.check_nonneg("weight_decay", weight_decay)
        c.check_nonneg("alpha", alpha)
        defaults = dict(
            lr=lr,
            momentum=momentum,
            alpha=alpha,
            eps=eps,
            centered=centered,
            weight_decay=weight_decay,
            capturable=capturable,
            foreach=foreach,
            maximize=maximize,
            differentiable=differentiable,
        )
        super().__init__(params, defaults)

    def _init_group(self, group: dict[str, Any]) -> list[Any]:
        params = []
        for p in group["params"]:
            if p.grad is None:
                continue
            params.append(p)
            c.no_sparse("RMSprop", p)
            state = self.state[p]
            if not state:
                state["step"] = c.scalar_zeros()
                state["square_avg"] = c.zeros_state(p)
                if group["momentum"] > 0:
                    state["momentum_buffer"] = c.zeros_state(p)
                if group["centered"]:
                    state["grad_avg"] = c.zeros_state(p)
        return params

    def step(self, closure: Any = None) -> Any:
        loss = c.call_closure(closure)
        with no_grad():
            for group in self.param_groups:
                params = self._init_group(group)
                c.check_capturable(self, params, group)
                if params and group["foreach"]:  # PyTorch's _multi_tensor_rmsprop
                    from . import _foreach_more

                    _foreach_more.rmsprop(self, params, group)
                    continue
                lr, alpha, eps = c.to_scalar(group["lr"]), group["alpha"], group["eps"]
                wd, momentum = group["weight_decay"], group["momentum"]
                for p in params:
                    state = self.state[p]
                    grad = p.grad if not group["maximize"] else -p.grad
                    square_avg = state["square_avg"]
                    state["step"] += 1
                    if wd != 0:
                        grad = grad.add(p, alpha=wd)
                    square_avg.mul_(alpha).addcmul_(grad, grad, value=1 - alpha)
                    if group["centered"]:
                        grad_avg = state["grad_avg"]
                        grad_avg.lerp_(grad, 1 - alpha)
                        avg = square_avg.addcmul(grad_avg, grad_avg, value=-1).sqrt_()
                    else:
                        avg = square_avg.sqrt()
                    avg = avg.add(eps) if group["differentiable"] else avg.add_(eps)
                    if momentum > 0:
                        buf = state["momentum_buffer"]
                        buf.mul_(momentum).addcdiv_(grad, avg)
                        p.add_(buf, alpha=-lr)
                    else:
                        p.addcdiv_(grad, avg, value=-lr)
        return loss
