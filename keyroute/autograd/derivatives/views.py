"""Derivative formulas of copies and views (aten/core.py, aten/views.py)."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from ..._ops import ops
from ...tensor.dtype import to_dtype
from ._registry import _dtype, _shape, _zeros, derivative

aten = ops.aten


# ----------------------------------------------------------------------------- copies & views


@derivative("clone", "CloneBackward0")
def _clone(grad):
    return (grad,)


@derivative("alias", "AliasBackward0")
def _alias(grad):
    return (grad,)


def _to_differentiable_dtype(v: dict[str, Any]) -> bool:
    # derivatives.yaml: output_differentiability ["!dtype || isDifferentiableType(*dtype)"]
    return v.get("dtype") is None or to_dtype(v["dtype"]).category >= 2


@derivative(
    "_to_copy",
    "ToCopyBackward0",
    computed={"dt": _dtype("self")},
    condition=_to_differentiable_dtype,
)
def _to_copy(grad, dt):
    return (aten._to_copy.default(grad, dtype=dt) if grad._dtype is not dt else grad,)


@derivative(
    "copy_",
    "torch::autograd::CopyBackwards",
    inputs=("self", "src"),
    computed={"s": _shape("self"), "src_dtype": _dtype("src")},
)
def _copy(grad, s, src_dtype, needs):
    # CopyBackwards: self's zeros, then src's gradient, each only when needed.
    g_self = aten.zeros_like.default(grad) if needs[0] else None
    if not needs[1]:
        return g_self, None
    return g_self, (
        grad if grad._dtype is src_dtype else aten._to_copy.default(grad, dtype=src_dtype)
    )


@derivative("fill_.Scalar", "FillBackward2")
def _fill(grad):
    return (aten.zeros_like.default(grad),)


@derivative("fill_.Tensor", "FillBackward3")
def _fill_t(grad):
    return aten.zeros_like.default(grad), aten.sum.default(grad)


@derivative("zero_", "ZeroBackward0")
def _zero(grad):
    return (aten.zeros_like.default(grad),)


def _reshape_to(name: str) -> Callable[..., Any]:
    def f(grad: Any, s: tuple[int, ...]) -> tuple[Any, ...]:
        return (aten.reshape.default(grad, list(s)),)

    return f


derivative("view", "ViewBackward0", computed={"s": _shape("self")})(_reshape_to("view"))
derivative("_unsafe_view", "UnsafeViewBackward0", computed={"s": _shape("self")})(_reshape_to("u"))
derivative("_reshape_alias", "ReshapeAliasBackward0", computed={"s": _shape("self")})(
    _reshape_to("_reshape_alias")
)


@derivative("expand", "ExpandBackward0", computed={"s": _shape("self")})
def _expand(grad, s):
    from ..validate_outputs import _sum_to

    return (_sum_to(grad, s),)


@derivative(
    "as_strided",
    "AsStridedBackward0",
    save=("size", "stride", "storage_offset"),
    computed={
        "geom": lambda v: (
            tuple(v["self"]._data.shape),
            v["self"].stride(),
            v["self"].storage_offset(),
            v["self"]._dtype,
        )
    },
)
def _as_strided(grad, size, stride, storage_offset, geom):
    shape, base_stride, base_offset, _ = geom
    from ..views import _extent

    n = _extent(shape, base_stride) + base_offset
    flat = aten.zeros.default([max(n, 1)], dtype=grad._dtype, device=grad.device)
    off = base_offset if storage_offset is None else storage_offset
    if _maybe_overlapping(size, stride):
        # Windows sharing elements (stft's frames): each element sums every window holding
        # it, in index order, by index_add_ as PyTorch's as_strided_backward does (an add_
        # into an overlapping view would write each element once).
        idx = aten.arange.start_step(0, max(n, 1), 1, dtype=_int64(), device=grad.device)
        idx = aten.as_strided.default(idx, list(size), list(stride), off)
        aten.index_add_.default(
            flat, 0, aten.reshape.default(idx, [-1]), aten.reshape.default(grad, [-1])
        )
    else:
        region = aten.as_strided.default(flat, list(size), list(stride), off)
        aten.add_.Tensor(region, grad)
    return (aten.as_strided.default(flat, list(shape), list(base_stride), base_offset),)


def _maybe_overlapping(size, stride) -> bool:
    """_maybe_overlapping_memory over the dims of more than one element and nonzero stride:
    in increasing stride order, a stride within the span of the smaller ones overlaps."""
    span = 0
    for st, sz in sorted((int(st), int(sz)) for sz, st in zip(size, stride) if sz > 1 and st):
        if st <= span:
            return True
        span += st * (sz - 1)
    return any(int(sz) > 1 and int(st) == 0 for sz, st in zip(size, stride))


def _int64():
    from ...tensor.dtype import int64

    return int64


@derivative("t", "TBackward0")
def _t(grad):
    return (aten.t.default(grad),)


@derivative("transpose.int", "TransposeBackward0", save=("dim0", "dim1"))
def _transpose(grad, dim0, dim1):
    return (aten.transpose.int(grad, dim0, dim1),)


@derivative("permute", "PermuteBackward0", save=("dims",))
def _permute(grad, dims):
    n = len(dims)
    inverse = [0] * n
    for i, d in enumerate(dims):
        inverse[d % n] = i
    return (aten.permute.default(grad, inverse),)


@derivative("unsqueeze", "UnsqueezeBackward0", save=("dim",))
def _unsqueeze(grad, dim):
    return (aten.squeeze.dim(grad, dim),)


derivative("squeeze", "SqueezeBackward0", computed={"s": _shape("self")})(_reshape_to("sq"))
derivative("squeeze.dim", "SqueezeBackward1", computed={"s": _shape("self")})(_reshape_to("sq"))
derivative("squeeze.dims", "SqueezeBackward2", computed={"s": _shape("self")})(_reshape_to("sq"))


@derivative("select.int", "SelectBackward0", save=("dim", "index"), computed={"s": _shape("self")})
def _select(grad, dim, index, s):
    return (aten.select_backward.default(grad, list(s), dim, index),)


@derivative(
    "slice.Tensor",
    "SliceBackward0",
    save=("dim", "start", "end", "step"),
    computed={"s": _shape("self")},
)
def _slice(grad, dim, start, end, step, s):
    # PyTorch's slice_backward_wrapper: a missing start is 0, a missing end INT64_MAX (unwrapped)
    start = 0 if start is None else start
    end = _INT64_MAX if end is None else end
    return (aten.slice_backward.default(grad, list(s), dim, start, end, step),)


@derivative(
    "diagonal", "DiagonalBackward0", save=("offset", "dim1", "dim2"), computed={"s": _shape("self")}
)
def _diagonal(grad, offset, dim1, dim2, s):
    return (aten.diagonal_backward.default(grad, list(s), offset, dim1, dim2),)


_INT64_MAX = 9223372036854775807


def _split_backward(grads: Any, dim: int, s: tuple[int, ...], like_sizes: list[int]) -> Any:
    pieces = []
    grads = list(grads) + [None] * (len(like_sizes) - len(grads))
    for g, size in zip(grads, like_sizes):
        if g is None:
            shape = list(s)
            shape[dim] = size
            ref = next(x for x in grads if x is not None)
            g = _zeros(tuple(shape), ref)
        pieces.append(g)
    return aten.cat.default(pieces, dim)


@derivative(
    "split.Tensor",
    "SplitBackward0",
    save=("split_size", "dim"),
    n_outputs=-1,
    outputs=range(1024),
    computed={"s": _shape("self")},
)
def _split(grads, split_size, dim, s):
    d = dim % len(s)
    n = s[d]
    sizes = [min(split_size, n - i) for i in range(0, n, split_size)] if n else [0]
    return (_split_backward(grads, d, s, sizes),)


@derivative(
    "split_with_sizes",
    "SplitWithSizesBackward0",
    save=("split_sizes", "dim"),
    n_outputs=-1,
    outputs=range(1024),
    computed={"s": _shape("self")},
)
def _split_with_sizes(grads, split_sizes, dim, s):
    return (_split_backward(grads, dim % len(s), s, list(split_sizes)),)


@derivative(
    "unbind.int",
    "UnbindBackward0",
    save=("dim",),
    n_outputs=-1,
    outputs=range(1 << 20),
    computed={"s": _shape("self")},
)
def _unbind(grads, dim, s):
    d = dim % len(s)
    shape = list(s)
    del shape[d]
    grads = list(grads) + [None] * (s[d] - len(grads))
    ref = next(g for g in grads if g is not None)
    pieces = [g if g is not None else _zeros(tuple(shape), ref) for g in grads]
    return (aten.stack.default(pieces, d),)
