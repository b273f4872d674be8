"""Adagrad with PyTorch's single-tensor update (lr_decay, initial accumulator, weight decay).
Its state is created in __init__ for every parameter, as PyTorch's is."""

from __future__ import annotations

from typing import Any

import keyroute as _kr

from ..autograd.grad_mode import no_grad
from . import _common as c
from .optimizer import Optimizer

__all__ = ["Adagrad"]


class Adagrad(Optimizer):
    def __init__(
        self,
        params: Any,
        lr: float = 1e-2,
        lr_decay: float = 0,
        weight_decay: float = 0,
        initial_accumulator_value: float = 0,
        eps: float = 1e-10,
        foreach: bool | None = None,
        *,
        maximize: bool = False,
        differentiable: bool = False,
        fused: bool | None = None,
    ) -> None:
        c.check_lr(lr)
        c.check_nonneg("lr_decay", lr_decay)
        c.check_nonneg("weight_decay", weight_decay)
        c.check_nonneg("initial_accumulator_value", initial_accumulator_value)
        c.check_nonneg("epsilon", eps)
        defaults = dict(
            lr=lr,
            lr_decay=lr_decay,
            eps=eps,
            weight_decay=weight_decay,
            initial_accumulator_value=initial_accumulator_value,
            foreach=foreach,
            maximize=maximize,
            differentiable=differentiable,
            fused=fused,
        )
        super().__init__(params, defaults)
        if fused:
            if differentiable:
                raise RuntimeError("`fused` does not support `differentiable`")
            if foreach:
                raise RuntimeError("`fused` and `foreach` cannot be `True` together.")
        for group in self.param_groups:
            for p in group["params"]:
                self._new_state(p, group)

    def _new_state(self, p: Any, group: dict[str, Any]) -> None:
        if group["fused"] and not p.is_floating_point():
            raise RuntimeError(
                "`fused=True` requires all the params to be floating point Tensors of "
                f"supported devices: ['mps', 'cuda', 'xpu', 'hpu', 'cpu', 'mtia', "
                f"'privateuseone'] but {p.dtype} and {p.device.type}"
            )
        state = self.state[p]
        # fused keeps a float32 zeros(()) step; the others torch.tensor(0.0)
        if group["fused"]:
            state["step"] = _kr.zeros((), dtype=_kr.float32)
        else:
            state["step"] = c.scalar_tensor(0.0)
        state["sum"] = _kr.full_like(
            p, self.defaults["initial_accumulator_value"], memory_format=_kr.preserve_format
        )

    def share_memory(self) -> None:
        for group in self.param_groups:
            for p in group["params"]:
                self.state[p]["sum"].share_memory_()

    def step(self, closure: Any = None) -> Any:
        loss = c.call_closure(closure)
        with no_grad():
            for group in self.param_groups:
                params = []
                for p in group["params"]:
                    if p.grad is not None:
                        params.append(p)
                        if not self.state[p]:
                            self._new_state(p, group)
                if params and group["foreach"]:  # PyTorch's _multi_tensor_adagrad
                    from . import _foreach_more

                    _foreach_more.adagrad(self, params, group)
                    continue
                lr, wd = c.to_scalar(group["lr"]), group["weight_decay"]
                lr_decay, eps = group["lr_decay"], group["eps"]
                for p in params:
                    state = self.state[p]
                    step_t, state_sum = state["step"], state["sum"]
                    step_t += 1
                    step = c.value(step_t)
                    grad = p.grad if not group["maximize"] else -p.grad
                    if wd != 0:
                        if grad.is_sparse:
                            raise RuntimeError(
                                "weight_decay option is not compatible with sparse gradients"
                            )
                        grad = grad.add(p, alpha=wd)
                    clr = lr / (1 + (step - 1) * lr_decay)
                    if grad.is_sparse:
                        raise NotImplementedError(
                            "Adagrad with sparse gradients is not supported by keyroute"
                        )
                    state_sum.addcmul_(grad, grad, value=1)
                    if group["differentiable"]:
                        std = state_sum.sqrt() + eps
                    else:
                        std = state_sum.sqrt().add_(eps)
                    p.addcdiv_(grad, std, value=-clr)
        return loss
