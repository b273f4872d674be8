"""SGD with momentum, dampening, Nesterov and weight decay, as torch.optim.SGD."""

from __future__ import annotations

from typing import Any

from ..autograd.grad_mode import no_grad
from .optimizer import Optimizer, required

__all__ = ["SGD"]


class SGD(Optimizer):
    def __init__(
        self,
        params: Any,
        lr: float = 1e-3,
        momentum: float = 0,
        dampening: float = 0,
        weight_decay: float = 0,
        nesterov: bool = False,
        *,
        maximize: bool = False,
        foreach: bool | None = None,
        differentiable: bool = False,
        fused: bool | None = None,
    ) -> None:
        if lr is not required and lr < 0.0:
            raise ValueError(f"Invalid learning rate: {lr}")
        if momentum < 0.0:
            raise ValueError(f"Invalid momentum value: {momentum}")
        if weight_decay < 0.0:
            raise ValueError(f"Invalid weight_decay value: {weight_decay}")
        if nesterov and (momentum <= 0 or dampening != 0):
            raise ValueError("Nesterov momentum requires a momentum and zero dampening")
        defaults = dict(
            lr=lr,
            momentum=momentum,
            dampening=dampening,
            weight_decay=weight_decay,
            nesterov=nesterov,
            maximize=maximize,
            foreach=foreach,
            differentiable=differentiable,
            fused=fused,
        )
        super().__init__(params, defaults)

    def step(self, closure: Any = None) -> Any:
        loss = None
        if closure is not None:
            from ..autograd.grad_mode import enable_grad

            with enable_grad():
                loss = closure()
        with no_grad():
            for group in self.param_groups:
                lr, momentum, dampening = group["lr"], group["momentum"], group["dampening"]
                wd, nesterov, maximize = group["weight_decay"], group["nesterov"], group["maximize"]
                if group["foreach"] or group["fused"]:
                    self._multi(group)
                    continue
                for p in group["params"]:
                    if p.grad is None:
                        continue
                    d_p = p.grad if not maximize else -p.grad
                    if wd != 0:
                        d_p = d_p.add(p, alpha=wd)
                    if momentum != 0:
                        state = self.state[p]
                        buf = state.get("momentum_buffer")
                        if buf is None:
                            # torch.optim.SGD: grad.detach().clone() (detach, then clone)
                            buf = d_p.detach().clone()
                            state["momentum_buffer"] = buf
                        else:
                            buf.mul_(momentum).add_(d_p, alpha=1 - dampening)
                        d_p = d_p.add(buf, alpha=momentum) if nesterov else buf
                    p.add_(d_p, alpha=-lr)
        return loss

    def _multi(self, group: dict[str, Any]) -> None:
        """foreach=True / fused=True: PyTorch's _multi_tensor_sgd / _fused_sgd."""
        from . import _foreach

        params = [p for p in group["params"] if p.grad is not None]
        if not params:
            return
        bufs = [self.state[p].get("momentum_buffer") for p in params]
        run = _foreach.sgd_fused if group["fused"] else _foreach.sgd_foreach
        bufs = run(params, bufs, group)
        if group["momentum"] != 0:
            for p, b in zip(params, bufs):
                self.state[p]["momentum_buffer"] = b
