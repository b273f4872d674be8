"""Derivative formulas of the indexing operators (aten/indexing.py)."""

from __future__ import annotations

import math

from ..._ops import ops
from ...tensor.dtype import bool_
from ._registry import _scale, _shape, _zeros, derivative

aten = ops.aten


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
    return (aten.index_put.default(out, list(indices), grad, True),)


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
        else aten.index_put.default(
            grad, list(indices), aten.zeros.default([], dtype=grad._dtype), False
        )
    )
    return g_self, aten.index.Tensor(grad, list(indices))


@derivative(
    "index_select",
    "IndexSelectBackward0",
    inputs=("self",),
    save=("dim", "index"),
    computed={"s": _shape("self")},
)
def _index_select(grad, dim, index, s):
    out = _zeros(s, grad)
    return (aten.index_add.default(out, dim, index, grad),)


@derivative(
    "gather",
    "GatherBackward0",
    inputs=("self",),
    save=("dim", "index"),
    computed={"s": _shape("self")},
)
def _gather(grad, dim, index, s):
    out = _zeros(s, grad)
    return (aten.scatter_add.default(out, dim, index, grad),)


@derivative("scatter.src", "ScatterBackward0", inputs=("self", "src"), save=("dim", "index"))
def _scatter_src(grad, dim, index):
    return aten.scatter.value(grad, dim, index, 0), aten.gather.default(grad, dim, index)


@derivative("scatter.value", "ScatterBackward1", inputs=("self",), save=("dim", "index"))
def _scatter_value(grad, dim, index):
    return (aten.scatter.value(grad, dim, index, 0),)


@derivative("scatter_add", "ScatterAddBackward0", inputs=("self", "src"), save=("dim", "index"))
def _scatter_add(grad, dim, index):
    return grad, aten.gather.default(grad, dim, index)


@derivative(
    "index_add",
    "IndexAddBackward0",
    inputs=("self", "source"),
    save=("dim", "index", "alpha"),
    computed={"src": _shape("source")},
)
def _index_add(grad, dim, index, alpha, src):
    g = aten.index_select.default(grad, dim, index) if grad.dim() else grad
    return grad, aten.reshape.default(_scale(g, alpha), list(src))


@derivative(
    "index_copy",
    "IndexCopyBackward0",
    inputs=("self", "source"),
    save=("dim", "index"),
    computed={"src": _shape("source")},
)
def _index_copy(grad, dim, index, src):
    g_self = aten.index_fill.int_Scalar(grad, dim, index, 0)
    g_src = aten.index_select.default(grad, dim, index) if grad.dim() else grad
    return g_self, aten.reshape.default(g_src, list(src))


@derivative("index_fill.int_Scalar", "IndexFillBackward0", inputs=("self",), save=("dim", "index"))
def _index_fill(grad, dim, index):
    return (aten.index_fill.int_Scalar(grad, dim, index, 0),)


@derivative(
    "index_fill.int_Tensor", "IndexFillBackward1", inputs=("self", "value"), save=("dim", "index")
)
def _index_fill_tensor(grad, dim, index, needs):
    g_self = aten.index_fill.int_Scalar(grad, dim, index, 0) if needs[0] else None
    if not needs[1]:
        return g_self, None
    # Each filled position counts once, however often the index names it.
    unique = aten._unique.default(index, False)[0]
    return g_self, aten.sum.default(aten.index_select.default(grad, dim, unique))


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
        return (aten.where.self(mask, aten.reshape.default(grad, []), _zeros((), grad)),)
    out = _zeros(shape, grad)
    full_mask = aten.expand.default(mask, list(shape))
    return (aten.index_put.default(out, [full_mask], grad, False),)


@derivative(
    "take", "TakeBackward0", inputs=("self",), save=("index",), computed={"s": _shape("self")}
)
def _take(grad, index, s):
    n = math.prod(s) if s else 1
    flat = aten.zeros.default([n], dtype=grad._dtype, device=grad.device)
    flat = aten.index_put.default(
        flat, [aten.reshape.default(index, [-1])], aten.reshape.default(grad, [-1]), True
    )
    return (aten.reshape.default(flat, list(s)),)


@derivative(
    "put",
    "PutBackward0",
    inputs=("self", "source"),
    save=("index", "accumulate"),
    computed={"src": _shape("source")},
)
def _put(grad, index, accumulate, src):
    g_self = grad if accumulate else aten.put.default(grad, index, _zeros(src, grad), False)
    return g_self, aten.reshape.default(aten.take.default(grad, index), list(src))


@derivative(
    "scatter_reduce.two",
    "ScatterReduceBackward0",
    inputs=("self", "src"),
    save=("self", "dim", "index", "src", "reduce", "include_self", "result"),
)
def _scatter_reduce(grad, self, dim, index, src, reduce, include_self, result):
    if reduce == "sum":
        g_self = grad if include_self else aten.scatter.value(grad, dim, index, 0)
        return g_self, aten.gather.default(grad, dim, index)
    if reduce == "mean":
        ones = aten.ones_like.default(src)
        counts = aten.scatter_add.default(
            aten.ones_like.default(self) if include_self else aten.zeros_like.default(self),
            dim,
            index,
            ones,
        )
        counts = aten.masked_fill.Scalar(counts, aten.eq.Scalar(counts, 0), 1)
        g = aten.div.Tensor(grad, counts)
        g_self = g if include_self else aten.scatter.value(g, dim, index, 0)
        return g_self, aten.gather.default(g, dim, index)
    if reduce in ("amax", "amin"):
        picked = aten.gather.default(result, dim, index)
        src_hit = aten.eq.Tensor(src, picked)
        self_hit = (
            aten.eq.Tensor(self, result)
            if include_self
            else aten.zeros_like.default(self, dtype=bool_)
        )
        counts = aten.scatter_add.default(
            self_hit.to(grad._dtype), dim, index, src_hit.to(grad._dtype)
        )
        g = aten.div.Tensor(grad, aten.masked_fill.Scalar(counts, aten.eq.Scalar(counts, 0), 1))
        return aten.mul.Tensor(g, self_hit), aten.mul.Tensor(
            aten.gather.default(g, dim, index), src_hit
        )
    if reduce == "prod":
        g_self = (
            aten.div.Tensor(aten.mul.Tensor(grad, result), self)
            if include_self
            else aten.scatter.value(grad, dim, index, 0)
        )
        g_src = aten.div.Tensor(aten.gather.default(aten.mul.Tensor(grad, result), dim, index), src)
        return g_self, g_src
    raise RuntimeError(
        f"reduce argument must be either sum, prod, mean, amax or amin, got {reduce}"
    )
