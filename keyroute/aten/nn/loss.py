"""Loss operators: nll_loss(2d)_forward, mse_loss, binary_cross_entropy(_with_logits) (meta
functions) and the nll_loss/nll_loss_nd/cross_entropy_loss/l1_loss decompositions."""

from __future__ import annotations

from typing import Any

from ...tensor._tensor import Tensor
from ...tensor.dtype import int64, uint8
from .._define import composite, meta
from .._meta_util import check, new_meta, shape_of
from .._variants import out_variant, same_dtype
from ..linalg import op, subclass_like
from ._common import _not_implemented

# ----------------------------------------------------------------------------- losses


def _nll_target_check(target: Tensor) -> None:
    if target._dtype is not int64 and target._dtype is not uint8:
        raise RuntimeError(
            f"expected target dtype to be Long or Byte, but got {target._dtype._short}"
        )


@meta(
    "nll_loss_forward(Tensor self, Tensor target, Tensor? weight, int reduction, SymInt "
    "ignore_index) -> (Tensor output, Tensor total_weight)"
)
def nll_loss_forward_meta(self, target, weight, reduction, ignore_index):
    nll_loss_forward_check(self, target, weight)
    if reduction == 0 and self.dim() == 2:
        out = new_meta((shape_of(self)[0],), self._dtype)
    else:
        out = new_meta((), self._dtype)
    return out, new_meta((), self._dtype)


def nll_loss_forward_check(self: Any, target: Any, weight: Any) -> None:
    """nll_loss_forward's argument checks, in PyTorch's order (the CPU kernel runs these, not
    the whole meta function: cross_entropy reaches it every training step). Messages are
    built only for a failing check."""
    shape, tshape = shape_of(self), shape_of(target)
    nd, tnd = len(shape), len(tshape)
    check(0 < nd <= 2, "input tensor should be 1D or 2D")
    check(tnd <= 1, "0D or 1D target tensor expected, multi-target not supported")
    if nd == 1 and tnd == 1:
        if tshape[0] != 1:
            raise ValueError(
                f"For 1D input, 1D target must have size 1, but got target size: {tshape[0]}"
            )
    elif (nd != 1 or tnd != 0) and shape[0] != tshape[0]:
        raise RuntimeError(f"size mismatch (got input: {list(shape)}, target: {list(tshape)})")
    if weight is not None and not (weight.dim() == 1 and weight.numel() == shape[-1]):
        raise RuntimeError(
            f"weight tensor should be defined either for all {shape[-1]} classes or no classes "
            f"but got weight tensor of shape: {list(shape_of(weight))}"
        )
    _nll_target_check(target)
    if self._dtype.category != 2:
        _not_implemented("nll_loss_out_frame", self._dtype)


@meta(
    "nll_loss2d_forward(Tensor self, Tensor target, Tensor? weight, int reduction, SymInt "
    "ignore_index) -> (Tensor output, Tensor total_weight)"
)
def nll_loss2d_forward_meta(self, target, weight, reduction, ignore_index):
    check(
        target.dim() == 3,
        f"only batches of spatial targets supported (3D tensors) but got targets of dimension: "
        f"{target.dim()}",
    )
    check(
        self.dim() == 4,
        f"only batches of spatial inputs supported (4D tensors), but got input of dimension: "
        f"{self.dim()}",
    )
    n_classes = shape_of(self)[1]
    check(
        weight is None or weight.numel() == n_classes,
        f"weight tensor should be defined either for all {n_classes} classes or no classes but "
        f"got weight tensor of shape: {list(shape_of(weight)) if weight is not None else []}",
    )
    s, t = shape_of(self), shape_of(target)
    check(
        s[0] == t[0] and s[2] == t[1] and s[3] == t[2],
        f"size mismatch (got input: {list(s)} , target: {list(t)}",
    )
    _nll_target_check(target)
    if self._dtype.category != 2:
        _not_implemented("nll_loss2d_forward_out_frame", self._dtype)
    out = new_meta(t, self._dtype) if reduction == 0 else new_meta((), self._dtype)
    return out, new_meta((), self._dtype)


out_variant(
    "nll_loss_forward.output(Tensor self, Tensor target, Tensor? weight, int reduction, SymInt "
    "ignore_index, *, Tensor(a!) output, Tensor(b!) total_weight) -> (Tensor(a!), Tensor(b!))",
    "nll_loss_forward",
    ("output", "total_weight"),
    check=same_dtype,
)
out_variant(
    "nll_loss2d_forward.output(Tensor self, Tensor target, Tensor? weight, int reduction, SymInt "
    "ignore_index, *, Tensor(a!) output, Tensor(b!) total_weight) -> (Tensor(a!), Tensor(b!))",
    "nll_loss2d_forward",
    ("output", "total_weight"),
    check=same_dtype,
)


@composite(
    "nll_loss(Tensor self, Tensor target, Tensor? weight=None, int reduction=1, SymInt "
    "ignore_index=-100) -> Tensor"
)
def nll_loss(self, target, weight=None, reduction=1, ignore_index=-100):
    return op("nll_loss_forward")(self, target, weight, reduction, ignore_index)[0]


@composite(
    "nll_loss2d(Tensor self, Tensor target, Tensor? weight=None, int reduction=1, SymInt "
    "ignore_index=-100) -> Tensor"
)
def nll_loss2d(self, target, weight=None, reduction=1, ignore_index=-100):
    return op("nll_loss2d_forward")(self, target, weight, reduction, ignore_index)[0]


@composite(
    "nll_loss_nd(Tensor self, Tensor target, Tensor? weight=None, int reduction=1, SymInt "
    "ignore_index=-100) -> Tensor"
)
def nll_loss_nd(self, target, weight=None, reduction=1, ignore_index=-100):
    check(self.dim() >= 1, f"Expected 1 or more dimensions (got {self.dim()})", ValueError)
    s, t = shape_of(self), shape_of(target)
    if self.dim() != 1 and (not t or s[0] != t[0]):
        raise ValueError(
            f"Expected input batch_size ({s[0]}) to match target batch_size ({t[0] if t else 0})."
        )
    if self.dim() in (1, 2):
        return op("nll_loss")(self, target, weight, reduction, ignore_index)
    if self.dim() == 4:
        return op("nll_loss2d")(self, target, weight, reduction, ignore_index)
    n, c = s[0], s[1]
    out_size = [n, *s[2:]]
    if list(t[1:]) != list(s[2:]):
        raise RuntimeError(f"Expected target size {out_size}, got {list(t)}")
    inp = op("contiguous")(self)
    tgt = op("contiguous")(target)
    inp = op("view")(inp, [n, c, 1, -1] if inp.numel() > 0 else [n, c, 0, 0])
    tgt = op("view")(tgt, [n, 1, -1] if tgt.numel() > 0 else [n, 0, 0])
    ret = op("nll_loss2d")(inp, tgt, weight, reduction, ignore_index)
    if reduction == 0:
        ret = op("view")(ret, out_size)
    return ret


def _weight_view(weight: Tensor, ndim: int, class_dim: int) -> Tensor:
    shape = [1] * ndim
    shape[class_dim] = shape_of(weight)[0]
    return op("view")(weight, shape)


def _ce_prob_target(self, target, weight, reduction, label_smoothing):
    class_dim = 0 if self.dim() == 1 else 1
    n_classes = shape_of(self)[class_dim]
    check(
        weight is None or (weight.dim() == 1 and weight.numel() == n_classes),
        f"cross_entropy: weight tensor should be defined either for all {n_classes} classes or "
        f"no classes but got weight tensor of shape: "
        f"{list(shape_of(weight)) if weight is not None else []}",
    )
    inp = op("log_softmax.int")(self, class_dim, self._dtype)
    if label_smoothing > 0.0:
        check(
            label_smoothing <= 1.0,
            f"label_smoothing must be between 0.0 and 1.0. Got: {label_smoothing}",
        )
        target = op("add.Scalar")(
            op("mul.Scalar")(target, 1 - label_smoothing), label_smoothing / n_classes
        )
    w = None
    if weight is not None:
        w = _weight_view(weight, inp.dim(), 1) if inp.dim() > 1 else weight
    prod = op("mul.Tensor")(inp, target)
    if w is not None:
        prod = op("mul.Tensor")(prod, w)
    if reduction == 1:
        if inp.numel() == 0:
            return op("fill_.Scalar")(op("neg")(op("sum")(prod)), float("nan"))
        return op("div.Scalar")(op("neg")(op("sum")(prod)), inp.numel() // n_classes)
    if reduction == 2:
        return op("neg")(op("sum")(prod))
    if reduction == 0:
        return op("neg")(op("sum.dim_IntList")(prod, [class_dim]))
    raise RuntimeError(f"Invalid reduction type encountered in cross_entropy: {reduction}")


def _ce_label_smoothing(self, target, weight, reduction, ignore_index, label_smoothing):
    class_dim = 0 if self.dim() == 1 else 1
    inp = op("log_softmax.int")(self, class_dim, self._dtype)
    nllloss = op("nll_loss_nd")(inp, target, weight, reduction, ignore_index)
    n_classes = shape_of(inp)[class_dim]
    if weight is not None:
        w = _weight_view(weight, inp.dim(), class_dim)
        smooth = op("neg")(op("sum.dim_IntList")(op("mul.Tensor")(inp, w), [class_dim]))
    else:
        smooth = op("neg")(op("sum.dim_IntList")(inp, [class_dim]))
    ignore_mask = op("eq.Scalar")(target, ignore_index)
    op("masked_fill_.Scalar")(smooth, ignore_mask, 0.0)
    if reduction == 1:
        if weight is not None:
            if subclass_like(weight):
                filtered = op("masked_fill.Scalar")(target, ignore_mask, 0)
                tgt_w = op("gather")(weight, 0, op("flatten.using_ints")(filtered))
                wsum = op("sum")(
                    op("masked_fill_.Scalar")(tgt_w, op("flatten.using_ints")(ignore_mask), 0)
                )
            else:
                kept = op("masked_select")(target, op("bitwise_not")(ignore_mask))
                wsum = op("sum")(op("gather")(weight, 0, op("flatten.using_ints")(kept)))
            ret = op("div.Tensor")(op("sum")(smooth), wsum)
        else:
            true_mask = op("bitwise_not")(ignore_mask)
            ret = op("div.Tensor")(op("sum")(smooth), op("sum")(true_mask))
    elif reduction == 2:
        ret = op("sum")(smooth)
    elif reduction == 0:
        ret = smooth
    else:
        raise RuntimeError(f"Invalid reduction type encountered in cross_entropy: {reduction}")
    return op("add.Tensor")(
        op("mul.Scalar")(nllloss, 1 - label_smoothing),
        op("mul.Scalar")(ret, label_smoothing / n_classes),
    )


@composite(
    "cross_entropy_loss(Tensor self, Tensor target, Tensor? weight=None, int reduction=1, SymInt "
    "ignore_index=-100, float label_smoothing=0.) -> Tensor"
)
def cross_entropy_loss(
    self, target, weight=None, reduction=1, ignore_index=-100, label_smoothing=0.0
):
    if shape_of(self) == shape_of(target):
        check(
            target._dtype.category == 2,
            f"Expected floating point type for target with class probabilities, got "
            f"{target._dtype._short}",
        )
        check(ignore_index < 0, "ignore_index is not supported for floating point target")
        return _ce_prob_target(self, target, weight, reduction, label_smoothing)
    if label_smoothing > 0.0:
        check(
            label_smoothing <= 1.0,
            f"label_smoothing must be between 0.0 and 1.0. Got: {label_smoothing}",
        )
        return _ce_label_smoothing(self, target, weight, reduction, ignore_index, label_smoothing)
    class_dim = 0 if self.dim() == 1 else 1
    return op("nll_loss_nd")(
        op("log_softmax.int")(self, class_dim, self._dtype),
        target,
        weight,
        reduction,
        ignore_index,
    )


@meta("mse_loss(Tensor self, Tensor target, int reduction=1) -> Tensor")
def mse_loss(self, target, reduction=1):
    from .._meta_util import elementwise

    out = elementwise(self, target)
    if reduction == 0:
        return out
    return new_meta((), out._dtype)


out_variant(
    "mse_loss.out(Tensor self, Tensor target, int reduction=1, *, Tensor(a!) out) -> Tensor(a!)",
    "mse_loss",
)


@composite("l1_loss(Tensor self, Tensor target, int reduction=1) -> Tensor")
def l1_loss(self, target, reduction=1):
    loss = op("abs")(op("sub.Tensor")(self, target))
    if reduction == 1:
        return op("mean")(loss)
    if reduction == 2:
        return op("sum")(loss)
    return loss


@meta(
    "binary_cross_entropy_with_logits(Tensor self, Tensor target, Tensor? weight=None, Tensor? "
    "pos_weight=None, int reduction=1) -> Tensor"
)
def binary_cross_entropy_with_logits(self, target, weight=None, pos_weight=None, reduction=1):
    from .._meta_util import elementwise

    out = elementwise(self, target, *(t for t in (weight, pos_weight) if t is not None))
    if reduction == 0:
        return out
    return new_meta((), out._dtype)


@meta(
    "binary_cross_entropy(Tensor self, Tensor target, Tensor? weight=None, int reduction=1) -> "
    "Tensor"
)
def binary_cross_entropy(self, target, weight=None, reduction=1):
    from .._meta_util import elementwise

    out = elementwise(self, target, *(() if weight is None else (weight,)), dt=self._dtype)
    if self._dtype.category != 2:
        _not_implemented("binary_cross_entropy", self._dtype)
    if reduction == 0:
        return out
    return new_meta((), self._dtype)


out_variant(
    "binary_cross_entropy.out(Tensor self, Tensor target, Tensor? weight=None, int reduction=1, "
    "*, Tensor(a!) out) -> Tensor(a!)",
    "binary_cross_entropy",
    check=same_dtype,
)
