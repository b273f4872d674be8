"""Rprop (resilient backpropagation) with PyTorch's single-tensor update."""

from __future__ import annotations

from typing import Any

import keyroute as _kr

from ..autograd.grad_mode import no_grad
from . import _common as c
from .optimizer import Optimizer

__all__ = ["Rprop"]


class Rprop(Optimizer):
    def __init__(
        self,
        params: Any,
        lr: float = 1e-2,
        etas: tuple[float, float] = (0.5, 1.2),
        step_sizes: tuple[float, float] = (1e-6, 50),
        *,
        capturable: bool = False,
        foreach: bool | None = None,
        maximize: bool = False,
        differentiable: bool = False,
    ) -> None:
        c.check_lr(lr)
        if not 0.0 < etas[0] < 1.0 < etas[1]:
            raise ValueError(f"Invalid eta values: {etas[0]}, {etas[1]}")
        defaults = dict(
            lr=lr,
            etas=etas,
            step_sizes=step_sizes,
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
            c.no_sparse("Rprop", p)
            state = self.state[p]
            if not state:
                state["step"] = c.scalar_zeros()
                state["prev"] = c.zeros_state(p)
                state["step_size"] = _kr.full_like(p.grad, c.to_scalar(group["lr"]))
        return params

    def step(self, closure: Any = None) -> Any:
        loss = c.call_closure(closure)
        with no_grad():
            for group in self.param_groups:
                params = self._init_group(group)
                c.check_capturable(self, params, group)
                if params and group["foreach"]:  # PyTorch's _multi_tensor_rprop
                    from . import _foreach_more

                    _foreach_more.rprop(self, params, group)
                    continue
                etaminus, etaplus = group["etas"]
                step_size_min, step_size_max = group["step_sizes"]
                for p in params:
                    state = self.state[p]
                    grad = p.grad if not group["maximize"] else -p.grad
                    prev, step_size = state["prev"], state["step_size"]
                    state["step"] += 1
                    if group["differentiable"]:
                        sign = grad.mul(prev.clone()).sign()
                    else:
                        sign = grad.mul(prev).sign()
                    sign[sign.gt(0)] = etaplus
                    sign[sign.lt(0)] = etaminus
                    sign[sign.eq(0)] = 1
                    step_size.mul_(sign).clamp_(step_size_min, step_size_max)
                    # where the gradient changed sign, take no step (dfdx = 0)
                    grad = grad.clone(memory_format=_kr.preserve_format)
                    grad[sign.eq(etaminus)] = 0
                    p.addcmul_(grad.sign(), step_size, value=-1)
                    prev.copy_(grad)
        return loss
