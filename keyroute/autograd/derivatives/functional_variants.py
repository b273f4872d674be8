"""Derivative formulas of the functional variants functionalization rewrites into
(aten/functionalization.py): the `*_copy` forms of views, the `*_scatter` inverses of views,
`fill` and `zero`.

A `<view>_copy` differentiates exactly as its view (PyTorch generates the same formula under
the node name `<ViewNode>_copy`), so its entry is the view's entry, renamed; the rest have
formulas of their own, as derivatives.yaml gives them.
"""

from __future__ import annotations

from ..._ops import ops
from ._registry import DERIVATIVES, _shape, derivative, same_formula

aten = ops.aten

_COPY_FORMS = {
    "view_copy.default": "view",
    "t_copy.default": "t",
    "transpose_copy.int": "transpose.int",
    "permute_copy.default": "permute",
    "select_copy.int": "select.int",
    "slice_copy.Tensor": "slice.Tensor",
    "unsqueeze_copy.default": "unsqueeze",
    "squeeze_copy.default": "squeeze",
    "squeeze_copy.dim": "squeeze.dim",
    "squeeze_copy.dims": "squeeze.dims",
    "expand_copy.default": "expand",
    "alias_copy.default": "alias",
    "diagonal_copy.default": "diagonal",
    "as_strided_copy.default": "as_strided",
    "split_copy.Tensor": "split.Tensor",
    "split_with_sizes_copy.default": "split_with_sizes",
    "unbind_copy.int": "unbind.int",
}


def _entry_name(qualified: str) -> str:
    # DERIVATIVES keys drop ".default" (as "mm", "add.Tensor").
    return qualified.removesuffix(".default")


for _copy, _view in _COPY_FORMS.items():
    same_formula(_entry_name(_copy), DERIVATIVES[_view].node_name + "_copy", _view)


@derivative("fill.Scalar", "FillBackward0")
def _fill(grad):
    return (aten.zeros_like.default(grad),)


@derivative("fill.Tensor", "FillBackward1")
def _fill_t(grad):
    return aten.zeros_like.default(grad), aten.sum.default(grad)


@derivative("zero", "ZeroBackward0")
def _zero(grad):
    return (aten.zeros_like.default(grad),)


def _scatter_backward(grad, scatter, view, needs, src_shape, *view_args):
    """self: the gradient with the scattered region zeroed; src: the region of the gradient."""
    g_self = g_src = None
    if needs[0]:
        zeros = aten.zeros.default(list(src_shape), dtype=grad._dtype, device=grad.device)
        g_self = scatter(grad, zeros, *view_args)
    if needs[1]:
        g_src = view(grad, *view_args)
    return g_self, g_src


@derivative(
    "select_scatter",
    "SelectScatterBackward0",
    inputs=("self", "src"),
    save=("dim", "index"),
    computed={"ss": _shape("src")},
)
def _select_scatter(grad, dim, index, ss, needs):
    return _scatter_backward(
        grad, aten.select_scatter.default, aten.select.int, needs, ss, dim, index
    )


@derivative(
    "slice_scatter",
    "SliceScatterBackward0",
    inputs=("self", "src"),
    save=("dim", "start", "end", "step"),
    computed={"ss": _shape("src")},
)
def _slice_scatter(grad, dim, start, end, step, ss, needs):
    return _scatter_backward(
        grad, aten.slice_scatter.default, aten.slice.Tensor, needs, ss, dim, start, end, step
    )


@derivative(
    "diagonal_scatter",
    "DiagonalScatterBackward0",
    inputs=("self", "src"),
    save=("offset", "dim1", "dim2"),
    computed={"ss": _shape("src")},
)
def _diagonal_scatter(grad, offset, dim1, dim2, ss, needs):
    return _scatter_backward(
        grad, aten.diagonal_scatter.default, aten.diagonal.default, needs, ss, offset, dim1, dim2
    )


@derivative(
    "as_strided_scatter",
    "AsStridedScatterBackward0",
    inputs=("self", "src"),
    save=("size", "stride", "storage_offset"),
    computed={"ss": _shape("src")},
)
def _as_strided_scatter(grad, size, stride, storage_offset, ss, needs):
    # The region is addressed in the (contiguous) output's geometry, as PyTorch's formula.
    grad = aten.contiguous.default(grad)
    return _scatter_backward(
        grad,
        aten.as_strided_scatter.default,
        aten.as_strided.default,
        needs,
        ss,
        size,
        stride,
        storage_offset,
    )
