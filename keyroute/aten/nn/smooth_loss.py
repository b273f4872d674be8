"""The smooth regression losses and KL divergence as PyTorch's operators (Loss.cpp):
huber_loss and smooth_l1_loss are backend operators with backward operators of their own
(huber_loss_backward, smooth_l1_loss_backward), so autocast's fp32 list and a dispatch mode see
one call, not its parts; kl_div is PyTorch's CompositeImplicitAutograd decomposition. Kernels in
kernels/cpu/smooth_loss.py, derivatives in autograd/derivatives/smooth_loss.py."""

from __future__ import annotations

from ...tensor._tensor import Tensor
from .._define import composite, meta
from .._meta_util import check, elementwise, new_meta
from .._promotion import result_type
from ..linalg import op

__all__: list[str] = []


def _loss_meta(self: Tensor, target: Tensor, reduction: int, dt: object) -> Tensor:
    out = elementwise(self, target, dt=dt)
    return out if reduction == 0 else new_meta((), out._dtype)


@meta("huber_loss(Tensor self, Tensor target, int reduction=1, float delta=1.0) -> Tensor")
def huber_loss(self, target, reduction=1, delta=1.0):
    check(delta > 0, "huber_loss does not support non-positive values for delta.")
    # PyTorch's output is empty_like(self): the loss keeps self's dtype.
    return _loss_meta(self, target, reduction, self._dtype)


@meta("smooth_l1_loss(Tensor self, Tensor target, int reduction=1, float beta=1.0) -> Tensor")
def smooth_l1_loss(self, target, reduction=1, beta=1.0):
    check(beta >= 0, "smooth_l1_loss does not support negative values for beta.")
    # A structured TensorIterator op: the promoted dtype of self and target.
    return _loss_meta(self, target, reduction, result_type(self, target))


@meta(
    "huber_loss_backward(Tensor grad_output, Tensor self, Tensor target, int reduction, "
    "float delta) -> Tensor"
)
def huber_loss_backward(grad_output, self, target, reduction, delta):
    return elementwise(self, target, dt=self._dtype)


@meta(
    "smooth_l1_loss_backward(Tensor grad_output, Tensor self, Tensor target, int reduction, "
    "float beta) -> Tensor"
)
def smooth_l1_loss_backward(grad_output, self, target, reduction, beta):
    return elementwise(self, target, dt=self._dtype)


def _apply_reduction(loss: Tensor, reduction: int) -> Tensor:
    if reduction == 1:
        return op("mean")(loss)
    if reduction == 2:
        return op("sum")(loss)
    return loss


@composite(
    "kl_div(Tensor self, Tensor target, int reduction=1, *, bool log_target=False) -> Tensor"
)
def kl_div(self, target, reduction=1, *, log_target=False):
    check(
        not self._dtype.is_complex and not target._dtype.is_complex,
        "kl_div: Complex inputs not supported.",
    )
    check(
        self._dtype.is_floating_point and target._dtype.is_floating_point,
        "kl_div: Integral inputs not supported.",
    )
    # PyTorch's C++ evaluates a product's right operand first: a dispatch mode sees
    # sub before exp, and mul before xlogy.
    if log_target:
        diff = op("sub.Tensor")(target, self)
        loss = op("mul.Tensor")(op("exp")(target), diff)
    else:
        cross = op("mul.Tensor")(target, self)
        loss = op("sub.Tensor")(op("xlogy.Tensor")(target, target), cross)
    return _apply_reduction(loss, reduction)
