"""Derivative formulas of the indexing operators (aten/indexing.py)."""

from __future__ import annotations

import math

from ..._ops import ops
from ...tensor.dtype import bool_
from ._registry import _scale, _shape, _zeros, derivative

A = ops.aten


# ----------------------------------------------------------------------------- indexing


@derivative(
    "index.Tensor",
    "IndexBackward0",
    inputs=("self",),
    save=("indices",),
    computed={"s": _shape("self")},
)
def _index(grad, indices, s):
    out = _zeros(s, grad)
    return (A.index_put.default(out, list(indices), grad, True),)


@derivative(
    "index_put",
    "IndexPutBackward0",
    inputs=("self", "values"),
    save=("indices", "accumulate"),
    computed={"vs": _shape("values")},
)
def _index_put(grad, indices, accumulate, vs):
    g_self = (
        grad
        if accumulate
        else A.index_put.default(grad, list(indices), A.zeros.default([], dtype=grad._dtype), False)
    )
    return g_self, A.index.Tensor(grad, list(indices))


@derivative(
    "index_select",
    "IndexSelectBackward0",
    inputs=("self",),
    save=("dim", "index"),
    computed={"s": _shape("self")},
)
def _index_select(grad, dim, index, s):
    out = _zeros(s, grad)
    return (A.index_add.default(out, dim, index, grad),)


@derivative(
    "gather",
    "GatherBackward0",
    inputs=("self",),
    save=("dim", "index"),
    computed={"s": _shape("self")},
)
def _gather(grad, dim, index, s):
    out = _zeros(s, grad)
    return (A.scatter_add.default(out, dim, index, grad),)


@derivative("scatter.src", "ScatterBackward0", inputs=("self", "src"), save=("dim", "index"))
def _scatter_src(grad, dim, index):
    return A.scatter.value(grad, dim, index, 0), A.gather.default(grad, dim, index)


@derivative("scatter.value", "ScatterBackward1", inputs=("self",), save=("dim", "index"))
def _scatter_value(grad, dim, index):
    return (A.scatter.value(grad, dim, index, 0),)


@derivative("scatter_add", "ScatterAddBackward0", inputs=("self", "src"), save=("dim", "index"))
def _scatter_add(grad, dim, index):
    return grad, A.gather.default(grad, dim, index)


@derivative(
    "index_add",
    "IndexAddBackward0",
    inputs=("self", "source"),
    save=("dim", "index", "alpha"),
    computed={"src": _shape("source")},
)
def _index_add(grad, dim, index, alpha, src):
    g = A.index_select.default(grad, dim, index) if grad.dim() else grad
    return grad, A.reshape.default(_scale(g, alpha), list(src))


@derivative(
    "index_copy",
    "IndexCopyBackward0",
    inputs=("self", "source"),
    save=("dim", "index"),
    computed={"src": _shape("source")},
)
def _index_copy(grad, dim, index, src):
    g_self = A.index_fill.int_Scalar(grad, dim, index, 0)
    g_src = A.index_select.default(grad, dim, index) if grad.dim() else grad
    return g_self, A.reshape.default(g_src, list(src))


@derivative("index_fill.int_Scalar", "IndexFillBackward0", inputs=("self",), save=("dim", "index"))
def _index_fill(grad, dim, index):
    return (A.index_fill.int_Scalar(grad, dim, index, 0),)


@derivative(
    "index_fill.int_Tensor", "IndexFillBackward1", inputs=("self", "value"), save=("dim", "index")
)
def _index_fill_tensor(grad, dim, index, needs):
    g_self = A.index_fill.int_Scalar(grad, dim, index, 0) if needs[0] else None
    if not needs[1]:
        return g_self, None
    # Each filled position counts once, however often the index names it.
    unique = A._unique.default(index, False)[0]
    return g_self, A.sum.default(A.index_select.default(grad, dim, unique))


@derivative(
    "masked_select",
    "MaskedSelectBackward0",
    inputs=("self",),
    save=("mask",),
    computed={"s": _shape("self")},
)
def _masked_select(grad, mask, s):
    from ...aten._shape import broadcast_shapes

    shape = broadcast_shapes(s, tuple(mask.shape))
    if not shape:  # 0-d: a 0-d boolean mask cannot index a 0-d tensor
        return (A.where.self(mask, A.reshape.default(grad, []), _zeros((), grad)),)
    out = _zeros(shape, grad)
    full_mask = A.expand.default(mask, list(shape))
    return (A.index_put.default(out, [full_mask], grad, False),)


@derivative(
    "take", "TakeBackward0", inputs=("self",), save=("index",), computed={"s": _shape("self")}
)
def _take(grad, index, s):
    n = math.prod(s) if s else 1
    flat = A.zeros.default([n], dtype=grad._dtype, device=grad.device)
    flat = A.index_put.default(
        flat, [A.reshape.default(index, [-1])], A.reshape.default(grad, [-1]), True
    )
    return (A.reshape.default(flat, list(s)),)


@derivative(
    "put",
    "PutBackward0",
    inputs=("self", "source"),
    save=("index", "accumulate"),
    computed={"src": _shape("source")},
)
def _put(grad, index, accumulate, src):
    g_self = grad if accumulate else A.put.default(grad, index, _zeros(src, grad), False)
    return g_self, A.reshape.default(A.take.default(grad, index), list(src))


@derivative(
    "scatter_reduce.two",
    "ScatterReduceBackward0",
    inputs=("self", "src"),
    save=("self", "dim", "index", "src", "reduce", "include_self", "result"),
)
def _scatter_reduce(grad, self, dim, index, src, reduce, include_self, result):
    if reduce == "sum":
        g_self = grad if include_self else A.scatter.value(grad, dim, index, 0)
        return g_self, A.gather.default(grad, dim, index)
    if reduce == "mean":
        ones = A.ones_like.default(src)
        counts = A.scatter_add.default(
            A.ones_like.default(self) if include_self else A.zeros_like.default(self),
            dim,
            index,
            ones,
        )
        counts = A.masked_fill.Scalar(counts, A.eq.Scalar(counts, 0), 1)
        g = A.div.Tensor(grad, counts)
        g_self = g if include_self else A.scatter.value(g, dim, index, 0)
        return g_self, A.gather.default(g, dim, index)
    if reduce in ("amax", "amin"):
        picked = A.gather.default(result, dim, index)
        src_hit = A.eq.Tensor(src, picked)
        self_hit = (
            A.eq.Tensor(self, result) if include_self else A.zeros_like.default(self, dtype=bool_)
        )
        counts = A.scatter_add.default(
            self_hit.to(grad._dtype), dim, index, src_hit.to(grad._dtype)
        )
        g = A.div.Tensor(grad, A.masked_fill.Scalar(counts, A.eq.Scalar(counts, 0), 1))
        return A.mul.Tensor(g, self_hit), A.mul.Tensor(A.gather.default(g, dim, index), src_hit)
    if reduce == "prod":
        g_self = (
            A.div.Tensor(A.mul.Tensor(grad, result), self)
            if include_self
            else A.scatter.value(grad, dim, index, 0)
        )
        g_src = A.div.Tensor(A.gather.default(A.mul.Tensor(grad, result), dim, index), src)
        return g_self, g_src
    raise RuntimeError(
        f"reduce argument must be either sum, prod, mean, amax or amin, got {reduce}"
    )
