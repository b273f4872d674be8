"""Derivative formulas of linear algebra (aten/linalg.py)."""

from __future__ import annotations

from typing import Any

from ..._ops import ops
from ._registry import _scale, derivative

aten = ops.aten


# ----------------------------------------------------------------------------- linear algebra


def _column_major(t: Any) -> bool:
    """A 2-d tensor laid out column by column (a transposed contiguous matrix)."""
    st = t.stride()
    return st[0] == 1 and st[1] == t._data.shape[0]


def mm_mat1_backward(grad: Any, mat2: Any, mat1: Any) -> Any:
    # A column-major mat1 gets a column-major gradient (no copy when it is accumulated).
    if _column_major(mat1):
        return aten.t.default(aten.mm.default(mat2, aten.t.default(grad)))
    return aten.mm.default(grad, aten.t.default(mat2))


def mm_mat2_backward(grad: Any, mat1: Any, mat2: Any) -> Any:
    # A linear layer's weight enters as weight.t(): column-major, so this branch keeps its
    # gradient contiguous after TBackward.
    if _column_major(mat2):
        return aten.t.default(aten.mm.default(aten.t.default(grad), mat1))
    return aten.mm.default(aten.t.default(mat1), grad)


@derivative("mm", "MmBackward0", save=("self", "mat2"))
def _mm(grad, self, mat2, needs):
    # PyTorch's generated MmBackward0 computes mat2's gradient first.
    g_mat2 = mm_mat2_backward(grad, self, mat2) if needs[1] else None
    return (mm_mat1_backward(grad, mat2, self) if needs[0] else None), g_mat2


@derivative("bmm", "BmmBackward0", save=("self", "mat2"))
def _bmm(grad, self, mat2, needs):
    return (
        aten.bmm.default(grad, aten.transpose.int(mat2, 1, 2)) if needs[0] else None,
        aten.bmm.default(aten.transpose.int(self, 1, 2), grad) if needs[1] else None,
    )


@derivative("addmm", "AddmmBackward0", save=("mat1", "mat2", "beta", "alpha"))
def _addmm(grad, mat1, mat2, beta, alpha, needs):
    return (
        _scale(grad, beta) if needs[0] else None,
        _scale(mm_mat1_backward(grad, mat2, mat1), alpha) if needs[1] else None,
        _scale(mm_mat2_backward(grad, mat1, mat2), alpha) if needs[2] else None,
    )


@derivative("baddbmm", "BaddbmmBackward0", save=("batch1", "batch2", "beta", "alpha"))
def _baddbmm(grad, batch1, batch2, beta, alpha, needs):
    return (
        _scale(grad, beta) if needs[0] else None,
        _scale(aten.bmm.default(grad, aten.transpose.int(batch2, 1, 2)), alpha)
        if needs[1]
        else None,
        _scale(aten.bmm.default(aten.transpose.int(batch1, 1, 2), grad), alpha)
        if needs[2]
        else None,
    )


@derivative("dot", "DotBackward0", save=("self", "tensor"))
def _dot(grad, self, tensor):
    return aten.mul.Tensor(tensor, grad), aten.mul.Tensor(self, grad)


@derivative("mv", "MvBackward0", save=("self", "vec"))
def _mv(grad, self, vec):
    return (
        aten.mul.Tensor(aten.unsqueeze.default(grad, 1), aten.unsqueeze.default(vec, 0)),
        aten.mv.default(aten.t.default(self), grad),
    )


@derivative("addmv", "AddmvBackward0", save=("mat", "vec", "beta", "alpha"))
def _addmv(grad, mat, vec, beta, alpha):
    return (
        _scale(grad, beta),
        _scale(
            aten.mul.Tensor(aten.unsqueeze.default(grad, 1), aten.unsqueeze.default(vec, 0)), alpha
        ),
        _scale(aten.mv.default(aten.t.default(mat), grad), alpha),
    )


@derivative("vdot", "VdotBackward0", save=("self", "other"))
def _vdot(grad, self, other):
    return aten.mul.Tensor(other, grad), aten.mul.Tensor(self, grad)
