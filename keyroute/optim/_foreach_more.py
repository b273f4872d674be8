"""The `foreach=True` steps of RMSprop, Adagrad, Adadelta, Adamax, NAdam, RAdam, ASGD and
Rprop, as PyTorch's
`_multi_tensor_<name>` functions (CPU, capturable=False): per (device, dtype) group of the
parameters, a few `_foreach_*` calls over the lists, with the per-parameter scalars (bias
corrections, step sizes) computed in Python from `step.item()` in PyTorch's order of
operations. PyTorch's CPU foreach operators run the per-tensor operators, so the values are
those of its foreach path bit for bit; a dispatch mode sees its `_foreach_*` sequence.
(SGD, Adam and AdamW: optim/_foreach.py.)
"""

from __future__ import annotations

from typing import Any

import keyroute as _kr

from .._ops import ops
from . import _common as c

__all__ = ["adadelta", "adagrad", "adamax", "asgd", "nadam", "radam", "rmsprop", "rprop"]

_A = ops.aten


def _groups(params: list[Any]) -> list[list[Any]]:
    """PyTorch's _group_tensors_by_device_and_dtype: the parameters by (device, dtype), each
    group in parameter order, groups in order of first appearance."""
    groups: dict[tuple[str, Any], list[Any]] = {}
    for p in params:
        groups.setdefault((str(p.device), p.dtype), []).append(p)
    return list(groups.values())


def _state(opt: Any, ps: list[Any], key: str) -> list[Any]:
    return [opt.state[p][key] for p in ps]


def _bump(steps: list[Any]) -> None:
    # PyTorch on CPU: one wrapped 1.0 for the whole list, the Tensor overload with alpha
    _A._foreach_add_.Tensor(steps, _kr.tensor(1.0), alpha=1.0)


def _decay(grads: list[Any], ps: list[Any], wd: float, maximize: bool) -> list[Any]:
    """The weight-decay term: into the negated gradients (already a new list) when maximize,
    else into a new list."""
    if maximize:
        _A._foreach_add_.List(grads, ps, alpha=wd)
        return grads
    return _A._foreach_add.List(grads, ps, alpha=wd)


def rmsprop(opt: Any, params: list[Any], group: dict[str, Any]) -> None:
    lr, alpha, eps = c.to_scalar(group["lr"]), group["alpha"], group["eps"]
    wd, momentum, maximize = group["weight_decay"], group["momentum"], group["maximize"]
    for ps in _groups(params):
        grads = [p.grad for p in ps]
        square_avgs = _state(opt, ps, "square_avg")
        if maximize:
            grads = _A._foreach_neg.default(grads)
        _bump(_state(opt, ps, "step"))
        if wd != 0:
            grads = _decay(grads, ps, wd, maximize)
        _A._foreach_mul_.Scalar(square_avgs, alpha)
        _A._foreach_addcmul_.Scalar(square_avgs, grads, grads, value=1 - alpha)
        if group["centered"]:
            grad_avgs = _state(opt, ps, "grad_avg")
            _A._foreach_lerp_.Scalar(grad_avgs, grads, 1 - alpha)
            avg = _A._foreach_addcmul.Scalar(square_avgs, grad_avgs, grad_avgs, value=-1)
            _A._foreach_sqrt_.default(avg)
        else:
            avg = _A._foreach_sqrt.default(square_avgs)
        _A._foreach_add_.Scalar(avg, eps)
        if momentum > 0:
            bufs = _state(opt, ps, "momentum_buffer")
            _A._foreach_mul_.Scalar(bufs, momentum)
            _A._foreach_addcdiv_.Scalar(bufs, grads, avg)
            _A._foreach_add_.List(ps, bufs, alpha=-lr)
        else:
            _A._foreach_addcdiv_.Scalar(ps, grads, avg, value=-lr)


def adagrad(opt: Any, params: list[Any], group: dict[str, Any]) -> None:
    lr, wd, lr_decay = c.to_scalar(group["lr"]), group["weight_decay"], group["lr_decay"]
    eps, maximize = group["eps"], group["maximize"]
    for ps in _groups(params):
        grads = [p.grad for p in ps]
        if any(g.is_sparse for g in grads):
            raise NotImplementedError("Adagrad with sparse gradients is not supported by keyroute")
        sums, steps = _state(opt, ps, "sum"), _state(opt, ps, "step")
        if maximize:
            grads = _A._foreach_neg.default(grads)
        _bump(steps)
        if wd != 0:
            grads = _decay(grads, ps, wd, maximize)
        minus_clr = [-lr / (1 + (c.value(s) - 1) * lr_decay) for s in steps]
        _A._foreach_addcmul_.Scalar(sums, grads, grads, value=1)
        std = _A._foreach_sqrt.default(sums)
        _A._foreach_add_.Scalar(std, eps)
        if wd != 0 or maximize:  # grads is already a list of its own: scale it in place
            _A._foreach_mul_.ScalarList(grads, minus_clr)
            numerator = grads
        else:
            numerator = _A._foreach_mul.ScalarList(grads, minus_clr)
        _A._foreach_addcdiv_.Scalar(ps, numerator, std)


def adadelta(opt: Any, params: list[Any], group: dict[str, Any]) -> None:
    lr, rho, eps = c.to_scalar(group["lr"]), group["rho"], group["eps"]
    wd, maximize = group["weight_decay"], group["maximize"]
    for ps in _groups(params):
        grads = [p.grad for p in ps]
        square_avgs, acc_deltas = _state(opt, ps, "square_avg"), _state(opt, ps, "acc_delta")
        _bump(_state(opt, ps, "step"))
        if maximize:
            grads = _A._foreach_neg.default(grads)
        if wd != 0:
            grads = _decay(grads, ps, wd, maximize)
        _A._foreach_mul_.Scalar(square_avgs, rho)
        _A._foreach_addcmul_.Scalar(square_avgs, grads, grads, value=1 - rho)
        std = _A._foreach_add.Scalar(square_avgs, eps)
        _A._foreach_sqrt_.default(std)
        deltas = _A._foreach_add.Scalar(acc_deltas, eps)
        _A._foreach_sqrt_.default(deltas)
        _A._foreach_div_.List(deltas, std)
        _A._foreach_mul_.List(deltas, grads)
        _A._foreach_mul_.Scalar(acc_deltas, rho)
        _A._foreach_addcmul_.Scalar(acc_deltas, deltas, deltas, value=1 - rho)
        _A._foreach_add_.List(ps, deltas, alpha=-lr)


def adamax(opt: Any, params: list[Any], group: dict[str, Any]) -> None:
    (beta1, beta2), lr = group["betas"], c.to_scalar(group["lr"])
    eps, wd, maximize = group["eps"], group["weight_decay"], group["maximize"]
    for ps in _groups(params):
        grads = [p.grad for p in ps]
        exp_avgs, exp_infs = _state(opt, ps, "exp_avg"), _state(opt, ps, "exp_inf")
        steps = _state(opt, ps, "step")
        if maximize:
            grads = _A._foreach_neg.default(grads)
        _bump(steps)
        if wd != 0:
            grads = _decay(grads, ps, wd, maximize)
        _A._foreach_lerp_.Scalar(exp_avgs, grads, 1 - beta1)
        _A._foreach_mul_.Scalar(exp_infs, beta2)
        if not maximize and wd == 0:  # grads are the parameters' own .grad: a new list
            grads = _A._foreach_abs.default(grads)
        else:
            _A._foreach_abs_.default(grads)
        _A._foreach_add_.Scalar(grads, eps)
        _A._foreach_maximum_.List(exp_infs, grads)
        bias_corrections = [1 - beta1 ** c.value(s) for s in steps]
        step_size = [(lr / bc) * -1 for bc in bias_corrections]
        _A._foreach_addcdiv_.ScalarList(ps, exp_avgs, exp_infs, step_size)


def nadam(opt: Any, params: list[Any], group: dict[str, Any]) -> None:
    (beta1, beta2), lr = group["betas"], c.to_scalar(group["lr"])
    eps, wd, md = group["eps"], group["weight_decay"], group["momentum_decay"]
    maximize = group["maximize"]
    for ps in _groups(params):
        grads = [p.grad for p in ps]
        exp_avgs, exp_avg_sqs = _state(opt, ps, "exp_avg"), _state(opt, ps, "exp_avg_sq")
        mu_products, steps = _state(opt, ps, "mu_product"), _state(opt, ps, "step")
        if maximize:
            grads = _A._foreach_neg.default(grads)
        _bump(steps)
        if wd != 0:
            if group["decoupled_weight_decay"]:
                _A._foreach_mul_.Scalar(ps, 1 - lr * wd)
            else:
                grads = _decay(grads, ps, wd, maximize)
        _A._foreach_lerp_.Scalar(exp_avgs, grads, 1 - beta1)
        _A._foreach_mul_.Scalar(exp_avg_sqs, beta2)
        _A._foreach_addcmul_.Scalar(exp_avg_sqs, grads, grads, 1 - beta2)
        exp_avg_sq_sqrt = _A._foreach_sqrt.default(exp_avg_sqs)
        vals = [c.value(s) for s in steps]
        bias_correction_sqrt = [(1 - beta2**s) ** 0.5 for s in vals]
        mus = [beta1 * (1.0 - 0.5 * (0.96 ** (s * md))) for s in vals]
        mu_nexts = [beta1 * (1.0 - 0.5 * (0.96 ** ((s + 1) * md))) for s in vals]
        _A._foreach_mul_.ScalarList(mu_products, mus)
        _A._foreach_div_.ScalarList(exp_avg_sq_sqrt, bias_correction_sqrt)
        _A._foreach_add_.Scalar(exp_avg_sq_sqrt, eps)
        step_size_grads = [
            (lr * (1.0 - mu) / (1.0 - c.value(mp))) * -1 for mp, mu in zip(mu_products, mus)
        ]
        step_size_expavg = [
            (lr * mu_next / (1.0 - c.value(mp) * mu_next)) * -1
            for mp, mu_next in zip(mu_products, mu_nexts)
        ]
        _A._foreach_addcdiv_.ScalarList(ps, grads, exp_avg_sq_sqrt, step_size_grads)
        _A._foreach_addcdiv_.ScalarList(ps, exp_avgs, exp_avg_sq_sqrt, step_size_expavg)


def radam(opt: Any, params: list[Any], group: dict[str, Any]) -> None:
    (beta1, beta2), lr = group["betas"], c.to_scalar(group["lr"])
    eps, wd, maximize = group["eps"], group["weight_decay"], group["maximize"]
    for ps in _groups(params):
        grads = [p.grad for p in ps]
        exp_avgs, exp_avg_sqs = _state(opt, ps, "exp_avg"), _state(opt, ps, "exp_avg_sq")
        steps = _state(opt, ps, "step")
        _bump(steps)
        if maximize:
            grads = _A._foreach_neg.default(grads)
        rho_inf = 2 / (1 - beta2) - 1
        vals = [c.value(s) for s in steps]
        rho_t_list = [rho_inf - 2 * s * (beta2**s) / (1 - beta2**s) for s in vals]
        if wd != 0:
            if group["decoupled_weight_decay"]:
                _A._foreach_mul_.Scalar(ps, 1 - lr * wd)
            else:
                grads = _decay(grads, ps, wd, maximize)
        _A._foreach_lerp_.Scalar(exp_avgs, grads, 1 - beta1)
        _A._foreach_mul_.Scalar(exp_avg_sqs, beta2)
        _A._foreach_addcmul_.Scalar(exp_avg_sqs, grads, grads, 1 - beta2)
        rect = [
            ((rho_t - 4) * (rho_t - 2) * rho_inf / ((rho_inf - 4) * (rho_inf - 2) * rho_t)) ** 0.5
            if rho_t > 5
            else 0
            for rho_t in rho_t_list
        ]
        unrectified = [0 if r > 0 else 1.0 for r in rect]
        bias_correction1 = [1 - beta1**s for s in vals]
        unrect_step_size = [(lr * r / bc) * -1 for r, bc in zip(unrectified, bias_correction1)]
        bias_correction2 = [
            ((1 - beta2**s) ** 0.5) * (lr * r / bc) * -1
            for s, r, bc in zip(vals, rect, bias_correction1)
        ]
        buffer = _A._foreach_sqrt.default(exp_avg_sqs)
        _A._foreach_add_.Scalar(buffer, eps)
        _A._foreach_div_.ScalarList(buffer, bias_correction2)
        _A._foreach_reciprocal_.default(buffer)
        _A._foreach_add_.ScalarList(buffer, unrect_step_size)
        _A._foreach_addcmul_.Scalar(ps, exp_avgs, buffer)


def asgd(opt: Any, params: list[Any], group: dict[str, Any]) -> None:
    lr, lambd, alpha = c.to_scalar(group["lr"]), group["lambd"], group["alpha"]
    t0, wd, maximize = group["t0"], group["weight_decay"], group["maximize"]
    for ps in _groups(params):
        grads = [p.grad for p in ps]
        axs, mus, etas = _state(opt, ps, "ax"), _state(opt, ps, "mu"), _state(opt, ps, "eta")
        steps = _state(opt, ps, "step")
        if maximize:
            grads = _A._foreach_neg.default(grads)
        _bump(steps)
        if wd != 0:
            intermediate = _decay(grads, ps, wd, maximize)
            _A._foreach_add_.List(intermediate, ps, alpha=lambd)
        else:
            intermediate = _A._foreach_add.List(grads, ps, alpha=lambd)
        _A._foreach_addcmul_.Scalar(ps, intermediate, etas, value=-1)
        intermediate = _A._foreach_sub.List(ps, axs)
        _A._foreach_addcmul_.Scalar(axs, intermediate, mus)
        # PyTorch's foreach path computes eta from the step TENSOR (float32 tensor arithmetic:
        # mul, add, pow, then lr / t as reciprocal * lr), mu from its Python value
        device = ps[0].device
        new_etas = [
            _kr.as_tensor(lr / ((1 + lambd * lr * s) ** alpha), device=device) for s in steps
        ]
        new_mus = [_kr.as_tensor(1 / max(1, c.value(s) - t0), device=device) for s in steps]
        _A._foreach_copy_.default(etas, new_etas)
        _A._foreach_copy_.default(mus, new_mus)


def rprop(opt: Any, params: list[Any], group: dict[str, Any]) -> None:
    etaminus, etaplus = group["etas"]
    step_size_min, step_size_max = group["step_sizes"]
    maximize = group["maximize"]
    for ps in _groups(params):
        grads = [p.grad for p in ps]
        prevs, step_sizes = _state(opt, ps, "prev"), _state(opt, ps, "step_size")
        _bump(_state(opt, ps, "step"))
        signs = _A._foreach_mul.List(grads, prevs)
        if maximize:
            _A._foreach_neg_.default(signs)
        # prev becomes this step's (negated when maximize) gradient, and is updated below
        _A._foreach_copy_.default(prevs, grads)
        if maximize:
            _A._foreach_neg_.default(prevs)
        grads = prevs
        _A._foreach_sign_.default(signs)
        for sign in signs:
            sign[sign.gt(0)] = etaplus
            sign[sign.lt(0)] = etaminus
            sign[sign.eq(0)] = 1
        _A._foreach_mul_.List(step_sizes, signs)
        for step_size in step_sizes:
            step_size.clamp_(step_size_min, step_size_max)
        for g, sign in zip(grads, signs):
            g.copy_(_kr.where(sign.eq(etaminus), 0, g))
        grad_signs = [g.sign() for g in grads]
        _A._foreach_addcmul_.Scalar(ps, grad_signs, step_sizes, value=-1)
