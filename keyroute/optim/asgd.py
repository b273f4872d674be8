"""ASGD (averaged SGD) with PyTorch's single-tensor update: eta, mu and step are 0-dim state
tensors."""

from __future__ import annotations

from typing import Any

import keyroute as _kr

from ..autograd.grad_mode import no_grad
from . import _common as c
from .optimizer import Optimizer

__all__ = ["ASGD"]


class ASGD(Optimizer):
    def __init__(
        self,
        params: Any,
        lr: float = 1e-2,
        lambd: float = 1e-4,
        alpha: float = 0.75,
        t0: float = 1e6,
        weight_decay: float = 0,
        foreach: bool | None = None,
        maximize: bool = False,
        differentiable: bool = False,
        capturable: bool = False,
    ) -> None:
        c.check_lr(lr)
        c.check_nonneg("weight_decay", weight_decay)
        defaults = dict(
            lr=lr,
            lambd=lambd,
            alpha=alpha,
            t0=t0,
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
            c.no_sparse("ASGD", p)
            state = self.state[p]
            if not state:
                dt = c.scalar_dtype()
                state["step"] = _kr.zeros((), dtype=dt)
                state["eta"] = _kr.as_tensor(c.to_scalar(group["lr"]), dtype=dt).clone().detach()
                state["mu"] = _kr.ones((), dtype=dt)
                state["ax"] = c.zeros_state(p)
        return params

    def step(self, closure: Any = None) -> Any:
        loss = c.call_closure(closure)
        with no_grad():
            for group in self.param_groups:
                params = self._init_group(group)
                c.check_capturable(self, params, group)
                if params and group["foreach"]:  # PyTorch's _multi_tensor_asgd
                    from . import _foreach_more

                    _foreach_more.asgd(self, params, group)
                    continue
                lr, lambd, alpha = c.to_scalar(group["lr"]), group["lambd"], group["alpha"]
                t0, wd = group["t0"], group["weight_decay"]
                for p in params:
                    state = self.state[p]
                    grad = p.grad if not group["maximize"] else -p.grad
                    mu, ax, eta, step_t = state["mu"], state["ax"], state["eta"], state["step"]
                    step_t += 1
                    if wd != 0:
                        grad = grad.add(p, alpha=wd)
                    eta_value = c.value(eta)
                    p.mul_(1 - lambd * eta_value)  # the decay term
                    p.add_(grad, alpha=-eta_value)
                    # averaging
                    if mu.item() != 1:
                        ax.add_(p.sub(ax).mul_(mu))
                    else:
                        ax.copy_(p)
                    step = c.value(step_t)
                    eta.copy_(_kr.as_tensor(lr / ((1 + lambd * lr * step) ** alpha)))
                    mu.copy_(_kr.as_tensor(1 / max(1, step - t0)))
        return loss
