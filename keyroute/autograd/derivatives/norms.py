"""Derivative formulas of the normalisation operators (aten/norms.py): each calls the backward
operator PyTorch's formula calls (native_batch_norm_backward, native_group_norm_backward),
so a dispatch mode sees the same backward pass."""

from __future__ import annotations

from ..._ops import ops
from ._registry import derivative

aten = ops.aten

_BN_SAVE = ("input", "weight", "running_mean", "running_var", "result1", "result2", "eps")


def _bn_backward(grads, input, weight, rm, rv, save_mean, save_invstd, training, eps, needs):  # noqa: A002
    grad = grads[0]
    if grad is None:
        return None, None, None
    mask = [bool(needs[0]), bool(needs[1]), bool(needs[2])]
    return aten.native_batch_norm_backward.default(
        grad, input, weight, rm, rv, save_mean, save_invstd, training, eps, mask
    )


@derivative(
    "native_batch_norm",
    "NativeBatchNormBackward0",
    inputs=("input", "weight", "bias"),
    n_outputs=3,
    save=(*_BN_SAVE, "training"),
    no_grad=("running_mean", "running_var"),
)
def _native_batch_norm(
    grads, input, weight, running_mean, running_var, result1, result2, eps, training, needs
):  # noqa: A002
    return _bn_backward(
        grads, input, weight, running_mean, running_var, result1, result2, training, eps, needs
    )


@derivative(
    "_native_batch_norm_legit",
    "NativeBatchNormLegitBackward0",
    inputs=("input", "weight", "bias"),
    n_outputs=3,
    save=(*_BN_SAVE, "training"),
    no_grad=("running_mean", "running_var"),
)
def _legit(grads, input, weight, running_mean, running_var, result1, result2, eps, training, needs):  # noqa: A002
    return _bn_backward(
        grads, input, weight, running_mean, running_var, result1, result2, training, eps, needs
    )


@derivative(
    "_native_batch_norm_legit.no_stats",
    "NativeBatchNormLegitBackward1",
    inputs=("input", "weight", "bias"),
    n_outputs=3,
    save=("input", "weight", "result1", "result2", "eps", "training"),
)
def _legit_no_stats(grads, input, weight, result1, result2, eps, training, needs):  # noqa: A002
    return _bn_backward(grads, input, weight, None, None, result1, result2, training, eps, needs)


@derivative(
    "_native_batch_norm_legit_no_training",
    "NativeBatchNormLegitNoTrainingBackward0",
    inputs=("input", "weight", "bias"),
    n_outputs=3,
    save=(*_BN_SAVE,),
    no_grad=("running_mean", "running_var"),
)
def _legit_no_training(
    grads, input, weight, running_mean, running_var, result1, result2, eps, needs
):  # noqa: A002
    return _bn_backward(
        grads, input, weight, running_mean, running_var, result1, result2, False, eps, needs
    )


@derivative(
    "native_group_norm",
    "NativeGroupNormBackward0",
    inputs=("input", "weight", "bias"),
    n_outputs=3,
    outputs=(0, 1, 2),
    save=("input", "weight", "N", "C", "HxW", "group", "result1", "result2"),
)
def _native_group_norm(grads, input, weight, N, C, HxW, group, result1, result2, needs):  # noqa: A002
    grad, g_mean, g_rstd = (tuple(grads) + (None, None))[:3]
    mask = [bool(needs[0]), bool(needs[1]), bool(needs[2])]
    if grad is None:
        g_in = g_w = g_b = None
    else:
        g_in, g_w, g_b = aten.native_group_norm_backward.default(
            aten.contiguous.default(grad), input, result1, result2, weight, N, C, HxW, group, mask
        )
    if needs[0] and (g_mean is not None or g_rstd is not None):
        # The mean and rstd outputs are differentiable too (PyTorch switches to its
        # infinitely differentiable formula when their gradients are defined):
        # d mean/dx = 1/m, d rstd/dx = -rstd^3 (x - mean)/m over each group of m elements.
        m = (C // group) * HxW
        x = aten.reshape.default(input, [N, group, m])
        extra = None
        if g_mean is not None:
            extra = aten.div.Scalar(aten.unsqueeze.default(g_mean, -1), m)
        if g_rstd is not None:
            centered = aten.sub.Tensor(x, aten.unsqueeze.default(result1, -1))
            coef = aten.div.Scalar(aten.mul.Tensor(g_rstd, aten.pow.Tensor_Scalar(result2, 3)), -m)
            term = aten.mul.Tensor(centered, aten.unsqueeze.default(coef, -1))
            extra = term if extra is None else aten.add.Tensor(extra, term)
        extra = aten.reshape.default(aten.expand.default(extra, [N, group, m]), list(input.shape))
        g_in = extra if g_in is None else aten.add.Tensor(g_in, extra)
    return g_in, g_w, g_b
