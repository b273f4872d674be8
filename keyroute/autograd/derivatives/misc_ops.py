"""Derivatives of the assorted operators in aten/misc_ops.py (derivatives.yaml's formulas)."""

from __future__ import annotations

from ._registry import _shape, aten, derivative
from .reductions import _indices_backward, _vector_norm


@derivative("diag_embed", "DiagEmbedBackward0", save=("offset", "dim1", "dim2"))
def _diag_embed(grad, offset, dim1, dim2):
    return (aten.diagonal.default(grad, offset, dim1, dim2),)


@derivative(
    "kthvalue",
    "KthvalueBackward0",
    save=("dim", "keepdim", "result1"),
    n_outputs=2,
    computed={"s": _shape("self")},
)
def _kthvalue(grads, dim, keepdim, result1, s):
    return (_indices_backward(grads, dim, keepdim, result1, s),)


def _cummaxmin(grads, self, dim, result1):
    return (aten.cummaxmin_backward.default(grads[0], self, result1, dim),)


derivative("cummax", "CummaxBackward0", save=("self", "dim", "result1"), n_outputs=2)(_cummaxmin)
derivative("cummin", "CumminBackward0", save=("self", "dim", "result1"), n_outputs=2)(_cummaxmin)


@derivative("dist", "DistBackward0", save=("self", "other", "p", "result"))
def _dist(grad, self, other, p, result, needs):
    diff = aten.sub.Tensor(self, other)
    (g,) = _vector_norm(grad, diff, p, None, False, result)
    return (g if needs[0] else None), (aten.neg.default(g) if needs[1] else None)


@derivative("_cdist_forward", "CdistBackward0", save=("x1", "x2", "p", "result"))
def _cdist(grad, x1, x2, p, result, needs):
    g = aten.contiguous.default(grad)
    g1 = aten._cdist_backward.default(g, x1, x2, p, result) if needs[0] else None
    g2 = None
    if needs[1]:
        gt = aten.contiguous.default(aten.mT.default(grad))
        g2 = aten._cdist_backward.default(
            gt, x2, x1, p, aten.contiguous.default(aten.mT.default(result))
        )
    return g1, g2


@derivative("_euclidean_dist", "EuclideanDistBackward0", save=("x1", "x2", "result"))
def _euclidean(grad, x1, x2, result, needs):
    # d|a_i - b_j| / d a_i = (a_i - b_j) / dist_ij (zero where the distance is zero).
    ratio = aten.where.ScalarSelf(aten.eq.Scalar(result, 0), 0.0, aten.div.Tensor(grad, result))
    rs1 = aten.unsqueeze.default(aten.sum.dim_IntList(ratio, [-1]), -1)
    g1 = (
        aten.sub.Tensor(aten.mul.Tensor(x1, rs1), aten.matmul.default(ratio, x2))
        if needs[0]
        else None
    )
    g2 = None
    if needs[1]:
        rs2 = aten.unsqueeze.default(aten.sum.dim_IntList(ratio, [-2]), -1)
        g2 = aten.sub.Tensor(
            aten.mul.Tensor(x2, rs2), aten.matmul.default(aten.mT.default(ratio), x1)
        )
    return g1, g2


def _masked_scatter(grad, mask, s, needs):
    gs = aten.masked_fill.Scalar(grad, mask, 0) if needs[0] else None
    gsrc = aten.masked_scatter_backward.default(grad, mask, list(s)) if needs[1] else None
    return gs, gsrc


for _name in ("masked_scatter", "masked_scatter_"):
    derivative(
        _name,
        "MaskedScatterBackward0",
        save=("mask",),
        inputs=("self", "source"),
        computed={"s": _shape("source")},
    )(_masked_scatter)


@derivative(
    "masked_scatter_backward",
    "MaskedScatterBackwardBackward0",
    save=("mask",),
    inputs=("grad_output",),
)
def _masked_scatter_bw(grad, mask):
    return (
        aten.masked_scatter.default(aten.zeros_like.default(mask, dtype=grad._dtype), mask, grad),
    )
