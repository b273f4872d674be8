"""The `foreach=True` and `fused=True` steps of SGD, Adam and AdamW, as PyTorch's
`_multi_tensor_sgd` / `_multi_tensor_adam` (a few `_foreach_*` calls over the group's lists)
and `_fused_sgd` / `_fused_adam` (one `_fused_*_` call). The foreach paths give the
single-tensor loop's values bit for bit; a dispatch mode sees PyTorch's _foreach sequence.
"""

from __future__ import annotations

from typing import Any

import keyroute as _kr

from .._ops import ops
from . import _common

__all__ = ["sgd_foreach", "sgd_fused", "adam_foreach", "adam_fused"]

_A = ops.aten


def sgd_foreach(params: list[Any], bufs: list[Any], group: dict[str, Any]) -> list[Any]:
    """Updates `params`; returns the momentum buffers (new ones where a buffer was None)."""
    lr, momentum, dampening = group["lr"], group["momentum"], group["dampening"]
    wd, nesterov, maximize = group["weight_decay"], group["nesterov"], group["maximize"]
    grads = [p.grad for p in params]
    if maximize:
        grads = _A._foreach_neg.default(grads)
    if wd != 0:
        if maximize:
            _A._foreach_add_.List(grads, params, alpha=wd)
        else:
            grads = _A._foreach_add.List(grads, params, alpha=wd)
    if momentum != 0:
        if all(b is not None for b in bufs):
            _A._foreach_mul_.Scalar(bufs, momentum)
            _A._foreach_add_.List(bufs, grads, alpha=1 - dampening)
        else:
            bufs = list(bufs)
            for i, b in enumerate(bufs):
                if b is None:
                    bufs[i] = _kr.clone(grads[i]).detach()
                else:
                    b.mul_(momentum).add_(grads[i], alpha=1 - dampening)
        if nesterov:
            # PyTorch's foreach path adds into the gradient list in place
            _A._foreach_add_.List(grads, bufs, alpha=momentum)
        else:
            grads = bufs
    _A._foreach_add_.List(params, grads, alpha=-lr)
    return bufs


def sgd_fused(params: list[Any], bufs: list[Any], group: dict[str, Any]) -> list[Any]:
    momentum = group["momentum"]
    grads = [p.grad for p in params]
    first = False
    if momentum != 0:
        first = all(b is None for b in bufs)
        bufs = [_kr.empty_like(g) if b is None else b for b, g in zip(bufs, grads)]
    _A._fused_sgd_.default(
        params,
        grads,
        [] if momentum == 0 else bufs,
        weight_decay=group["weight_decay"],
        momentum=momentum,
        lr=group["lr"],
        dampening=group["dampening"],
        nesterov=group["nesterov"],
        maximize=group["maximize"],
        is_first_step=first,
    )
    return bufs


def _adam_lists(opt: Any, params: list[Any]) -> tuple[list[Any], ...]:
    st = [opt.state[p] for p in params]
    maxs = [s["max_exp_avg_sq"] for s in st] if "max_exp_avg_sq" in st[0] else []
    return (
        [p.grad for p in params],
        [s["exp_avg"] for s in st],
        [s["exp_avg_sq"] for s in st],
        maxs,
        [s["step"] for s in st],
    )


def adam_foreach(opt: Any, params: list[Any], group: dict[str, Any]) -> None:
    beta1, beta2 = group["betas"]
    lr, eps, wd = group["lr"], group["eps"], group["weight_decay"]
    amsgrad, maximize = group["amsgrad"], group["maximize"]
    grads, exp_avgs, exp_avg_sqs, maxs, steps = _adam_lists(opt, params)
    if maximize:
        grads = _A._foreach_neg.default(grads)
    compiling = _common.compiling()
    if compiling:
        _A._foreach_add_.Scalar(steps, 1)
    else:  # PyTorch on CPU: _foreach_add_(steps, torch.tensor(1.0), alpha=1.0)
        _A._foreach_add_.Tensor(steps, _kr.tensor(1.0), alpha=1.0)
    if wd != 0:
        if group["decoupled_weight_decay"]:
            _A._foreach_mul_.Scalar(params, 1 - lr * wd)
        elif maximize:
            _A._foreach_add_.List(grads, params, alpha=wd)
        else:
            grads = _A._foreach_add.List(grads, params, alpha=wd)
    _A._foreach_lerp_.Scalar(exp_avgs, grads, 1 - beta1)
    _A._foreach_mul_.Scalar(exp_avg_sqs, beta2)
    _A._foreach_addcmul_.Scalar(exp_avg_sqs, grads, grads, 1 - beta2)
    if compiling:
        # dynamo traces opt.step with capturable=True: the bias corrections stay tensors
        # PyTorch: _foreach_pow(beta, steps) (ScalarAndTensor), an operator keyroute lacks:
        # one pow.Scalar per step (known gap optim/adam_foreach_pow)
        bc1 = [beta1**s for s in steps]
        bc2 = [beta2**s for s in steps]
        _A._foreach_sub_.Scalar(bc1, 1)
        _A._foreach_sub_.Scalar(bc2, 1)
        _A._foreach_neg_.default(bc2)
        _A._foreach_div_.Scalar(bc1, lr)
        _A._foreach_reciprocal_.default(bc1)
        _A._foreach_sqrt_.default(bc2)
        if amsgrad:
            _A._foreach_maximum_.List(maxs, exp_avg_sqs)
            denom = _A._foreach_sqrt.default(maxs)
        else:
            denom = _A._foreach_sqrt.default(exp_avg_sqs)
        _A._foreach_div_.List(denom, bc2)
        _A._foreach_add_.Scalar(denom, eps)
        _A._foreach_div_.List(denom, bc1)
        _A._foreach_addcdiv_.Scalar(params, exp_avgs, denom)
        return
    bc1 = [1 - beta1 ** s.item() for s in steps]
    bc2 = [1 - beta2 ** s.item() for s in steps]
    step_size = [(lr / b) * -1 for b in bc1]
    bc2_sqrt = [b**0.5 for b in bc2]
    if amsgrad:
        _A._foreach_maximum_.List(maxs, exp_avg_sqs)
        denom = _A._foreach_sqrt.default(maxs)
    else:
        denom = _A._foreach_sqrt.default(exp_avg_sqs)
    _A._foreach_div_.ScalarList(denom, bc2_sqrt)
    _A._foreach_add_.Scalar(denom, eps)
    _A._foreach_addcdiv_.ScalarList(params, exp_avgs, denom, step_size)


def adam_fused(opt: Any, params: list[Any], group: dict[str, Any]) -> None:
    beta1, beta2 = group["betas"]
    grads, exp_avgs, exp_avg_sqs, maxs, steps = _adam_lists(opt, params)
    _A._foreach_add_.Scalar(steps, 1)
    fn = _A._fused_adamw_ if group["decoupled_weight_decay"] else _A._fused_adam_
    fn.default(
        params,
        grads,
        exp_avgs,
        exp_avg_sqs,
        maxs,
        steps,
        lr=group["lr"],
        beta1=beta1,
        beta2=beta2,
        weight_decay=group["weight_decay"],
        eps=group["eps"],
        amsgrad=group["amsgrad"],
        maximize=group["maximize"],
    )
