"""`_fused_sgd_`, `_fused_adam_`, `_fused_adamw_`: the operators torch.optim's `fused=True`
paths call, one call per step over the whole parameter list (PyTorch's CPU kernels
FusedSGDKernel / FusedAdamKernel). The arithmetic is theirs: the gradient is read, never
written, and the parameter update is `param - step_size * exp_avg / denom` (not addcdiv),
so results can differ from the single-tensor loop in the last bit, as PyTorch's do.
"""

from __future__ import annotations

import math
from typing import Any

from ._define import composite_explicit
from .foreach_ops import _check
from .linalg import op

__all__: list[str] = []

_OPT = "Tensor? grad_scale=None, Tensor? found_inf=None"


def _grads(grads: Any, maximize: bool, grad_scale: Any) -> list[Any]:
    gs = list(grads)
    if grad_scale is not None:
        gs = [op("div.Tensor")(g, grad_scale) for g in gs]
    return [op("neg")(g) for g in gs] if maximize else gs


def _skip(found_inf: Any) -> bool:
    return found_inf is not None and bool(found_inf.item())


@composite_explicit(
    "_fused_sgd_(Tensor(a!)[] self, Tensor(b!)[] grads, Tensor(c!)[] momentum_buffer_list, *, "
    "float weight_decay, float momentum, float lr, float dampening, bool nesterov, "
    f"bool maximize, bool is_first_step, {_OPT}) -> ()"
)
def _fused_sgd_(
    self,
    grads,
    momentum_buffer_list,
    *,
    weight_decay,
    momentum,
    lr,
    dampening,
    nesterov,
    maximize,
    is_first_step,
    grad_scale=None,
    found_inf=None,
):
    _check(self, grads)
    if momentum != 0:
        _check(self, momentum_buffer_list)
    if _skip(found_inf):
        return
    for i, (p, g) in enumerate(zip(self, _grads(grads, maximize, grad_scale))):
        if weight_decay != 0:
            g = op("add.Tensor")(g, op("mul.Scalar")(p, weight_decay))
        if momentum != 0:
            buf = momentum_buffer_list[i]
            if is_first_step:
                op("copy_")(buf, g)
            else:
                scaled = op("mul.Scalar")(g, 1 - dampening)
                op("add_.Tensor")(op("mul_.Scalar")(buf, momentum), scaled)
            if nesterov:
                g = op("add.Tensor")(g, op("mul.Scalar")(buf, momentum))
            else:
                g = buf
        op("sub_.Tensor")(p, op("mul.Scalar")(g, lr))


def _adam(
    adamw,
    self,
    grads,
    exp_avgs,
    exp_avg_sqs,
    max_exp_avg_sqs,
    state_steps,
    lr,
    beta1,
    beta2,
    weight_decay,
    eps,
    amsgrad,
    maximize,
    grad_scale,
    found_inf,
):
    _check(self, grads, exp_avgs, exp_avg_sqs, state_steps)
    if amsgrad:
        _check(self, max_exp_avg_sqs)
    if _skip(found_inf):
        return
    gs = _grads(grads, maximize, grad_scale)
    for i, (p, g) in enumerate(zip(self, gs)):
        m, v = exp_avgs[i], exp_avg_sqs[i]
        if weight_decay != 0:
            if adamw:
                op("sub_.Tensor")(p, op("mul.Scalar")(p, lr * weight_decay))
            else:
                g = op("add.Tensor")(g, op("mul.Scalar")(p, weight_decay))
        op("lerp_.Scalar")(m, g, 1 - beta1)
        op("add_.Tensor")(
            op("mul_.Scalar")(v, beta2), op("mul.Scalar")(op("mul.Tensor")(g, g), 1 - beta2)
        )
        step = state_steps[i].item()
        step_size = lr / (1 - beta1**step)
        bc2_sqrt = math.sqrt(1 - beta2**step)
        if amsgrad:
            mx = max_exp_avg_sqs[i]
            op("maximum.out")(mx, v, out=mx)
            v = mx
        denom = op("add.Scalar")(op("div.Scalar")(op("sqrt")(v), bc2_sqrt), eps)
        op("sub_.Tensor")(p, op("div.Tensor")(op("mul.Scalar")(m, step_size), denom))


_ADAM = (
    "(Tensor(a!)[] self, Tensor(b!)[] grads, Tensor(c!)[] exp_avgs, Tensor(d!)[] exp_avg_sqs, "
    "Tensor(e!)[] max_exp_avg_sqs, Tensor[] state_steps, *, float lr, float beta1, float beta2, "
    f"float weight_decay, float eps, bool amsgrad, bool maximize, {_OPT}) -> ()"
)


@composite_explicit("_fused_adam_" + _ADAM)
def _fused_adam_(self, grads, exp_avgs, exp_avg_sqs, max_exp_avg_sqs, state_steps, **kw):
    _adam(False, self, grads, exp_avgs, exp_avg_sqs, max_exp_avg_sqs, state_steps, **_kw(kw))


@composite_explicit("_fused_adamw_" + _ADAM)
def _fused_adamw_(self, grads, exp_avgs, exp_avg_sqs, max_exp_avg_sqs, state_steps, **kw):
    _adam(True, self, grads, exp_avgs, exp_avg_sqs, max_exp_avg_sqs, state_steps, **_kw(kw))


def _kw(kw: dict[str, Any]) -> dict[str, Any]:
    kw.setdefault("grad_scale", None)
    kw.setdefault("found_inf", None)
    return kw
