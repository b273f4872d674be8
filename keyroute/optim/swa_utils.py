"""torch.optim.swa_utils: AveragedModel (SWA / EMA weight averaging), the averaging
functions, and SWALR (anneal each group's lr to its swa_lr), as PyTorch 2.13's."""

from __future__ import annotations

import itertools
import math
from collections.abc import Callable
from copy import deepcopy
from typing import Any

import keyroute as _kr

from ..autograd.grad_mode import no_grad
from ..nn.modules.module import Module
from ._lr_base import LRScheduler

__all__ = [
    "AveragedModel",
    "SWALR",
    "get_ema_avg_fn",
    "get_ema_multi_avg_fn",
    "get_swa_avg_fn",
    "get_swa_multi_avg_fn",
    "update_bn",
]


def get_ema_multi_avg_fn(decay: float = 0.999) -> Callable[..., None]:
    @no_grad()
    def ema_update(ema_list: list[Any], current_list: list[Any], _: Any) -> None:
        if ema_list[0].is_floating_point():
            _kr._foreach_lerp_(ema_list, current_list, 1 - decay)
        else:
            for p_ema, p in zip(ema_list, current_list):
                p_ema.copy_(p_ema * decay + p * (1 - decay))

    return ema_update


def get_swa_multi_avg_fn() -> Callable[..., None]:
    @no_grad()
    def swa_update(averaged: list[Any], current: list[Any], num_averaged: Any) -> None:
        n = num_averaged.item() if isinstance(num_averaged, _kr.Tensor) else num_averaged
        if averaged[0].is_floating_point():
            _kr._foreach_lerp_(averaged, current, 1 / (n + 1))
        else:
            diffs = _kr._foreach_sub(current, averaged)
            _kr._foreach_add_(averaged, _kr._foreach_div(diffs, [n + 1] * len(diffs)))

    return swa_update


def get_ema_avg_fn(decay: float = 0.999) -> Callable[..., Any]:
    @no_grad()
    def ema_update(ema_param: Any, current_param: Any, num_averaged: Any) -> Any:
        return decay * ema_param + (1 - decay) * current_param

    return ema_update


def get_swa_avg_fn() -> Callable[..., Any]:
    @no_grad()
    def swa_update(averaged_param: Any, current_param: Any, num_averaged: Any) -> Any:
        return averaged_param + (current_param - averaged_param) / (num_averaged + 1)

    return swa_update


class AveragedModel(Module):
    """A copy of `model` whose parameters (and buffers when use_buffers) are the running
    average of the model's, updated by update_parameters."""

    def __init__(
        self,
        model: Module,
        device: Any = None,
        avg_fn: Callable[..., Any] | None = None,
        multi_avg_fn: Callable[..., None] | None = None,
        use_buffers: bool = False,
    ) -> None:
        super().__init__()
        if avg_fn is not None and multi_avg_fn is not None:
            raise AssertionError("Only one of avg_fn and multi_avg_fn should be provided")
        self.module = deepcopy(model)
        if device is not None:
            self.module = self.module.to(device)
        self.register_buffer("n_averaged", _kr.tensor(0, dtype=_kr.long, device=device))
        self.avg_fn = avg_fn
        self.multi_avg_fn = multi_avg_fn
        self.use_buffers = use_buffers

    def forward(self, *args: Any, **kwargs: Any) -> Any:
        return self.module(*args, **kwargs)

    def _pairs(self, model: Module) -> tuple[list[Any], list[Any]]:
        if self.use_buffers:
            mine = itertools.chain(self.module.parameters(), self.module.buffers())
            theirs = itertools.chain(model.parameters(), model.buffers())
        else:
            mine, theirs = self.parameters(), model.parameters()
        a = [p.detach() for p in mine]
        b = [p.detach().to(q.device) for p, q in zip(theirs, a)]
        return a, b

    def update_parameters(self, model: Module) -> None:
        with no_grad():
            averaged, current = self._pairs(model)
            if self.n_averaged.item() == 0:
                for a, c in zip(averaged, current):
                    a.copy_(c)
            elif self.multi_avg_fn is not None:
                self.multi_avg_fn(averaged, current, self.n_averaged)
            else:
                # on CPU PyTorch's default is the per-tensor SWA average (no foreach kernels)
                fn = self.avg_fn if self.avg_fn is not None else get_swa_avg_fn()
                for a, c in zip(averaged, current):
                    a.copy_(fn(a, c, self.n_averaged))
            if not self.use_buffers:
                for b_swa, b_model in zip(self.module.buffers(), model.buffers()):
                    b_swa.detach().copy_(b_model.detach().to(b_swa.device))
            self.n_averaged += 1


class SWALR(LRScheduler):
    """Anneals each group's learning rate from its value to `swa_lr` over anneal_epochs
    steps ('cos' or 'linear'), then holds it there."""

    def __init__(
        self,
        optimizer: Any,
        swa_lr: float | list[float],
        anneal_epochs: int = 10,
        anneal_strategy: str = "cos",
        last_epoch: int = -1,
    ) -> None:
        groups = optimizer.param_groups
        lrs = list(swa_lr) if isinstance(swa_lr, (list, tuple)) else [swa_lr] * len(groups)
        if len(lrs) != len(groups):
            raise ValueError(
                f"swa_lr must have the same length as optimizer.param_groups: swa_lr has "
                f"{len(lrs)}, optimizer.param_groups has {len(groups)}"
            )
        for lr, group in zip(lrs, groups):
            group["swa_lr"] = lr
        if anneal_strategy not in ("cos", "linear"):
            raise ValueError(
                f"anneal_strategy must by one of 'cos' or 'linear', instead got {anneal_strategy}"
            )
        self.anneal_func = self._cosine_anneal if anneal_strategy == "cos" else self._linear_anneal
        if not isinstance(anneal_epochs, int) or anneal_epochs < 0:
            raise ValueError(f"anneal_epochs must be equal or greater than 0, got {anneal_epochs}")
        self.anneal_epochs = anneal_epochs
        super().__init__(optimizer, last_epoch)

    @staticmethod
    def _linear_anneal(t: float) -> float:
        return t

    @staticmethod
    def _cosine_anneal(t: float) -> float:
        return (1 - math.cos(math.pi * t)) / 2

    @staticmethod
    def _get_initial_lr(lr: float, swa_lr: float, alpha: float) -> float:
        if alpha == 1:
            return swa_lr
        return (lr - alpha * swa_lr) / (1 - alpha)

    def get_lr(self) -> list[Any]:
        step = self._step_count - 1
        if self.anneal_epochs == 0:
            step = max(1, step)
        prev_t = max(0, min(1, (step - 1) / max(1, self.anneal_epochs)))
        prev_alpha = self.anneal_func(prev_t)
        groups = self.optimizer.param_groups
        prev = [self._get_initial_lr(g["lr"], g["swa_lr"], prev_alpha) for g in groups]
        t = max(0, min(1, step / max(1, self.anneal_epochs)))
        alpha = self.anneal_func(t)
        return [g["swa_lr"] * alpha + lr * (1 - alpha) for g, lr in zip(groups, prev)]


@no_grad()
def update_bn(loader: Any, model: Module, device: Any = None) -> None:
    """Recompute the running statistics of every batch-norm layer of `model` from one pass
    over `loader` (the first element of a list/tuple batch is the input): the statistics are
    reset and averaged cumulatively (momentum None) over the batches, then each layer's
    momentum and the model's training mode are restored, as PyTorch's update_bn."""
    from ..nn.modules.batchnorm import _BatchNorm

    momenta = {}
    for module in model.modules():
        if isinstance(module, _BatchNorm):
            module.reset_running_stats()
            momenta[module] = module.momentum
    if not momenta:
        return
    was_training = model.training
    model.train()
    for module in momenta:
        module.momentum = None
    for batch in loader:
        if isinstance(batch, (list, tuple)):
            batch = batch[0]
        if device is not None:
            batch = batch.to(device)
        model(batch)
    for module, momentum in momenta.items():
        module.momentum = momentum
    model.train(was_training)
