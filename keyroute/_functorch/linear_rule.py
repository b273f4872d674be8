"""aten::linear at a vmap level in one step, for the per-sample-gradient pattern.

Inside `vmap(grad(f))` an unbatched weight is lifted as one matrix expanded over the batch
(batch stride 0). linear's composite decomposition (view, t, addmm -> mm + add) would cost six
batched dispatches and four autograd nodes per layer; this decomposition at the level does one
addmm forward over the folded batch and, backward, the per-sample weight gradients as one
broadcast product (PyTorch's FuncTorchBatchedDecomposition of linear similarly avoids the
generic path). Any other argument layout takes linear's composite kernel unchanged.
"""

from __future__ import annotations

from typing import Any

from .._ops import ops
from ..layers.functorch import (
    DECOMPS,
    BatchedTensor,
    _cia_kernel,
    _cut,
    _max_level,
    _uncut,
    add_batch_dim,
    unwrap_at,
)
from ..tensor._tensor import Tensor

aten = ops.aten

_FUNCTION: list[Any] = []


def _expanded(p: Any) -> bool:
    """A plain physical tensor whose batch dim (first) has stride 0: one value per batch."""
    return type(p) is not BatchedTensor and isinstance(p, Tensor) and p.stride(0) == 0


def _broadcast_linear() -> Any:
    """linear(x, w, b) for x (n, k) or (n, rows, k) batched, w (n, m, k) expanded, b (n, m)
    expanded or (m,) unbatched or None: an autograd Function whose backward uses
    differentiable ops (higher orders compose)."""
    if _FUNCTION:
        return _FUNCTION[0]
    from ..autograd.function import Function

    class BroadcastLinear(Function):
        _functorch_transparent = True

        @staticmethod
        def forward(ctx: Any, x: Any, w: Any, b: Any) -> Any:
            # One weight matrix (the expanded weight's first slice) for the whole batch. The
            # weight itself is saved: backward slices it again, differentiably, so that a
            # gradient of these gradients (an outer grad level) reaches the weight.
            wt = w.select(0, 0).t()
            ctx.save_for_backward(x, w)
            ctx.bias_batched = b is not None and b.dim() == 2
            if b is not None and b.dim() == 2:
                b = b.select(0, 0)
            if x.dim() == 2:
                # per-sample vectors: the batch is the matrix's rows, no reshaping
                return aten.mm.default(x, wt) if b is None else aten.addmm.default(b, x, wt)
            n, rows, k = x.shape
            flat = x.reshape([n * rows, k])
            out = aten.mm.default(flat, wt) if b is None else aten.addmm.default(b, flat, wt)
            return out.view([n, rows, wt.shape[1]])

        @staticmethod
        def backward(ctx: Any, g: Any) -> Any:
            x, w = ctx.saved_tensors
            needs = ctx.needs_input_grad
            gx = gw = gb = None
            if x.dim() == 2:
                # g (n, m): the weight gradients are every sample's outer product g_i x_i^T,
                # the bias gradients g itself (the engine may hand one tensor to two inputs)
                if needs[0]:
                    gx = aten.mm.default(g, w.select(0, 0))
                if needs[1]:
                    gw = g.unsqueeze(2) * x.unsqueeze(1)
                if needs[2]:
                    gb = g if ctx.bias_batched else g.sum(0)
                return gx, gw, gb
            n, rows, k = x.shape
            m = w.shape[1]
            if needs[0]:
                gx = aten.mm.default(g.reshape([n * rows, m]), w.select(0, 0)).view([n, rows, k])
            gt = g.transpose(1, 2)
            if needs[1]:
                gw = gt * x if rows == 1 else aten.bmm.default(gt, x)
            if needs[2]:
                if ctx.bias_batched:
                    gb = g.reshape([n, m]) if rows == 1 else g.sum(1)
                else:
                    gb = g.reshape([n * rows, m]).sum(0)
            return gx, gw, gb

    _FUNCTION.append(BroadcastLinear)
    return BroadcastLinear


def linear_decomposition(input: Any, weight: Any, bias: Any = None) -> Any:  # noqa: A002
    level = _max_level((input, weight, bias))
    x, bx = unwrap_at(input, level)
    w, bw = unwrap_at(weight, level)
    b, bb = unwrap_at(bias, level) if bias is not None else (None, None)
    if (
        bx == 0
        and bw == 0
        and input.dim() in (1, 2)
        and weight.dim() == 2
        and type(x) is not BatchedTensor
        and _expanded(w)
        and (b is None or bias.dim() == 1)
        and (bb == 0 and _expanded(b) or bb is None and type(b) is not BatchedTensor)
        and x.dtype == w.dtype
        and (b is None or b.dtype == w.dtype)
    ):
        saved = _cut(level)
        try:
            out = _broadcast_linear().apply(x, w, b)
        finally:
            _uncut(saved)
        return add_batch_dim(out, 0, level)
    return _cia_kernel(aten.linear.default)(input, weight, bias)


def _install() -> None:
    DECOMPS["aten::linear"] = linear_decomposition
