"""torch.nn.functional's remaining losses and distances, as PyTorch computes them: each
elementwise loss from public operators, then the reduction ('none', 'mean', 'sum'; the legacy
size_average/reduce flags map to one, with PyTorch's warning). PyTorch's C++ composites
(cosine_embedding_loss, margin_ranking_loss, hinge_embedding_loss, triplet_margin_loss,
poisson_nll_loss, pairwise_distance) decompose the same way; kl_div and cosine_similarity are
aten composites, smooth_l1_loss and huber_loss aten operators (aten/nn/smooth_loss.py,
aten/products.py), so autocast's lists and a dispatch mode see them as PyTorch's; soft_margin_loss
is a backend operator in PyTorch (its backward operator is not in a dispatch log here)."""

from __future__ import annotations

import math
import warnings
from collections.abc import Callable
from typing import Any

from ..._api import creation as _creation
from ...aten.linalg import op as _op
from ...autograd.grad_mode import no_grad
from ...tensor._tensor import Tensor
from .. import _reduction

__all__ = [
    "smooth_l1_loss",
    "huber_loss",
    "kl_div",
    "poisson_nll_loss",
    "gaussian_nll_loss",
    "cosine_embedding_loss",
    "margin_ranking_loss",
    "hinge_embedding_loss",
    "soft_margin_loss",
    "triplet_margin_loss",
    "triplet_margin_with_distance_loss",
    "multilabel_soft_margin_loss",
    "multi_margin_loss",
    "ctc_loss",
    "multilabel_margin_loss",
    "pairwise_distance",
    "cosine_similarity",
    "pdist",
]


def _size_warning(input: Tensor, target: Tensor) -> None:  # noqa: A002
    if target.size() != input.size():
        warnings.warn(
            f"Using a target size ({target.size()}) that is different to the input size "
            f"({input.size()}). This will likely lead to incorrect results due to "
            "broadcasting. Please ensure they have the same size.",
            stacklevel=3,
        )


def _broadcast(input: Tensor, target: Tensor) -> tuple[Tensor, Tensor]:  # noqa: A002
    x, y = _op("broadcast_tensors")([input, target])
    return x, y


def smooth_l1_loss(
    input: Tensor,  # noqa: A002
    target: Tensor,
    size_average: bool | None = None,
    reduce: bool | None = None,
    reduction: str = "mean",
    beta: float = 1.0,
) -> Tensor:
    """0.5 z^2 / beta where |z| < beta, else |z| - 0.5 beta (z = input - target): the
    aten::smooth_l1_loss operator (aten::l1_loss for beta 0), as PyTorch's."""
    _size_warning(input, target)
    reduction = _reduction.resolve(size_average, reduce, reduction)
    x, y = _broadcast(input, target)
    if beta == 0.0:
        return _op("l1_loss")(x, y, _reduction.get_enum(reduction))
    return _op("smooth_l1_loss")(x, y, _reduction.get_enum(reduction), beta)


def huber_loss(
    input: Tensor,  # noqa: A002
    target: Tensor,
    reduction: str = "mean",
    delta: float = 1.0,
    weight: Tensor | None = None,
) -> Tensor:
    """0.5 z^2 where |z| < delta, else delta (|z| - 0.5 delta): the aten::huber_loss operator;
    with `weight`, its unreduced loss weighted and reduced in Python, as PyTorch's."""
    _size_warning(input, target)
    x, y = _broadcast(input, target)
    if weight is None:
        return _op("huber_loss")(x, y, _reduction.get_enum(reduction), delta)
    if weight.size() != input.size():
        raise ValueError("Weights and input must have the same size.")
    loss = _op("huber_loss")(x, y, 0, delta) * weight
    if reduction == "none":
        return loss
    if reduction == "sum":
        return loss.sum()
    if reduction == "mean":
        return loss.mean()
    raise ValueError(f"Invalid reduction mode: {reduction}. Expected one of 'none', 'mean', 'sum'.")


def kl_div(
    input: Tensor,  # noqa: A002
    target: Tensor,
    size_average: bool | None = None,
    reduce: bool | None = None,
    reduction: str = "mean",
    log_target: bool = False,
) -> Tensor:
    """Kullback-Leibler divergence of target from input (input as log-probabilities): the
    aten::kl_div decomposition, 'batchmean' as its sum divided by the batch size."""
    if size_average is not None or reduce is not None:
        reduction_enum = _reduction.get_enum(_reduction.resolve(size_average, reduce, reduction))
    else:
        if reduction == "mean":
            warnings.warn(
                "reduction: 'mean' divides the total loss by both the batch size and the "
                "support size.'batchmean' divides only by the batch size, and aligns with the KL "
                "div math definition.'mean' will be changed to behave the same as 'batchmean' in "
                "the next major release.",
                stacklevel=2,
            )
        reduction_enum = _reduction.get_enum("sum" if reduction == "batchmean" else reduction)
    reduced = _op("kl_div")(input, target, reduction_enum, log_target=log_target)
    if reduction == "batchmean" and input.dim() != 0:
        reduced = reduced / input.size()[0]
    return reduced


def poisson_nll_loss(
    input: Tensor,  # noqa: A002
    target: Tensor,
    log_input: bool = True,
    full: bool = False,
    size_average: bool | None = None,
    eps: float = 1e-8,
    reduce: bool | None = None,
    reduction: str = "mean",
) -> Tensor:
    """Poisson negative log likelihood (Stirling's term with full=True)."""
    reduction = _reduction.resolve(size_average, reduce, reduction)
    if reduction not in ("none", "mean", "sum"):
        raise ValueError(reduction + " is not a valid value for reduction")
    loss = input.exp() - target * input if log_input else input - target * (input + eps).log()
    if full:
        stirling = target * target.log() - target + (target * (2 * math.pi)).log() * 0.5
        loss = loss + stirling.masked_fill(target <= 1, 0)
    return _reduction.apply(loss, reduction)


def gaussian_nll_loss(
    input: Tensor,  # noqa: A002
    target: Tensor,
    var: Tensor | float,
    full: bool = False,
    eps: float = 1e-6,
    reduction: str = "mean",
) -> Tensor:
    """Gaussian negative log likelihood with predicted variance var."""
    if not isinstance(var, Tensor):
        var = _creation.full(tuple(input.shape), float(var), dtype=input.dtype)
    if var.size() != input.size():
        if input.size()[:-1] == var.size():
            var = var.unsqueeze(-1)
        elif input.size()[:-1] == var.size()[:-1] and var.size(-1) == 1:
            pass
        else:
            raise ValueError("var is of incorrect size")
    if reduction not in ("none", "mean", "sum"):
        raise ValueError(reduction + " is not valid")
    if bool((var < 0).any()):
        raise ValueError("var has negative entry/entries")
    var = var.clone()
    with no_grad():
        var.clamp_(min=eps)
    loss = 0.5 * (var.log() + (input - target) ** 2 / var)
    if full:
        loss = loss + 0.5 * math.log(2 * math.pi)
    return _reduction.apply(loss, reduction)


def cosine_embedding_loss(
    input1: Tensor,
    input2: Tensor,
    target: Tensor,
    margin: float = 0,
    size_average: bool | None = None,
    reduce: bool | None = None,
    reduction: str = "mean",
) -> Tensor:
    """1 - cos(x1, x2) where y = 1, max(0, cos(x1, x2) - margin) where y = -1."""
    reduction = _reduction.resolve(size_average, reduce, reduction)
    dim = input1.dim() - 1 if input1.dim() > 0 else 0
    eps = 1e-12
    prod = (input1 * input2).sum(dim)
    mag1 = (input1 * input1).sum(dim) + eps
    mag2 = (input2 * input2).sum(dim) + eps
    cos = prod / (mag1 * mag2).sqrt()
    zeros = _op("zeros_like")(cos)
    pos = 1 - cos
    neg = (cos - margin).clamp_min(0)
    out = _op("where.self")(target == 1, pos, zeros) + _op("where.self")(target == -1, neg, zeros)
    return _reduction.apply(out, reduction)


def margin_ranking_loss(
    input1: Tensor,
    input2: Tensor,
    target: Tensor,
    margin: float = 0,
    size_average: bool | None = None,
    reduce: bool | None = None,
    reduction: str = "mean",
) -> Tensor:
    """max(0, -y (x1 - x2) + margin)."""
    reduction = _reduction.resolve(size_average, reduce, reduction)
    if input1.dim() != input2.dim() or input1.dim() != target.dim():
        raise RuntimeError(
            "margin_ranking_loss : All input tensors should have same dimension but got sizes: "
            f"input1: {input1.size()}, input2: {input2.size()}, target: {target.size()} "
        )
    return _reduction.apply((-target * (input1 - input2) + margin).clamp_min(0), reduction)


def hinge_embedding_loss(
    input: Tensor,  # noqa: A002
    target: Tensor,
    margin: float = 1.0,
    size_average: bool | None = None,
    reduce: bool | None = None,
    reduction: str = "mean",
) -> Tensor:
    """x where y = 1, max(0, margin - x) where y = -1."""
    reduction = _reduction.resolve(size_average, reduce, reduction)
    zeros = _op("zeros_like")(input)
    margin_part = _op("where.self")(target != 1, (margin - input).clamp_min(0), zeros)
    self_part = _op("where.self")(target != -1, input, zeros)
    return _reduction.apply(margin_part + self_part, reduction)


def soft_margin_loss(
    input: Tensor,  # noqa: A002
    target: Tensor,
    size_average: bool | None = None,
    reduce: bool | None = None,
    reduction: str = "mean",
) -> Tensor:
    """log(1 + exp(-y x))."""
    reduction = _reduction.resolve(size_average, reduce, reduction)
    return _reduction.apply((-target * input).exp().log1p(), reduction)


def pairwise_distance(
    x1: Tensor, x2: Tensor, p: float = 2.0, eps: float = 1e-6, keepdim: bool = False
) -> Tensor:
    """The p-norm of x1 - x2 + eps over the last dimension."""
    dim = max(x1.dim(), x2.dim()) - 1
    return _op("linalg_vector_norm")(x1 - x2 + eps, p, [max(dim, 0)], keepdim)


def cosine_similarity(x1: Tensor, x2: Tensor, dim: int = 1, eps: float = 1e-8) -> Tensor:
    """The cosine of the angle between x1 and x2 along dim (norms clamped to eps): the
    aten::cosine_similarity decomposition."""
    return _op("cosine_similarity")(x1, x2, dim, eps)


def pdist(input: Tensor, p: float = 2) -> Tensor:  # noqa: A002
    """The p-norm distances between every pair of rows (upper triangle, row-major)."""
    n = input.size(0)
    rows, cols = [], []
    for i in range(n):
        for j in range(i + 1, n):
            rows.append(i)
            cols.append(j)
    if not rows:
        return input.new_empty((0,))
    ri = _creation.tensor(rows)
    ci = _creation.tensor(cols)
    diff = input.index_select(0, ri) - input.index_select(0, ci)
    return _op("linalg_vector_norm")(diff, p, [1], False)


def triplet_margin_loss(
    anchor: Tensor,
    positive: Tensor,
    negative: Tensor,
    margin: float = 1.0,
    p: float = 2,
    eps: float = 1e-6,
    swap: bool = False,
    size_average: bool | None = None,
    reduce: bool | None = None,
    reduction: str = "mean",
) -> Tensor:
    """max(0, margin + d(a, p) - d(a, n)), d the pairwise p-norm distance."""
    reduction = _reduction.resolve(size_average, reduce, reduction)
    a, po, ne = anchor.dim(), positive.dim(), negative.dim()
    if not (a == po == ne):
        raise RuntimeError(
            "The anchor, positive, and negative tensors are expected to have the same number of "
            f"dimensions, but got: anchor {a}D, positive {po}D, and negative {ne}D inputs"
        )
    d_pos = pairwise_distance(anchor, positive, p, eps)
    d_neg = pairwise_distance(anchor, negative, p, eps)
    if swap:
        d_neg = _op("minimum")(d_neg, pairwise_distance(positive, negative, p, eps))
    return _reduction.apply((margin + d_pos - d_neg).clamp_min(0), reduction)


def triplet_margin_with_distance_loss(
    anchor: Tensor,
    positive: Tensor,
    negative: Tensor,
    *,
    distance_function: Callable[[Tensor, Tensor], Tensor] | None = None,
    margin: float = 1.0,
    swap: bool = False,
    reduction: str = "mean",
) -> Tensor:
    """triplet_margin_loss with any distance function (pairwise_distance by default)."""
    if margin <= 0:
        raise ValueError(
            "TripletMarginWithDistanceLoss: expected margin to be greater than 0, got "
            f"{margin} instead"
        )
    dist = distance_function if distance_function is not None else pairwise_distance
    d_pos = dist(anchor, positive)
    d_neg = dist(anchor, negative)
    if swap:
        d_neg = _op("minimum")(d_neg, dist(positive, negative))
    return _reduction.apply((margin + d_pos - d_neg).clamp_min(0), reduction)


def multilabel_soft_margin_loss(
    input: Tensor,  # noqa: A002
    target: Tensor,
    weight: Tensor | None = None,
    size_average: bool | None = None,
    reduce: bool | None = None,
    reduction: str = "mean",
) -> Tensor:
    """Per-class logistic loss averaged over classes."""
    reduction = _reduction.resolve(size_average, reduce, reduction)

    def logsig(t: Tensor) -> Tensor:  # log(sigmoid(t)) = -softplus(-t)
        return -_op("softplus")(-t, 1.0, 20.0)

    loss = -(target * logsig(input) + (1 - target) * logsig(-input))
    if weight is not None:
        loss = loss * weight
    class_dim = input.dim() - 1
    loss = loss.sum(dim=class_dim) / input.size(class_dim)
    return _reduction.apply(loss, reduction)


def multi_margin_loss(
    input: Tensor,  # noqa: A002
    target: Tensor,
    p: int = 1,
    margin: float = 1.0,
    weight: Tensor | None = None,
    size_average: bool | None = None,
    reduce: bool | None = None,
    reduction: str = "mean",
) -> Tensor:
    """Multi-class hinge loss: sum over j != y of max(0, margin - x[y] + x[j])^p / C."""
    reduction = _reduction.resolve(size_average, reduce, reduction)
    if p not in (1, 2):
        raise ValueError("only p == 1 and p == 2 supported")
    x = input if input.dim() == 2 else input.reshape(1, -1)
    y = target.reshape(-1, 1)
    x_y = x.gather(1, y)
    z = (margin - x_y + x).clamp_min(0)
    if p == 2:
        z = z * z
    if weight is not None:
        z = z * weight.index_select(0, y.reshape(-1)).unsqueeze(1)
    not_y = _op("ones_like")(z).scatter(1, y, 0.0)
    loss = (z * not_y).sum(1) / x.size(1)
    if input.dim() < 2:
        loss = loss.reshape(())
    return _reduction.apply(loss, reduction)


def multilabel_margin_loss(
    input: Tensor,  # noqa: A002
    target: Tensor,
    size_average: bool | None = None,
    reduce: bool | None = None,
    reduction: str = "mean",
) -> Tensor:
    """Multi-label hinge loss; target holds class indices, ended by the first -1."""
    reduction = _reduction.resolve(size_average, reduce, reduction)
    x = input if input.dim() == 2 else input.reshape(1, -1)
    t = target.reshape(x.shape).tolist()
    C = x.size(1)
    losses = []
    for i, row in enumerate(t):
        labels = []
        for v in row:
            if v < 0:
                break
            labels.append(int(v))
        xi = x[i]
        is_t = _creation.zeros(C, dtype=x.dtype)
        for j in labels:
            is_t[j] = 1.0
        total = xi.sum() * 0.0
        for j in labels:
            z = (1 - (xi[j] - xi)).clamp_min(0) * (1 - is_t)
            total = total + z.sum()
        losses.append(total / C)
    loss = _op("stack")(losses, 0)
    if input.dim() < 2:
        loss = loss.reshape(())
    return _reduction.apply(loss, reduction)


def ctc_loss(
    log_probs: Tensor,
    targets: Tensor,
    input_lengths: Any,
    target_lengths: Any,
    blank: int = 0,
    reduction: str = "mean",
    zero_infinity: bool = False,
) -> Tensor:
    """The connectionist temporal classification loss (aten::ctc_loss)."""
    from ..._api.nn import ctc_loss as _ctc

    return _ctc(
        log_probs, targets, input_lengths, target_lengths, blank,
        _reduction.get_enum(reduction), zero_infinity,
    )  # fmt: skip
