"""Derivative formulas of the normalisation operators (aten/norms.py): each calls the backward
operator PyTorch's formula calls (native_batch_norm_backward, native_group_norm_backward),
so a dispatch mode sees the same backward pass."""

from __future__ import annotations

from ..._ops import ops
from ._registry import derivative

A = ops.aten

_BN_SAVE = ("input", "weight", "running_mean", "running_var", "result1", "result2", "eps")


def _bn_backward(grads, input, weight, rm, rv, save_mean, save_invstd, training, eps, needs):  # noqa: A002
    grad = grads[0]
    if grad is None:
        return None, None, None
    mask = [bool(needs[0]), bool(needs[1]), bool(needs[2])]
    return A.native_batch_norm_backward.default(
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
    grad = grads[0]
    if grad is None:
        return None, None, None
    mask = [bool(needs[0]), bool(needs[1]), bool(needs[2])]
    return A.native_group_norm_backward.default(
        A.contiguous.default(grad), input, result1, result2, weight, N, C, HxW, group, mask
    )
