"""Learning-rate schedulers (torch.optim.lr_scheduler) with PyTorch's chainable update rules.

Each scheduler's `get_lr()` computes the next rates from the optimizer's current ones (the
"chainable" form, so several schedulers can act on one optimizer); `step(epoch)` with an
explicit epoch uses the closed form where one exists, with PyTorch's deprecation warning. The
float arithmetic follows PyTorch's expressions term by term, so the printed rates are PyTorch's.
As in PyTorch, creating a scheduler wraps `optimizer.step` to notice the call order and warns
when `scheduler.step()` comes first, and `get_lr()` called outside `step()` warns too.
"""

from __future__ import annotations

import math
import types
import warnings
import weakref
from bisect import bisect_right
from collections import Counter
from collections.abc import Callable, Iterable
from functools import wraps
from typing import Any

from ..tensor._tensor import Tensor
from .optimizer import Optimizer

__all__ = [
    "LambdaLR",
    "MultiplicativeLR",
    "StepLR",
    "MultiStepLR",
    "ConstantLR",
    "LinearLR",
    "ExponentialLR",
    "SequentialLR",
    "CosineAnnealingLR",
    "ChainedScheduler",
    "ReduceLROnPlateau",
    "CyclicLR",
    "CosineAnnealingWarmRestarts",
    "OneCycleLR",
    "PolynomialLR",
    "LRScheduler",
]

EPOCH_DEPRECATION_WARNING = (
    "The epoch parameter in `scheduler.step()` was not necessary and is being "
    "deprecated where possible. Please use `scheduler.step()` to step the "
    "scheduler. During the deprecation, if epoch is different from None, the "
    "closed form is used instead of the new chainable form, where available. "
    "Please open an issue if you are unable to replicate your use case: "
    "https://github.com/pytorch/pytorch/issues/new/choose."
)
_ORDER_URL = "https://pytorch.org/docs/stable/optim.html#how-to-adjust-learning-rate"


def _values(optimizer: Optimizer, key: str) -> list[Any]:
    """Every param group's `key` (a Tensor value is cloned, as PyTorch's copies)."""
    return [
        g[key].clone() if isinstance(g[key], Tensor) else g[key] for g in optimizer.param_groups
    ]


def _set(group: dict[str, Any], key: str, val: Any) -> None:
    """A Tensor hyper-parameter is filled in place (so a captured lr tensor stays valid)."""
    if isinstance(group[key], Tensor):
        group[key].fill_(val.item() if isinstance(val, Tensor) else val)
    else:
        group[key] = val


def _per_group(name: str, optimizer: Optimizer, param: Any) -> list[Any]:
    """A hyper-parameter given once or per param group, as a list with one value per group."""
    if isinstance(param, (list, tuple)):
        if len(param) != len(optimizer.param_groups):
            raise ValueError(
                f"{name} must have the same length as optimizer.param_groups. {name} has "
                f"{len(param)} values, param_groups has {len(optimizer.param_groups)}."
            )
    else:
        param = [param] * len(optimizer.param_groups)
    return [p.clone() if isinstance(p, Tensor) else p for p in param]


def _check_optimizer(optimizer: Any) -> None:
    if not isinstance(optimizer, Optimizer):
        raise TypeError(f"{type(optimizer).__name__} is not an Optimizer")


class _flag:
    """Sets a boolean attribute of a scheduler for the duration of a with-block."""

    def __init__(self, owner: Any, name: str) -> None:
        self.owner, self.name = owner, name

    def __enter__(self) -> None:
        setattr(self.owner, self.name, True)

    def __exit__(self, *exc: Any) -> None:
        setattr(self.owner, self.name, False)


def _warn_get_lr_outside_step(s: LRScheduler) -> None:
    if not s._get_lr_called_within_step:
        warnings.warn(
            "To get the last learning rate computed by the scheduler, please use `get_last_lr()`.",
            UserWarning,
            stacklevel=3,
        )


def _wrap_optimizer_step(scheduler: LRScheduler) -> None:
    """Wrap optimizer.step (once per optimizer) to record that it was called, so the first
    scheduler.step() can warn when it comes before it."""
    opt = scheduler.optimizer
    if hasattr(opt.step, "_wrapped_by_lr_sched"):
        return
    opt_ref = weakref.ref(opt)
    func = opt.step.__func__

    @wraps(func)
    def wrapper(*args: Any, **kwargs: Any) -> Any:
        o = opt_ref()
        o._opt_called = True  # type: ignore[union-attr]
        return func.__get__(o, o.__class__)(*args, **kwargs)

    wrapper._wrapped_by_lr_sched = True  # type: ignore[attr-defined]
    opt.step = wrapper  # type: ignore[method-assign]


class LRScheduler:
    """Base class: tracks last_epoch, base_lrs (the groups' initial_lr) and the last rates."""

    _get_lr_called_within_step: bool = False
    _is_initial: bool = False

    def __init__(self, optimizer: Optimizer, last_epoch: int = -1) -> None:
        _check_optimizer(optimizer)
        self.optimizer = optimizer
        if last_epoch == -1:
            for group in optimizer.param_groups:
                lr = group["lr"]
                group.setdefault("initial_lr", lr.clone() if isinstance(lr, Tensor) else lr)
        else:
            for i, group in enumerate(optimizer.param_groups):
                if "initial_lr" not in group:
                    raise KeyError(
                        f"param 'initial_lr' is not specified in param_groups[{i}] when resuming "
                        "scheduler with last_epoch >= 0.\nThis typically happens when:\n1. "
                        "You're trying to resume training from a checkpoint but haven't properly "
                        "loaded the optimizer state\n2. You're using last_epoch >= 0 for a fresh "
                        "training run (not recommended)"
                    )
        self.base_lrs: list[Any] = _values(optimizer, "initial_lr")
        self.last_epoch = last_epoch
        _wrap_optimizer_step(self)
        self._initial_step()

    def _initial_step(self) -> None:
        self._step_count = 0
        with _flag(self, "_is_initial"):
            self.step()

    def state_dict(self) -> dict[str, Any]:
        return {k: v for k, v in self.__dict__.items() if k != "optimizer"}

    def load_state_dict(self, state_dict: dict[str, Any]) -> None:
        self.__dict__.update(state_dict)

    def get_last_lr(self) -> list[Any]:
        return self._last_lr

    def get_lr(self) -> list[Any]:
        raise NotImplementedError

    def step(self, epoch: int | None = None) -> None:
        if self._step_count == 1:
            if not hasattr(self.optimizer.step, "_wrapped_by_lr_sched"):
                warnings.warn(
                    "Seems like `optimizer.step()` has been overridden after learning rate "
                    "scheduler initialization. Please, make sure to call `optimizer.step()` "
                    f"before `lr_scheduler.step()`. See more details at {_ORDER_URL}",
                    UserWarning,
                    stacklevel=2,
                )
            elif not getattr(self.optimizer, "_opt_called", False):
                warnings.warn(
                    "Detected call of `lr_scheduler.step()` before `optimizer.step()`. In "
                    "PyTorch 1.1.0 and later, you should call them in the opposite order: "
                    "`optimizer.step()` before `lr_scheduler.step()`.  Failure to do this will "
                    "result in PyTorch skipping the first value of the learning rate schedule. "
                    f"See more details at {_ORDER_URL}",
                    UserWarning,
                    stacklevel=2,
                )
        self._step_count += 1
        if epoch is not None:
            warnings.warn(EPOCH_DEPRECATION_WARNING, UserWarning, stacklevel=2)
        self._update_lr(epoch)

    def _update_lr(self, epoch: int | None = None) -> None:
        with _flag(self, "_get_lr_called_within_step"):
            if epoch is None:
                self.last_epoch += 1
                values = self.get_lr()
            else:
                self.last_epoch = epoch
                closed = getattr(self, "_get_closed_form_lr", None)
                values = closed() if closed is not None else self.get_lr()
        for group, lr in zip(self.optimizer.param_groups, values):
            _set(group, "lr", lr)
        self._last_lr = _values(self.optimizer, "lr")


_LRScheduler = LRScheduler  # PyTorch's old name


def _lambdas(optimizer: Optimizer, lr_lambda: Any) -> list[Callable[[int], float]]:
    if not isinstance(lr_lambda, (list, tuple)):
        return [lr_lambda] * len(optimizer.param_groups)
    if len(lr_lambda) != len(optimizer.param_groups):
        raise ValueError(
            f"Expected {len(optimizer.param_groups)} lr_lambdas, but got {len(lr_lambda)}"
        )
    return list(lr_lambda)


class _LambdaState:
    """state_dict of LambdaLR / MultiplicativeLR: plain functions are not saved; callable
    objects save their __dict__."""

    lr_lambdas: list[Callable[[int], float]]

    def state_dict(self) -> dict[str, Any]:
        sd = {k: v for k, v in self.__dict__.items() if k not in ("optimizer", "lr_lambdas")}
        sd["lr_lambdas"] = [
            None if isinstance(fn, types.FunctionType) else fn.__dict__.copy()
            for fn in self.lr_lambdas
        ]
        return sd

    def load_state_dict(self, state_dict: dict[str, Any]) -> None:
        lambdas = state_dict.pop("lr_lambdas")
        self.__dict__.update(state_dict)
        state_dict["lr_lambdas"] = lambdas
        for fn, saved in zip(self.lr_lambdas, lambdas):
            if saved is not None:
                fn.__dict__.update(saved)


class LambdaLR(_LambdaState, LRScheduler):
    """lr = initial_lr * lr_lambda(epoch)."""

    def __init__(self, optimizer: Optimizer, lr_lambda: Any, last_epoch: int = -1) -> None:
        self.optimizer = optimizer
        self.lr_lambdas = _lambdas(optimizer, lr_lambda)
        super().__init__(optimizer, last_epoch)

    def get_lr(self) -> list[Any]:
        _warn_get_lr_outside_step(self)
        return [base * fn(self.last_epoch) for fn, base in zip(self.lr_lambdas, self.base_lrs)]


class MultiplicativeLR(_LambdaState, LRScheduler):
    """lr *= lr_lambda(epoch) at every step after the first."""

    def __init__(self, optimizer: Optimizer, lr_lambda: Any, last_epoch: int = -1) -> None:
        self.optimizer = optimizer
        self.lr_lambdas = _lambdas(optimizer, lr_lambda)
        for fn in self.lr_lambdas:
            if not callable(fn):
                raise TypeError(f"lr_lambda should be a function, but got {type(fn).__name__}")
        super().__init__(optimizer, last_epoch)

    def get_lr(self) -> list[Any]:
        _warn_get_lr_outside_step(self)
        if self._is_initial:
            return _values(self.optimizer, "lr")
        return [
            g["lr"] * fn(self.last_epoch)
            for fn, g in zip(self.lr_lambdas, self.optimizer.param_groups)
        ]


class StepLR(LRScheduler):
    """lr *= gamma every step_size epochs."""

    def __init__(
        self, optimizer: Optimizer, step_size: int, gamma: float = 0.1, last_epoch: int = -1
    ) -> None:
        self.step_size = step_size
        self.gamma = gamma
        super().__init__(optimizer, last_epoch)

    def get_lr(self) -> list[Any]:
        _warn_get_lr_outside_step(self)
        if self.last_epoch == 0 or self.last_epoch % self.step_size != 0:
            return _values(self.optimizer, "lr")
        return [g["lr"] * self.gamma for g in self.optimizer.param_groups]

    def _get_closed_form_lr(self) -> list[Any]:
        return [b * self.gamma ** (self.last_epoch // self.step_size) for b in self.base_lrs]


class MultiStepLR(LRScheduler):
    """lr *= gamma at each milestone (a milestone given twice multiplies by gamma**2)."""

    def __init__(
        self,
        optimizer: Optimizer,
        milestones: Iterable[int],
        gamma: float = 0.1,
        last_epoch: int = -1,
    ) -> None:
        self.milestones = Counter(milestones)
        self.gamma = gamma
        super().__init__(optimizer, last_epoch)

    def get_lr(self) -> list[Any]:
        _warn_get_lr_outside_step(self)
        if self.last_epoch not in self.milestones:
            return _values(self.optimizer, "lr")
        k = self.milestones[self.last_epoch]
        return [g["lr"] * self.gamma**k for g in self.optimizer.param_groups]

    def _get_closed_form_lr(self) -> list[Any]:
        ms = sorted(self.milestones.elements())
        return [b * self.gamma ** bisect_right(ms, self.last_epoch) for b in self.base_lrs]


class ConstantLR(LRScheduler):
    """lr = initial_lr * factor until total_iters, then initial_lr."""

    def __init__(
        self,
        optimizer: Optimizer,
        factor: float = 1.0 / 3,
        total_iters: int = 5,
        last_epoch: int = -1,
    ) -> None:
        if factor > 1.0 or factor < 0:
            raise ValueError("Constant multiplicative factor expected to be between 0 and 1.")
        self.factor = factor
        self.total_iters = total_iters
        super().__init__(optimizer, last_epoch)

    def get_lr(self) -> list[Any]:
        _warn_get_lr_outside_step(self)
        if self.last_epoch == 0:
            return [g["lr"] * self.factor for g in self.optimizer.param_groups]
        if self.last_epoch != self.total_iters:
            return _values(self.optimizer, "lr")
        return [g["lr"] * (1.0 / self.factor) for g in self.optimizer.param_groups]

    def _get_closed_form_lr(self) -> list[Any]:
        on = self.last_epoch >= self.total_iters
        return [b * (self.factor + on * (1 - self.factor)) for b in self.base_lrs]


class LinearLR(LRScheduler):
    """The factor moves linearly from start_factor to end_factor over total_iters."""

    def __init__(
        self,
        optimizer: Optimizer,
        start_factor: float = 1.0 / 3,
        end_factor: float = 1.0,
        total_iters: int = 5,
        last_epoch: int = -1,
    ) -> None:
        if start_factor > 1.0 or start_factor <= 0:
            raise ValueError(
                "Starting multiplicative factor expected to be greater than 0 and less or "
                "equal to 1."
            )
        if end_factor > 1.0 or end_factor < 0:
            raise ValueError("Ending multiplicative factor expected to be between 0 and 1.")
        self.start_factor = start_factor
        self.end_factor = end_factor
        self.total_iters = total_iters
        super().__init__(optimizer, last_epoch)

    def get_lr(self) -> list[Any]:
        _warn_get_lr_outside_step(self)
        if self.last_epoch == 0:
            return [g["lr"] * self.start_factor for g in self.optimizer.param_groups]
        if self._is_initial or self.last_epoch > self.total_iters:
            return _values(self.optimizer, "lr")
        d = self.end_factor - self.start_factor
        ratio = 1.0 + d / (self.total_iters * self.start_factor + (self.last_epoch - 1) * d)
        return [g["lr"] * ratio for g in self.optimizer.param_groups]

    def _get_closed_form_lr(self) -> list[Any]:
        d = self.end_factor - self.start_factor
        t = min(self.total_iters, self.last_epoch)
        return [b * (self.start_factor + d * t / self.total_iters) for b in self.base_lrs]


class ExponentialLR(LRScheduler):
    """lr *= gamma every epoch."""

    def __init__(self, optimizer: Optimizer, gamma: float, last_epoch: int = -1) -> None:
        self.gamma = gamma
        super().__init__(optimizer, last_epoch)

    def get_lr(self) -> list[Any]:
        _warn_get_lr_outside_step(self)
        if self._is_initial:
            return _values(self.optimizer, "lr")
        return [g["lr"] * self.gamma for g in self.optimizer.param_groups]

    def _get_closed_form_lr(self) -> list[Any]:
        return [b * self.gamma**self.last_epoch for b in self.base_lrs]


class PolynomialLR(LRScheduler):
    """lr = initial_lr * (1 - t / total_iters) ** power."""

    def __init__(
        self,
        optimizer: Optimizer,
        total_iters: int = 5,
        power: float = 1.0,
        last_epoch: int = -1,
    ) -> None:
        self.total_iters = total_iters
        self.power = power
        super().__init__(optimizer, last_epoch)

    def get_lr(self) -> list[Any]:
        _warn_get_lr_outside_step(self)
        if self._is_initial or self.last_epoch > self.total_iters:
            return _values(self.optimizer, "lr")
        t, n = self.last_epoch, self.total_iters
        decay = ((1.0 - t / n) / (1.0 - (t - 1) / n)) ** self.power
        return [g["lr"] * decay for g in self.optimizer.param_groups]

    def _get_closed_form_lr(self) -> list[Any]:
        t = min(self.total_iters, self.last_epoch)
        return [b * (1.0 - t / self.total_iters) ** self.power for b in self.base_lrs]


class CosineAnnealingLR(LRScheduler):
    """Cosine annealing from initial_lr to eta_min over T_max epochs (and back)."""

    def __init__(
        self, optimizer: Optimizer, T_max: int, eta_min: float = 0.0, last_epoch: int = -1
    ) -> None:  # noqa: N803 - PyTorch's argument name
        self.T_max = T_max
        self.eta_min = eta_min
        super().__init__(optimizer, last_epoch)

    def get_lr(self) -> list[Any]:
        _warn_get_lr_outside_step(self)
        e, t_max, lo = self.last_epoch, self.T_max, self.eta_min
        if self._is_initial:
            return _values(self.optimizer, "lr")
        if self._step_count == 1 and e > 0:
            return [lo + (b - lo) * (1 + math.cos(e * math.pi / t_max)) / 2 for b in self.base_lrs]
        if (e - 1 - t_max) % (2 * t_max) == 0:
            return [
                g["lr"] + (b - lo) * (1 - math.cos(math.pi / t_max)) / 2
                for b, g in zip(self.base_lrs, self.optimizer.param_groups)
            ]
        ratio = (1 + math.cos(math.pi * e / t_max)) / (1 + math.cos(math.pi * (e - 1) / t_max))
        return [ratio * (g["lr"] - lo) + lo for g in self.optimizer.param_groups]

    def _get_closed_form_lr(self) -> list[Any]:
        e, lo = self.last_epoch, self.eta_min
        return [lo + (b - lo) * (1 + math.cos(math.pi * e / self.T_max)) / 2 for b in self.base_lrs]


from ._schedulers_composite import (  # noqa: E402 - they subclass LRScheduler
    ChainedScheduler,
    CosineAnnealingWarmRestarts,
    CyclicLR,
    OneCycleLR,
    ReduceLROnPlateau,
    SequentialLR,
)
