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
    _below,
    _cia_kernel,
    _max_level,
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
    """linear(x, w, b) for x (n, rows, k) batched, w (n, m, k) expanded, b (n, m) expanded or
    (m,) unbatched or None: an
    autograd Function whose backward uses differentiable ops (higher orders compose)."""
    if _FUNCTION:
        return _FUNCTION[0]
    from ..autograd.function import Function

    class BroadcastLinear(Function):
        _functorch_transparent = True

        @staticmethod
        def forward(ctx: Any, x: Any, w: Any, b: Any) -> Any:
            ctx.save_for_backward(x, w)
            ctx.bias_batched = b is not None and b.dim() == 2
            n, rows, k = x.shape
            w0 = w.select(0, 0)
            flat = x.reshape([n * rows, k])
            if b is None:
                out = aten.mm.default(flat, w0.t())
            else:
                # b: (n, m) expanded over the batch, or one unbatched (m,) bias
                out = aten.addmm.default(b.select(0, 0) if b.dim() == 2 else b, flat, w0.t())
            return out.view([n, rows, w0.shape[0]])

        @staticmethod
        def backward(ctx: Any, g: Any) -> Any:
            x, w = ctx.saved_tensors
            bias_batched = ctx.bias_batched
            n, rows, k = x.shape
            m = w.shape[1]
            gx = gw = gb = None
            if ctx.needs_input_grad[0]:
                gx = aten.mm.default(g.reshape([n * rows, m]), w.select(0, 0)).view([n, rows, k])
            gt = g.transpose(1, 2)
            if ctx.needs_input_grad[1]:
                gw = gt * x if rows == 1 else aten.bmm.default(gt, x)
            if ctx.needs_input_grad[2]:
                if bias_batched:
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
        n = x.shape[0]
        x3 = x.view([n, 1, x.shape[1]]) if input.dim() == 1 else x
        with _below(level):
            out = _broadcast_linear().apply(x3, w, b)
            if input.dim() == 1:
                out = out.view([n, w.shape[1]])
        return add_batch_dim(out, 0, level)
    return _cia_kernel(aten.linear.default)(input, weight, bias)


def _install() -> None:
    DECOMPS["aten::linear"] = linear_decomposition
