"""Derivative formulas of the reductions (aten/reductions/)."""

from __future__ import annotations

import math
from collections.abc import Sequence
from typing import Any

from ..._ops import ops
from ._registry import _dtype, _shape, _zeros, derivative

aten = ops.aten


# ----------------------------------------------------------------------------- reductions


def _unsqueeze_dims(grad: Any, dims: Sequence[int], ndim: int) -> Any:
    for d in sorted(x % ndim for x in dims):
        grad = aten.unsqueeze.default(grad, d)
    return grad


def _norm_dims(dim: Any, ndim: int) -> list[int]:
    if dim is None or (isinstance(dim, (list, tuple)) and len(dim) == 0):
        return list(range(ndim))
    if isinstance(dim, int):
        return [dim % max(ndim, 1)]
    return [d % max(ndim, 1) for d in dim]


@derivative("sum", "SumBackward0", computed={"s": _shape("self")})
def _sum(grad, s):
    return (aten.expand.default(grad, list(s)),)


@derivative(
    "sum.dim_IntList", "SumBackward1", save=("dim", "keepdim"), computed={"s": _shape("self")}
)
def _sum_dim(grad, dim, keepdim, s):
    if not keepdim and s:
        grad = _unsqueeze_dims(grad, _norm_dims(dim, len(s)), len(s))
    return (aten.expand.default(grad, list(s)),)


@derivative("mean", "MeanBackward0", computed={"s": _shape("self")})
def _mean(grad, s):
    n = max(math.prod(s), 1) if s else 1
    return (
        aten.div.Scalar(aten.expand.default(grad, list(s)), math.prod(s) if s else 1)
        if n
        else grad,
    )


@derivative("mean.dim", "MeanBackward1", save=("dim", "keepdim"), computed={"s": _shape("self")})
def _mean_dim(grad, dim, keepdim, s):
    dims = _norm_dims(dim, len(s))
    n = math.prod(s[d] for d in dims) if s else 1
    if not keepdim and s:
        grad = _unsqueeze_dims(grad, dims, len(s))
    return (aten.div.Scalar(aten.expand.default(grad, list(s)), n),)


@derivative("prod", "ProdBackward0", save=("self", "result"))
def _prod(grad, self, result):
    return (aten.mul.Tensor(grad, _prod_grad_factor(self, result, None, False)),)


@derivative("prod.dim_int", "ProdBackward1", save=("self", "result", "dim", "keepdim"))
def _prod_dim(grad, self, result, dim, keepdim):
    ndim = self.dim()
    if not keepdim and ndim:
        grad = aten.unsqueeze.default(grad, dim % ndim)
        result = aten.unsqueeze.default(result, dim % ndim)
    return (aten.mul.Tensor(grad, _prod_grad_factor(self, result, dim, True)),)


def _prod_grad_factor(self: Any, result: Any, dim: Any, keep: bool) -> Any:
    # d prod / d x_i = prod of the others: result / x_i where x_i != 0, else the product of
    # the remaining elements (computed by replacing zeros with ones).
    zero = aten.eq.Scalar(self, 0)
    safe = aten.where.self(zero, aten.ones_like.default(self), self)
    if dim is None:
        others = aten.prod.default(safe)
        n_zero = aten.sum.default(zero)
    else:
        others = aten.prod.dim_int(safe, dim, True)
        n_zero = aten.sum.dim_IntList(zero, [dim], True)
    by_div = aten.div.Tensor(result, safe)
    single_zero = aten.logical_and.default(zero, aten.eq.Scalar(n_zero, 1))
    return aten.where.self(
        single_zero,
        aten.expand.default(others, list(self.shape)),
        aten.where.self(zero, aten.zeros_like.default(self), by_div),
    )


def _select_max_grad(grad: Any, self: Any, result: Any, dims: Any, keepdim: bool) -> Any:
    ndim = self.dim()
    if not keepdim and ndim:
        for d in sorted(dims):
            grad = aten.unsqueeze.default(grad, d)
            result = aten.unsqueeze.default(result, d)
    mask = aten.eq.Tensor(self, result)
    count = aten.sum.dim_IntList(mask, list(dims), True) if ndim else aten.sum.default(mask)
    return aten.div.Tensor(
        aten.mul.Tensor(aten.expand.default(grad, list(self.shape)), mask), count
    )


@derivative("amax", "AmaxBackward0", save=("self", "result", "dim", "keepdim"))
def _amax(grad, self, result, dim, keepdim):
    return (_select_max_grad(grad, self, result, _norm_dims(dim, self.dim()), keepdim),)


@derivative("amin", "AminBackward0", save=("self", "result", "dim", "keepdim"))
def _amin(grad, self, result, dim, keepdim):
    return (_select_max_grad(grad, self, result, _norm_dims(dim, self.dim()), keepdim),)


@derivative("max", "MaxBackward1", save=("self", "result"))
def _max_all(grad, self, result):
    return (_select_max_grad(grad, self, result, list(range(self.dim())), False),)


@derivative("min", "MinBackward1", save=("self", "result"))
def _min_all(grad, self, result):
    return (_select_max_grad(grad, self, result, list(range(self.dim())), False),)


def _indices_backward(grads: Any, dim: int, keepdim: bool, indices: Any, s: tuple[int, ...]) -> Any:
    grad = grads[0] if isinstance(grads, (list, tuple)) else grads
    d = dim % max(len(s), 1)
    if not keepdim and s:
        grad = aten.unsqueeze.default(grad, d)
        indices = aten.unsqueeze.default(indices, d)
    # PyTorch's value_selecting_reduction_backward starts from grad.new_zeros (after unsqueeze).
    out = aten.new_zeros.default(grad, list(s))
    return aten.scatter.src(out, d, indices, grad)


def _value_selecting(grads, dim, keepdim, result1, s):
    return (_indices_backward(grads, dim, keepdim, result1, s),)


# The reductions that return (values, indices): one formula, PyTorch's node names.
for _name, _node in (
    ("max.dim", "MaxBackward0"),
    ("min.dim", "MinBackward0"),
    ("median.dim", "MedianBackward1"),
    ("nanmedian.dim", "NanmedianBackward1"),
    ("mode", "ModeBackward0"),
):
    derivative(
        _name,
        _node,
        save=("dim", "keepdim", "result1"),
        n_outputs=2,
        computed={"s": _shape("self")},
    )(_value_selecting)


def _var_grad(grad: Any, self: Any, dim: Any, correction: Any, keepdim: bool) -> Any:
    ndim = self.dim()
    dims = _norm_dims(dim, ndim)
    n = math.prod(self.shape[d] for d in dims) if ndim else 1
    c = 1 if correction is None else correction
    if not keepdim and ndim:
        grad = _unsqueeze_dims(grad, dims, ndim)
    mean = aten.mean.dim(self, dims, True) if ndim else self
    return aten.mul.Tensor(
        aten.mul.Scalar(grad, 2.0 / max(n - c, 0) if n - c > 0 else float("inf")),
        aten.sub.Tensor(self, mean),
    )


@derivative("var.correction", "VarBackward0", save=("self", "dim", "correction", "keepdim"))
def _var(grad, self, dim, correction, keepdim):
    return (_var_grad(grad, self, dim, correction, keepdim),)


@derivative(
    "std.correction", "StdBackward0", save=("self", "dim", "correction", "keepdim", "result")
)
def _std(grad, self, dim, correction, keepdim, result):
    ndim = self.dim()
    r = result
    if not keepdim and ndim:
        r = _unsqueeze_dims(r, _norm_dims(dim, ndim), ndim)
    g = _var_grad(aten.div.Tensor(grad, aten.mul.Scalar(result, 2)), self, dim, correction, keepdim)
    del r
    return (g,)


@derivative("logsumexp", "LogsumexpBackward0", save=("self", "dim", "keepdim", "result"))
def _logsumexp(grad, self, dim, keepdim, result):
    ndim = self.dim()
    if not keepdim and ndim:
        dims = _norm_dims(dim, ndim)
        grad = _unsqueeze_dims(grad, dims, ndim)
        result = _unsqueeze_dims(result, dims, ndim)
    return (aten.mul.Tensor(grad, aten.exp.default(aten.sub.Tensor(self, result))),)


@derivative("_softmax", "SoftmaxBackward0", save=("result", "dim"), computed={"dt": _dtype("self")})
def _softmax(grad, result, dim, dt):
    return (aten._softmax_backward_data.default(grad, result, dim, dt),)


@derivative(
    "_log_softmax", "LogSoftmaxBackward0", save=("result", "dim"), computed={"dt": _dtype("self")}
)
def _log_softmax(grad, result, dim, dt):
    return (aten._log_softmax_backward_data.default(grad, result, dim, dt),)


@derivative("cumsum", "CumsumBackward0", save=("dim",), computed={"dt": _dtype("self")})
def _cumsum(grad, dim, dt):
    if grad.dim() == 0:
        return (grad,)
    g = aten.flip.default(aten.cumsum.default(aten.flip.default(grad, [dim]), dim), [dim])
    return (g if g._dtype is dt else aten._to_copy.default(g, dtype=dt),)


@derivative("cumprod", "CumprodBackward0", save=("self", "dim", "result"))
def _cumprod(grad, self, dim, result):
    # For inputs without zeros: sum_{j>=i} grad_j * result_j / x_i.
    if self.dim() == 0:
        return (grad,)
    acc = aten.flip.default(
        aten.cumsum.default(aten.flip.default(aten.mul.Tensor(grad, result), [dim]), dim), [dim]
    )
    return (aten.div.Tensor(acc, self),)


@derivative(
    "linalg_vector_norm",
    "LinalgVectorNormBackward0",
    save=("self", "ord", "dim", "keepdim", "result"),
)
def _vector_norm(grad, self, ord, dim, keepdim, result):  # noqa: A002
    ndim = self.dim()
    dims = _norm_dims(dim, ndim)
    if not keepdim and ndim:
        grad = _unsqueeze_dims(grad, dims, ndim)
        result = _unsqueeze_dims(result, dims, ndim)
    p = float(ord)
    if p == 0:
        return (None,)  # PyTorch's norm_backward: an undefined gradient
    if p == 2:
        safe = aten.where.self(aten.eq.Scalar(result, 0), aten.ones_like.default(result), result)
        g = aten.div.Tensor(aten.mul.Tensor(self, grad), safe)
        return (aten.where.self(aten.eq.Scalar(result, 0), aten.zeros_like.default(g), g),)
    if p == 1:  # PyTorch's norm_backward: sgn (sign's complex form)
        return (aten.mul.Tensor(aten.sgn.default(self), grad),)
    if math.isinf(p):
        return (
            _select_max_grad(grad, aten.abs.default(self), result, dims, True)
            * aten.sgn.default(self),
        )
    a = aten.abs.default(self)
    num = aten.mul.Tensor(aten.mul.Tensor(self, aten.pow.Tensor_Scalar(a, p - 2)), grad)
    safe = aten.where.self(aten.eq.Scalar(result, 0), aten.ones_like.default(result), result)
    g = aten.div.Tensor(num, aten.pow.Tensor_Scalar(safe, p - 1))
    return (aten.where.self(aten.eq.Scalar(result, 0), aten.zeros_like.default(g), g),)


@derivative(
    "topk", "TopkBackward0", save=("dim", "result1"), n_outputs=2, computed={"s": _shape("self")}
)
def _topk(grads, dim, result1, s):
    grad = grads[0]
    out = _zeros(s, grad)
    return (aten.scatter.src(out, dim % max(len(s), 1), result1, grad) if s else grad,)


@derivative(
    "sort", "SortBackward0", save=("dim", "result1"), n_outputs=2, computed={"s": _shape("self")}
)
def _sort(grads, dim, result1, s):
    grad = grads[0]
    out = _zeros(s, grad)
    return (aten.scatter.src(out, dim % max(len(s), 1), result1, grad) if s else grad,)


# ----------------------------------------------------------------------------- more reductions


@derivative("nansum", "NansumBackward0", save=("self", "dim", "keepdim"))
def _nansum(grad, self, dim, keepdim):
    ndim = self.dim()
    if not keepdim and ndim:
        grad = _unsqueeze_dims(grad, _norm_dims(dim, ndim), ndim)
    g = aten.expand.default(grad, list(self.shape))
    return (aten.masked_fill.Scalar(g, aten.isnan.default(self), 0),)


def _evenly_distribute(grad: Any, self: Any, result: Any) -> Any:
    """PyTorch's evenly_distribute_backward: grad shared by the elements equal to the result
    (by the NaNs when the result is NaN)."""
    if bool(aten.isnan.default(result)):
        mask = aten.isnan.default(self)
    else:
        mask = aten.eq.Tensor(self, result)
    share = aten.div.Tensor(grad, aten.sum.default(mask))
    return aten.masked_fill.Tensor(_zeros(tuple(self.shape), grad), mask, share)


@derivative("median", "MedianBackward0", save=("self", "result"))
def _median(grad, self, result):
    return (_evenly_distribute(grad, self, result),)


@derivative("nanmedian", "NanmedianBackward0", save=("self", "result"))
def _nanmedian(grad, self, result):
    return (_evenly_distribute(grad, self, result),)


@derivative("norm.ScalarOpt_dtype", "NormBackward2", save=("self", "p", "result"))
def _norm_dtype(grad, self, p, result):
    self = aten._to_copy.default(self, dtype=grad._dtype)
    return _vector_norm(grad, self, 2 if p is None else p, None, False, result)


@derivative(
    "norm.ScalarOpt_dim_dtype", "NormBackward3", save=("self", "p", "dim", "keepdim", "result")
)
def _norm_dim_dtype(grad, self, p, dim, keepdim, result):
    self = aten._to_copy.default(self, dtype=grad._dtype)
    return _vector_norm(grad, self, 2 if p is None else p, dim, keepdim, result)


@derivative("norm.Scalar", "NormBackward0", save=("self", "p", "result"))
def _norm_scalar(grad, self, p, result):
    return _vector_norm(grad, self, 2 if p is None else p, None, False, result)


@derivative("norm.ScalarOpt_dim", "NormBackward1", save=("self", "p", "dim", "keepdim", "result"))
def _norm_dim(grad, self, p, dim, keepdim, result):
    return _vector_norm(grad, self, 2 if p is None else p, dim, keepdim, result)


@derivative(
    "aminmax",
    "AminmaxBackward0",
    save=("self", "dim", "keepdim", "result0", "result1"),
    n_outputs=2,
    outputs=(0, 1),
)
def _aminmax(grads, self, dim, keepdim, result0, result1):
    dims = list(range(self.dim())) if dim is None else [dim % max(self.dim(), 1)]
    total = None
    for g, r in zip(grads, (result0, result1)):
        if g is None:
            continue
        part = _select_max_grad(g, self, r, dims, keepdim)
        total = part if total is None else aten.add.Tensor(total, part)
    return (total,)


def _stat_mean_backward(grads, self, dim, correction, keepdim, result0, is_std):
    g_stat, g_mean = grads
    total = None
    if g_stat is not None:
        if is_std:
            g_stat = aten.div.Tensor(g_stat, aten.mul.Scalar(result0, 2))
        total = _var_grad(g_stat, self, dim, correction, keepdim)
    if g_mean is not None:
        part = (
            _mean_dim(g_mean, _norm_dims(dim, self.dim()), keepdim, tuple(self.shape))[0]
            if self.dim()
            else g_mean
        )
        total = part if total is None else aten.add.Tensor(total, part)
    return (total,)


@derivative(
    "var_mean.correction",
    "VarMeanBackward0",
    save=("self", "dim", "correction", "keepdim", "result0"),
    n_outputs=2,
    outputs=(0, 1),
)
def _var_mean(grads, self, dim, correction, keepdim, result0):
    return _stat_mean_backward(grads, self, dim, correction, keepdim, result0, False)


@derivative(
    "std_mean.correction",
    "StdMeanBackward0",
    save=("self", "dim", "correction", "keepdim", "result0"),
    n_outputs=2,
    outputs=(0, 1),
)
def _std_mean(grads, self, dim, correction, keepdim, result0):
    return _stat_mean_backward(grads, self, dim, correction, keepdim, result0, True)


@derivative(
    "_safe_softmax", "SafeSoftmaxBackward0", save=("result", "dim"), computed={"dt": _dtype("self")}
)
def _safe_softmax(grad, result, dim, dt):
    return _softmax(grad, result, dim, dt)


@derivative(
    "sort.stable",
    "SortBackward1",
    save=("dim", "result1"),
    n_outputs=2,
    computed={"s": _shape("self")},
)
def _sort_stable(grads, dim, result1, s):
    return _sort(grads, dim, result1, s)
