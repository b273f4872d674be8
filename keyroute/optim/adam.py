"""Adam and AdamW with PyTorch's single-tensor update rules (bias correction, amsgrad,
maximize, decoupled weight decay for AdamW)."""

from __future__ import annotations

import math
from typing import Any

from .._api import creation as _creation
from .._ops import ops
from ..autograd.grad_mode import no_grad
from ..tensor.dtype import float32
from ._common import check_capturable as _check_capturable
from ._common import compiling as _compiling
from .optimizer import Optimizer

__all__ = ["Adam", "AdamW"]


class Adam(Optimizer):
    _decoupled = False

    def __init__(
        self,
        params: Any,
        lr: float = 1e-3,
        betas: tuple[float, float] = (0.9, 0.999),
        eps: float = 1e-8,
        weight_decay: float = 0,
        amsgrad: bool = False,
        *,
        foreach: bool | None = None,
        maximize: bool = False,
        capturable: bool = False,
        differentiable: bool = False,
        fused: bool | None = None,
        decoupled_weight_decay: bool = False,
    ) -> None:
        if not 0.0 <= lr:
            raise ValueError(f"Invalid learning rate: {lr}")
        if not 0.0 <= eps:
            raise ValueError(f"Invalid epsilon value: {eps}")
        if not 0.0 <= betas[0] < 1.0:
            raise ValueError(f"Invalid beta parameter at index 0: {betas[0]}")
        if not 0.0 <= betas[1] < 1.0:
            raise ValueError(f"Invalid beta parameter at index 1: {betas[1]}")
        if not 0.0 <= weight_decay:
            raise ValueError(f"Invalid weight_decay value: {weight_decay}")
        defaults = dict(
            lr=lr,
            betas=betas,
            eps=eps,
            weight_decay=weight_decay,
            amsgrad=amsgrad,
            maximize=maximize,
            foreach=foreach,
            capturable=capturable,
            differentiable=differentiable,
            fused=fused,
            decoupled_weight_decay=decoupled_weight_decay or self._decoupled,
        )
        super().__init__(params, defaults)

    def step(self, closure: Any = None) -> Any:
        loss = None
        if closure is not None:
            from ..autograd.grad_mode import enable_grad

            with enable_grad():
                loss = closure()
        compiling = _compiling()
        with no_grad():
            for group in self.param_groups:
                beta1, beta2 = group["betas"]
                lr, eps, wd = group["lr"], group["eps"], group["weight_decay"]
                amsgrad, maximize = group["amsgrad"], group["maximize"]
                decoupled = group["decoupled_weight_decay"]
                params = self._init_group(group)
                _check_capturable(self, params, group)
                if params and (group["foreach"] or group["fused"]):
                    from . import _foreach

                    run = _foreach.adam_fused if group["fused"] else _foreach.adam_foreach
                    run(self, params, group)
                    continue
                for p in params:
                    grad = p.grad if not maximize else -p.grad
                    state = self.state[p]
                    exp_avg, exp_avg_sq = state["exp_avg"], state["exp_avg_sq"]
                    step_t = state["step"]
                    step_t.add_(1)
                    if wd != 0:
                        if decoupled:
                            p.mul_(1 - lr * wd)
                        else:
                            grad = grad.add(p, alpha=wd)
                    exp_avg.lerp_(grad, 1 - beta1)
                    exp_avg_sq.mul_(beta2).addcmul_(grad, grad, value=1 - beta2)
                    if compiling:
                        # PyTorch's capturable formulas: dynamo traces opt.step with
                        # capturable=True (OptimizerVariable), so the step stays a tensor
                        # and no `.item()` breaks the graph.
                        _capturable_update(p, grad, exp_avg, state, step_t, group)
                        continue
                    step = step_t.item()
                    bias_correction1 = 1 - beta1**step
                    bias_correction2 = 1 - beta2**step
                    step_size = lr / bias_correction1
                    bias_correction2_sqrt = math.sqrt(bias_correction2)
                    if amsgrad:
                        max_sq = state["max_exp_avg_sq"]
                        # torch.maximum(max_sq, exp_avg_sq, out=max_sq): maximum.out
                        ops.aten.maximum.out(max_sq, exp_avg_sq, out=max_sq)
                        denom = (max_sq.sqrt() / bias_correction2_sqrt).add_(eps)
                    else:
                        denom = (exp_avg_sq.sqrt() / bias_correction2_sqrt).add_(eps)
                    p.addcdiv_(exp_avg, denom, value=-step_size)
        return loss

    def _init_group(self, group: dict[str, Any]) -> list[Any]:
        """The group's parameters with a gradient; as PyTorch's _init_group, every one's state
        is created (lazily, on the first step) before any parameter is updated."""
        params = []
        for p in group["params"]:
            if p.grad is None:
                continue
            params.append(p)
            state = self.state[p]
            if not state:
                # fused keeps a float32 zeros(()) step; the others torch.tensor(0.0)
                state["step"] = (
                    _creation.zeros((), dtype=float32)
                    if group["fused"]
                    else _creation.tensor(0.0, dtype=float32)
                )
                state["exp_avg"] = _creation.zeros_like(p, memory_format=_preserve())
                state["exp_avg_sq"] = _creation.zeros_like(p, memory_format=_preserve())
                if group["amsgrad"]:
                    state["max_exp_avg_sq"] = _creation.zeros_like(p, memory_format=_preserve())
        return params


def _capturable_update(
    p: Any, grad: Any, exp_avg: Any, state: dict[str, Any], step: Any, group: dict[str, Any]
) -> None:
    """The rest of _single_tensor_adam's capturable branch (after the moment updates): the bias
    corrections are tensors computed from the step tensor."""
    beta1, beta2 = group["betas"]
    lr, eps = group["lr"], group["eps"]
    bias_correction1 = 1 - beta1**step
    bias_correction2 = 1 - beta2**step
    step_size_neg = (lr / bias_correction1).neg()
    bias_correction2_sqrt = bias_correction2.sqrt()
    if group["amsgrad"]:
        max_sq = state["max_exp_avg_sq"]
        max_sq.copy_(ops.aten.maximum.default(max_sq, state["exp_avg_sq"]))
        sq = max_sq
    else:
        sq = state["exp_avg_sq"]
    denom = (sq.sqrt() / (bias_correction2_sqrt * step_size_neg)).add_(eps / step_size_neg)
    p.addcdiv_(exp_avg, denom)


def _preserve() -> Any:
    from ..tensor.layout import preserve_format

    return preserve_format


class AdamW(Adam):
    """Adam with decoupled weight decay (default weight_decay=1e-2)."""

    _decoupled = True

    def __init__(
        self,
        params: Any,
        lr: float = 1e-3,
        betas: tuple[float, float] = (0.9, 0.999),
        eps: float = 1e-8,
        weight_decay: float = 1e-2,
        amsgrad: bool = False,
        *,
        maximize: bool = False,
        foreach: bool | None = None,
        capturable: bool = False,
        differentiable: bool = False,
        fused: bool | None = None,
    ) -> None:
        super().__init__(
            params,
            lr,
            betas,
            eps,
            weight_decay,
            amsgrad,
            foreach=foreach,
            maximize=maximize,
            capturable=capturable,
            differentiable=differentiable,
            fused=fused,
            decoupled_weight_decay=True,
        )
