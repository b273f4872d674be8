"""Derivatives of huber_loss, smooth_l1_loss and their backward operators (aten/nn/smooth_loss.py),
as derivatives.yaml and FunctionsManual.cpp write them: the loss's gradient is its backward
operator (target's with self and target swapped); the backward operator's own gradient is the
double-backward helpers (grad * [|self - target| < delta] for self, minus that for target, and
for grad_output the backward operator applied to grad)."""

from __future__ import annotations

from typing import Any

from ._registry import aten, derivative


@derivative("huber_loss", "HuberLossBackward0", save=("self", "target", "reduction", "delta"))
def _huber(grad, self, target, reduction, delta, needs):
    bw = aten.huber_loss_backward.default
    g_self = bw(grad, self, target, reduction, delta) if needs[0] else None
    g_target = bw(grad, target, self, reduction, delta) if needs[1] else None
    return g_self, g_target


@derivative("smooth_l1_loss", "SmoothL1LossBackward0", save=("self", "target", "reduction", "beta"))
def _smooth_l1(grad, self, target, reduction, beta, needs):
    bw = aten.smooth_l1_loss_backward.default
    g_self = bw(grad, self, target, reduction, beta) if needs[0] else None
    g_target = bw(grad, target, self, reduction, beta) if needs[1] else None
    return g_self, g_target


def _double_backward_grad_output(
    bw: Any, grad: Any, grad_output: Any, self: Any, target: Any, reduction: int, param: float
) -> Any:
    """{huber,smooth_l1}_loss_double_backward_grad_output."""
    if reduction == 0:
        return bw(grad, self, target, reduction, param)
    r = bw(aten.ones_like.default(grad_output), self, target, reduction, param)
    return aten.sum.default(aten.mul.Tensor(r, grad))


def _mean_scale(g: Any, self: Any, reduction: int) -> Any:
    return aten.div.Scalar(g, self.numel()) if reduction == 1 else g


@derivative(
    "huber_loss_backward",
    "HuberLossBackwardBackward0",
    save=("grad_output", "self", "target", "reduction", "delta"),
)
def _huber_backward(grad, grad_output, self, target, reduction, delta, needs):
    g_go = g_self = g_target = None
    if needs[0]:
        bw = aten.huber_loss_backward.default
        g_go = _double_backward_grad_output(bw, grad, grad_output, self, target, reduction, delta)
    if needs[1] or needs[2]:
        # huber_loss_double_backward(grad * grad_output, self, target, reduction, delta)
        gg = aten.mul.Tensor(grad, grad_output)
        d = aten.abs.default(aten.sub.Tensor(self, target))
        dd = _mean_scale(aten.mul.Tensor(gg, aten.lt.Scalar(d, delta)), self, reduction)
        g_self = dd if needs[1] else None
        if needs[2]:
            g_target = aten.neg.default(dd)
    return g_go, g_self, g_target


@derivative(
    "smooth_l1_loss_backward",
    "SmoothL1LossBackwardBackward0",
    save=("grad_output", "self", "target", "reduction", "beta"),
)
def _smooth_l1_backward(grad, grad_output, self, target, reduction, beta, needs):
    g_go = g_self = g_target = None
    if needs[0]:
        bw = aten.smooth_l1_loss_backward.default
        g_go = _double_backward_grad_output(bw, grad, grad_output, self, target, reduction, beta)
    if needs[1] or needs[2]:
        # smooth_l1_loss_double_backward(grad * grad_output, self, target, reduction, beta)
        gg = aten.mul.Tensor(grad, grad_output)
        if beta == 0:  # PyTorch's guard against a division by zero
            dd = aten.zeros.default(list(gg.shape), dtype=gg.dtype, device=gg.device)
        else:
            d = aten.abs.default(aten.sub.Tensor(self, target))
            mask = aten._to_copy.default(aten.lt.Scalar(d, beta), dtype=gg.dtype)
            dd = aten.div.Scalar(aten.mul.Tensor(gg, mask), beta)
            dd = _mean_scale(dd, self, reduction)
        g_self = dd if needs[1] else None
        if needs[2]:
            g_target = aten.neg.default(dd)
    return g_go, g_self, g_target
