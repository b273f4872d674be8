"""Batching rules of the matmul family, indexing, embedding, convolution, norms, attention and
losses (PyTorch's BatchRulesLinearAlgebra / BatchRulesIndexing / BatchRulesConvolution /
BatchRulesNorm / BatchRulesLoss). Losses and biased products are decompositions at the level
(their parts meet the generic rules), as PyTorch decomposes several of them.
"""

from __future__ import annotations

from typing import Any

from .._ops import ops
from ..layers.functorch import (
    DECOMPS,
    RULES,
    _cut,
    _interpreter,
    _max_level,
    _uncut,
    add_batch_dim,
    loop_fallback,
    unwrap_at,
)
from ..nn._reduction import apply as apply_loss_reduction
from .batch_rules import _is_batched, front, phys, wrap_outputs

aten = ops.aten


# ----------------------------------------------------------------------------- matmul family
def mm_rule(op: Any, info: Any, args: tuple[Any, ...], kwargs: dict[str, Any]) -> Any:
    a, b = args
    level, n = info.level, info.batch_size
    pa, ba = phys(a, level)
    pb, bb = phys(b, level)
    if ba and bb:
        if pb.stride(0) == 0 and pa.stride(0) != 0:
            # The right operand is one matrix expanded over the batch (a weight lifted into a
            # grad level inside vmap): one mm forward, per-sample outer products backward.
            return add_batch_dim(_broadcast_mm().apply(pa, pb), 0, level)
        return add_batch_dim(aten.bmm.default(pa, pb), 0, level)
    if ba:  # (B, n, k) @ (k, m): one mm over the folded batch
        rows = a.shape[0]
        out = aten.mm.default(pa.reshape([n * rows, a.shape[1]]), pb)
        return add_batch_dim(out.view([n, rows, b.shape[1]]), 0, level)
    # (n, k) @ (B, k, m): the batch joins the columns; the result's batch dim is 1
    k, m = b.shape
    cols = pb.permute([1, 0, 2]).reshape([k, n * m])
    out = aten.mm.default(pa, cols)
    return add_batch_dim(out.view([a.shape[0], n, m]), 1, level)


_BROADCAST_MM: list[Any] = []


def _broadcast_mm() -> Any:
    """bmm(a, b) for b = one (k, m) matrix expanded over the batch (batch stride 0), as an
    autograd Function: forward folds the batch into rows (one mm); backward gives a its
    gradient by one mm and b its per-sample gradients a_i^T g_i (each sample's own slot of the
    expanded tensor), all with differentiable ops (so higher-order transforms compose)."""
    if _BROADCAST_MM:
        return _BROADCAST_MM[0]
    from ..autograd.function import Function

    class BroadcastMM(Function):
        _functorch_transparent = True

        @staticmethod
        def forward(ctx: Any, a: Any, b: Any) -> Any:
            ctx.save_for_backward(a, b)
            n, rows, k = a.shape
            m = b.shape[2]
            return aten.mm.default(a.reshape([n * rows, k]), b.select(0, 0)).view([n, rows, m])

        @staticmethod
        def backward(ctx: Any, g: Any) -> Any:
            a, b = ctx.saved_tensors
            n, rows, k = a.shape
            m = b.shape[2]
            ga = gb = None
            if ctx.needs_input_grad[0]:
                ga = aten.mm.default(g.reshape([n * rows, m]), b.select(0, 0).t())
                ga = ga.view([n, rows, k])
            if ctx.needs_input_grad[1]:
                at = a.transpose(1, 2)
                gb = at * g if rows == 1 else aten.bmm.default(at, g)
            return ga, gb

    _BROADCAST_MM.append(BroadcastMM)
    return BroadcastMM


def bmm_rule(op: Any, info: Any, args: tuple[Any, ...], kwargs: dict[str, Any]) -> Any:
    a, b = args
    level = info.level
    pa, _ = phys(a, level)
    pb, _ = phys(b, level)
    return add_batch_dim(aten.matmul.default(pa, pb), 0, level)


def mv_rule(op: Any, info: Any, args: tuple[Any, ...], kwargs: dict[str, Any]) -> Any:
    a, v = args
    level = info.level
    pa, ba = phys(a, level)
    pv, bv = phys(v, level)
    if ba and bv:
        return add_batch_dim(aten.matmul.default(pa, pv.unsqueeze(2)).squeeze(2), 0, level)
    if ba:
        return add_batch_dim(aten.matmul.default(pa, pv), 0, level)
    return add_batch_dim(aten.mm.default(pa, pv.t()), 1, level)  # (n, k) @ (k, B)


def dot_rule(op: Any, info: Any, args: tuple[Any, ...], kwargs: dict[str, Any]) -> Any:
    a, b = args
    level = info.level
    pa, ba = phys(a, level)
    pb, bb = phys(b, level)
    if ba and bb:
        return add_batch_dim(aten.sum.dim_IntList(pa * pb, [1]), 0, level)
    if ba:
        return add_batch_dim(aten.mv.default(pa, pb), 0, level)
    return add_batch_dim(aten.mv.default(pb, pa), 0, level)


def _addmm(self: Any, mat1: Any, mat2: Any, *, beta: Any = 1, alpha: Any = 1) -> Any:
    prod = aten.mm.default(mat1, mat2)
    if alpha != 1:
        prod = prod * alpha
    if beta == 0:
        return prod + self * 0
    return prod + (self if beta == 1 else self * beta)


def _addmv(self: Any, mat: Any, vec: Any, *, beta: Any = 1, alpha: Any = 1) -> Any:
    prod = aten.mv.default(mat, vec)
    if alpha != 1:
        prod = prod * alpha
    return prod + (self if beta == 1 else self * beta)


def _baddbmm(self: Any, b1: Any, b2: Any, *, beta: Any = 1, alpha: Any = 1) -> Any:
    prod = aten.bmm.default(b1, b2)
    if alpha != 1:
        prod = prod * alpha
    return prod + (self if beta == 1 else self * beta)


# ----------------------------------------------------------------------------- indexing
def index_rule(op: Any, info: Any, args: tuple[Any, ...], kwargs: dict[str, Any]) -> Any:
    self_t, indices = args
    level = info.level
    if any(i is not None and _is_batched(i, level) for i in indices):
        return loop_fallback(op, info, args, kwargs)
    v, _ = phys(self_t, level)
    out = aten.index.Tensor(v, [None, *indices])
    present = [i for i, t in enumerate(indices) if t is not None]
    adjacent = present == list(range(present[0], present[-1] + 1)) if present else True
    if adjacent:
        return add_batch_dim(out, 0, level)
    # Separated advanced indices go first (NumPy's rule); the batch dim follows them.
    shapes = [tuple(indices[i].shape) for i in present]
    width = max(len(s) for s in shapes)
    return add_batch_dim(out, width, level)


def index_put_rule(op: Any, info: Any, args: tuple[Any, ...], kwargs: dict[str, Any]) -> Any:
    self_t, indices, values = args[0], args[1], args[2]
    level = info.level
    present = [i for i, t in enumerate(indices) if t is not None]
    adjacent = present == list(range(present[0], present[-1] + 1)) if present else True
    if (
        not _is_batched(self_t, level)
        or any(i is not None and _is_batched(i, level) for i in indices)
        or not adjacent
    ):
        return loop_fallback(op, info, args, kwargs)
    v, _ = phys(self_t, level)
    vals, vb = phys(values, level)
    if vb:
        # values broadcast against (B, *index_shape, *rest): pad after the batch dim
        target_rank = _index_result_rank(self_t, indices)
        for _ in range(target_rank - values.dim()):
            vals = vals.unsqueeze(1)
    out = op(v, [None, *indices], vals, *args[3:], **kwargs)
    if op.qualified_name().endswith("_"):
        return self_t
    return add_batch_dim(out, 0, level)


def _index_result_rank(self_t: Any, indices: Any) -> int:
    present = [t for t in indices if t is not None]
    width = max((t.dim() for t in present), default=0)
    return self_t.dim() - len(indices) + width


# ----------------------------------------------------------------------------- embedding
def embedding_rule(op: Any, info: Any, args: tuple[Any, ...], kwargs: dict[str, Any]) -> Any:
    weight, indices = args[0], args[1]
    level, n = info.level, info.batch_size
    wv, wb = phys(weight, level)
    iv, ib = unwrap_at(indices, level)
    if not wb:
        return add_batch_dim(op(weight, iv, *args[2:], **kwargs), ib, level)
    idx = front(indices, level, n)
    rows = weight.shape[0]
    offsets = aten.arange.start_step(0, n * rows, rows, dtype=idx.dtype)
    offsets = offsets.view([n] + [1] * (idx.dim() - 1))
    out = op(wv.flatten(0, 1), idx + offsets, *args[2:], **kwargs)
    return add_batch_dim(out, 0, level)


# ----------------------------------------------------------------------------- convolution
def convolution_rule(op: Any, info: Any, args: tuple[Any, ...], kwargs: dict[str, Any]) -> Any:
    x, w, bias, stride, padding, dilation, transposed, output_padding, groups = args
    level, n = info.level, info.batch_size
    wb = _is_batched(w, level)
    bb = bias is not None and _is_batched(bias, level)
    if transposed or (bb and not wb):
        return loop_fallback(op, info, args, kwargs)
    unbatched_input = x.dim() == w.dim() - 1
    if not wb:  # input only: fold the batch into N
        px, _ = phys(x, level)
        if unbatched_input:
            out = op(px, w, bias, stride, padding, dilation, transposed, output_padding, groups)
            return add_batch_dim(out, 0, level)
        rows = x.shape[0]
        out = op(px.flatten(0, 1), w, bias, stride, padding, dilation, False, output_padding,
                 groups)  # fmt: skip
        return add_batch_dim(out.view([n, rows, *out.shape[1:]]), 0, level)
    # Batched weights: the batch becomes groups (input channels and output channels folded).
    px = front(x, level, n)  # (B, N, C, *) or (B, C, *)
    if unbatched_input:
        px = px.unsqueeze(1)
    rows = px.shape[1]
    xs = px.movedim(0, 1).flatten(1, 2)  # (N, B*C, *)
    pw, _ = phys(w, level)
    ws = pw.flatten(0, 1)  # (B*O, C/g, *)
    bs = None
    if bias is not None:
        bs = front(bias, level, n).flatten(0, 1)
    out = op(xs, ws, bs, stride, padding, dilation, False, output_padding, groups * n)
    out = out.view([rows, n, w.shape[0], *out.shape[2:]])  # (N, B, O, *)
    if unbatched_input:
        return add_batch_dim(out.squeeze(0), 0, level)
    return add_batch_dim(out, 1, level)


# ----------------------------------------------------------------------------- norms
def layer_norm_rule(op: Any, info: Any, args: tuple[Any, ...], kwargs: dict[str, Any]) -> Any:
    x, shape, weight, bias, eps = args
    level = info.level
    if (weight is not None and _is_batched(weight, level)) or (
        bias is not None and _is_batched(bias, level)
    ):
        return None  # handled by the decomposition below
    px = front(x, level, info.batch_size)
    out = op(px, shape, weight, bias, eps)
    return wrap_outputs(out, level, 0)


def _native_layer_norm(x: Any, shape: Any, weight: Any, bias: Any, eps: float) -> Any:
    from ..layers.functorch import RuleInfo, _below, _interpreter, _max_level

    level = _max_level((x, weight, bias))
    interp = _interpreter(level)
    info = RuleInfo(level, interp.batch_size, interp.randomness)
    if not any(t is not None and _is_batched(t, level) for t in (weight, bias)):
        with _below(level):
            return layer_norm_rule(
                aten.native_layer_norm.default, info, (x, shape, weight, bias, eps), {}
            )
    out, mean, rstd = aten.native_layer_norm.default(x, shape, None, None, eps)
    if weight is not None:
        out = out * weight
    if bias is not None:
        out = out + bias
    return out, mean, rstd


# ----------------------------------------------------------------------------- attention
def attention_rule(op: Any, info: Any, args: tuple[Any, ...], kwargs: dict[str, Any]) -> Any:
    """Attention over (N, H, L, E): the batch folds into N (every operand batched)."""
    level, n = info.level, info.batch_size
    q = args[0]
    fronts = [front(t, level, n) for t in args[:3]]
    lead = q.shape[0]
    mask = kwargs.get("attn_mask")
    kw = dict(kwargs)
    if mask is not None:
        m = front(mask, level, n)
        for _ in range(q.dim() - mask.dim()):
            m = m.unsqueeze(1)
        kw["attn_mask"] = m.expand([n, lead, *m.shape[2:]]).flatten(0, 1)
    out = op(*(f.flatten(0, 1) for f in fronts), *args[3:], **kw)
    return wrap_outputs(tuple(o.view([n, lead, *o.shape[1:]]) for o in out), level, 0)


# ----------------------------------------------------------------------------- losses
_reduce = apply_loss_reduction  # the aten loss decompositions take the reduction enum


def _flatten_logical(v: Any, bdim: int | None, n: int) -> Any:
    """PyTorch's flatten_logical: the batch dim first and the sample's dims flattened into one
    (an operand unbatched at the level is expanded over the batch, so both sides match)."""
    if bdim is None:
        v = v.expand([n, *v.shape])
    elif bdim:
        v = v.movedim(bdim, 0)
    return v.flatten(1) if v.dim() > 2 else v


def _mse_loss(self: Any, target: Any, reduction: int = 1) -> Any:
    """mse_loss at a level. A mean or sum over same-shaped operands takes PyTorch's loss batch
    rule (loss_batch_rule_helper): one unreduced mse_loss over the flattened samples, then
    each sample's mean (sum): two operators and two autograd nodes where the composite
    (sub, pow, mean) takes three of each. Other cases decompose."""
    if reduction in (1, 2) and self.shape == target.shape and self.dtype == target.dtype:
        level = _max_level((self, target))
        xs, bs = unwrap_at(self, level)
        xt, bt = unwrap_at(target, level)
        n = _interpreter(level).batch_size
        saved = _cut(level)
        try:
            r = aten.mse_loss.default(_flatten_logical(xs, bs, n), _flatten_logical(xt, bt, n), 0)
            if r.dim() > 1:
                r = (aten.mean.dim if reduction == 1 else aten.sum.dim_IntList)(r, [-1])
        finally:
            _uncut(saved)
        return add_batch_dim(r, 0, level)
    return _reduce((self - target) ** 2, reduction)


def _l1_loss(self: Any, target: Any, reduction: int = 1) -> Any:
    return _reduce((self - target).abs(), reduction)


def _bce(self: Any, target: Any, weight: Any = None, reduction: int = 1) -> Any:
    loss = -(target * self.log().clamp_min(-100) + (1 - target) * (1 - self).log().clamp_min(-100))
    if weight is not None:
        loss = loss * weight
    return _reduce(loss, reduction)


def _bce_logits(
    self: Any, target: Any, weight: Any = None, pos_weight: Any = None, reduction: int = 1
) -> Any:
    softplus = (-self.abs()).exp().log1p() + (-self).clamp_min(0)
    if pos_weight is not None:
        loss = (1 - target) * self + (1 + (pos_weight - 1) * target) * softplus
    else:
        loss = (1 - target) * self + softplus
    if weight is not None:
        loss = loss * weight
    return _reduce(loss, reduction)


def _nll_loss_forward(
    self: Any, target: Any, weight: Any, reduction: int, ignore_index: int
) -> Any:
    """-w[t] x[t] per element; mean divides by the total weight of the kept targets."""
    if self.dim() == 1:
        self = self.unsqueeze(0)
        target = target.unsqueeze(0)
    keep = target != ignore_index
    safe = target.masked_fill(~keep, 0)
    picked = self.gather(1, safe.unsqueeze(1)).squeeze(1)
    w = keep.to(self.dtype)
    if weight is not None:
        w = w * weight.gather(0, safe.flatten()).view(safe.shape)
    loss = -picked * w
    total = w.sum()
    if reduction == 0:
        return loss, total
    if reduction == 2:
        return loss.sum(), total
    return loss.sum() / total, total


def _install() -> None:
    for n, rule in (
        ("mm", mm_rule),
        ("bmm", bmm_rule),
        ("mv", mv_rule),
        ("dot", dot_rule),
        ("index.Tensor", index_rule),
        ("index_put", index_put_rule),
        ("index_put_", index_put_rule),
        ("_index_put_impl_", index_put_rule),
        ("embedding", embedding_rule),
        ("convolution", convolution_rule),
        ("_scaled_dot_product_flash_attention_for_cpu", attention_rule),
    ):
        RULES["aten::" + n] = rule
    for n, fn in (
        ("addmm", _addmm),
        ("addmv", _addmv),
        ("baddbmm", _baddbmm),
        ("native_layer_norm", _native_layer_norm),
        ("mse_loss", _mse_loss),
        ("l1_loss", _l1_loss),
        ("binary_cross_entropy", _bce),
        ("binary_cross_entropy_with_logits", _bce_logits),
        ("nll_loss_forward", _nll_loss_forward),
        ("nll_loss2d_forward", _nll_loss_forward),
    ):
        DECOMPS["aten::" + n] = fn
