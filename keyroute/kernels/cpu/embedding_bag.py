"""CPU kernels of embedding_bag (aten/nn/embedding_bag.py), as EmbeddingBag.cpp computes:

- sum / mean accumulate each index's row into its bag in index order, in the weight's dtype
  (float32 for float16/bfloat16, rounded once); mean divides by max(bag size, 1).
- The fast sum path (float weights with unit row stride, no padding_idx) walks the offsets
  directly and returns an empty offset2bag; every other case maps indices to bags through
  offset2bag (PyTorch's make_offset2bag: with include_last_offset the last bag runs to the
  end of the indices there, to offsets[-1] on the fast path).
- max keeps the first strictly greater value per feature (a NaN replaces nothing) and
  its row in max_indices; an empty bag gives zeros.
- backward: sum/mean scatter the scaled gradient rows in sorted-index order, with PyTorch's
  scale_grad_by_freq divisor (the count of the i-th sorted index for the i-th distinct one);
  max adds each bag's gradient at its argmax rows.
"""

from __future__ import annotations

from typing import Any

import numpy as np

from ...aten.nn import embedding_bag as E
from ...tensor._tensor import Tensor
from ...tensor.dtype import promote_types
from ._kernel import fix_empty, kernel, wrap
from .backward_ops import _comp

__all__: list[str] = []


def _index_data(indices: Tensor, offsets: Tensor) -> tuple[np.ndarray, np.ndarray, Any]:
    itype = promote_types(indices._dtype, offsets._dtype)
    idx = indices._data.reshape(-1).astype(itype.np, copy=False)
    off = offsets._data.reshape(-1).astype(itype.np, copy=False)
    return idx, off, itype


def _offset2bag(off: np.ndarray, n: int, dt: np.dtype) -> np.ndarray:
    o2b = np.zeros(n + 1, dt)
    np.add.at(o2b, off, 1)
    o2b[0] -= 1
    return np.cumsum(o2b, dtype=dt)[:n]


def _check_values(idx: np.ndarray, off: np.ndarray, vocab: int, max_mode: bool) -> None:
    if off.size:
        if off[0] != 0:
            raise RuntimeError(
                "offsets[0] has to be 0, i.e., the first sequence in the mini-batch has to start "
                f"from position 0. However, got {int(off[0])}"
            )
        if off[-1] > idx.size:
            raise RuntimeError(
                f"offsets[-1] can not be greater than input's length {idx.size} but got "
                f"offsets[-1] of {int(off[-1])}"
            )
    bad = np.flatnonzero((idx < 0) | (idx >= vocab))
    if bad.size:
        i = int(bad[0])
        if max_mode:  # embedding_bag_cpu_max_out checks each index itself
            raise RuntimeError(
                "embedding_bag: Expected idx >= 0 && idx < num_embeddings but found idx to be "
                f"{int(idx[i])}"
            )
        raise RuntimeError(
            f"Index {i} of input takes value {int(idx[i])} which is not in the valid range "
            f"[0, {vocab})"
        )


def _forward(
    weight: Tensor,
    indices: Tensor,
    offsets: Tensor,
    mode: int,
    psw: Tensor | None,
    last: bool,
    padding_idx: int,
    requires_grad: bool,
) -> tuple[Tensor, Tensor, Tensor, Tensor]:
    metas = E.bag_metas(weight, indices, offsets, mode, psw, last, padding_idx, requires_grad)
    idx, off, itype = _index_data(indices, offsets)
    dt = weight._dtype
    comp = _comp(dt)
    w = weight._data.astype(comp, copy=False)
    n, (vocab, dim) = idx.size, w.shape
    bags = metas[0]._data.shape[0]
    fast = mode == E.MODE_SUM and E.is_fast_path(weight, psw, padding_idx)
    _check_values(idx, off, vocab, mode == E.MODE_MAX)
    out = np.zeros((bags, dim), comp)
    if fast:
        ends = np.append(off, n) if not last else off
        rows = np.repeat(np.arange(bags), np.diff(ends[: bags + 1]))
        span = slice(int(ends[0]), int(ends[bags]))
        o2b = np.zeros(0, itype.np)
    else:
        o2b = _offset2bag(off[:bags] if last else off, n, itype.np)
        # with include_last_offset only the indices before offsets[-1] are summed (the bag
        # sizes still count to the end; max mode walks every index); without bags offset2bag
        # is all -1 and sums nothing
        span = slice(0, int(off[bags]) if last and mode != E.MODE_MAX else n)
        rows = o2b[span]
    take = idx[span]
    keep = (take != padding_idx) & (rows >= 0)
    sizes = np.zeros(bags, itype.np)
    if mode != E.MODE_SUM or requires_grad:
        ends = np.append(off[1:bags], n) if bags else off[:0]
        sizes = (ends - off[:bags]).astype(itype.np)
        if not fast:
            np.subtract.at(sizes, rows[(take == padding_idx) & (rows >= 0)], 1)
    max_idx = None
    if mode == E.MODE_MAX:
        out, max_idx = _bag_max(w, rows[keep], take[keep], bags, itype.np)
    else:
        vals = w[take[keep]]
        if psw is not None:
            vals = vals * psw._data.astype(comp, copy=False)[span][keep][:, None]
        np.add.at(out, rows[keep], vals)
        if mode == E.MODE_MEAN:
            out = out / np.maximum(sizes, 1).astype(comp)[:, None]
    if mode == E.MODE_SUM:
        sizes = np.zeros(metas[2]._data.shape, itype.np)
    if max_idx is None:
        max_idx = sizes.copy()
    return (
        wrap(fix_empty(out.astype(dt.np, copy=False)), dt),
        wrap(fix_empty(o2b), itype),
        wrap(fix_empty(sizes), itype),
        wrap(fix_empty(max_idx), itype),
    )


def _bag_max(
    w: np.ndarray, rows: np.ndarray, take: np.ndarray, bags: int, itype: np.dtype
) -> tuple[np.ndarray, np.ndarray]:
    """Per bag and feature, the first strictly greatest row (rows are non-decreasing)."""
    dim = w.shape[1]
    out = np.zeros((bags, dim), w.dtype)
    arg = np.zeros((bags, dim), itype)
    seen = np.zeros(bags, bool)
    # the k-th member of each bag, k = 0, 1, ...: one vectorised step per position
    first = np.r_[True, rows[1:] != rows[:-1]] if rows.size else rows.astype(bool)
    start = np.maximum.accumulate(np.where(first, np.arange(rows.size), 0)) if rows.size else rows
    pos = np.arange(rows.size) - start
    for k in range(int(pos.max()) + 1 if pos.size else 0):
        sel = pos == k
        b, r = rows[sel], take[sel]
        cand = w[r]
        if k == 0:
            out[b], arg[b] = cand, r[:, None]
            seen[b] = True
            continue
        better = cand > out[b]
        out[b] = np.where(better, cand, out[b])
        arg[b] = np.where(better, r[:, None], arg[b])
    return out, arg


@kernel("_embedding_bag")
def _embedding_bag(
    weight: Tensor,
    indices: Tensor,
    offsets: Tensor,
    scale_grad_by_freq: bool = False,
    mode: int = 0,
    sparse: bool = False,
    per_sample_weights: Tensor | None = None,
    include_last_offset: bool = False,
    padding_idx: int = -1,
) -> tuple[Tensor, Tensor, Tensor, Tensor]:
    return _forward(
        weight, indices, offsets, mode, per_sample_weights, include_last_offset, padding_idx, True
    )


@kernel("_embedding_bag_forward_only")
def _embedding_bag_forward_only(
    weight: Tensor,
    indices: Tensor,
    offsets: Tensor,
    scale_grad_by_freq: bool = False,
    mode: int = 0,
    sparse: bool = False,
    per_sample_weights: Tensor | None = None,
    include_last_offset: bool = False,
    padding_idx: int = -1,
) -> tuple[Tensor, Tensor, Tensor, Tensor]:
    return _forward(
        weight, indices, offsets, mode, per_sample_weights, include_last_offset, padding_idx, False
    )


@kernel("_embedding_bag_dense_backward")
def _embedding_bag_dense_backward(
    grad: Tensor,
    indices: Tensor,
    offset2bag: Tensor,
    bag_size: Tensor,
    maximum_indices: Tensor,
    num_weights: int,
    scale_grad_by_freq: bool,
    mode: int,
    per_sample_weights: Tensor | None,
    padding_idx: int = -1,
) -> Tensor:
    meta = E._embedding_bag_dense_backward(
        grad, indices, offset2bag, bag_size, maximum_indices, num_weights, scale_grad_by_freq,
        mode, per_sample_weights, padding_idx,
    )  # fmt: skip
    dt = grad._dtype
    comp = _comp(dt)
    g = grad._data.astype(comp, copy=False)
    out = np.zeros(meta._data.shape, comp)
    sizes = bag_size._data.reshape(-1)
    if mode == E.MODE_MAX:
        nonempty = np.flatnonzero(sizes)
        mi = maximum_indices._data[nonempty]
        cols = np.broadcast_to(np.arange(g.shape[1]), mi.shape)
        np.add.at(out, (mi, cols), g[nonempty])
        return wrap(out.astype(dt.np, copy=False), dt)
    idx = indices._data.reshape(-1)
    order = np.argsort(idx, kind="stable")
    sidx = idx[order]
    source = offset2bag._data.reshape(-1)[order]
    scale = np.ones(sidx.size)
    if per_sample_weights is not None:
        scale = per_sample_weights._data.reshape(-1)[order].astype(np.float64)
    if scale_grad_by_freq and sidx.size:
        counts = np.bincount(sidx, minlength=int(num_weights))
        group = np.cumsum(np.r_[True, sidx[1:] != sidx[:-1]]) - 1
        # PyTorch divides the i-th distinct index's gradients by the count of the i-th
        # *sorted* index (counts[indices_data[i]]), not of the distinct index itself
        scale = scale / counts[sidx[group]]
    if mode == E.MODE_MEAN:
        bs = sizes[source]
        scale = np.where(bs != 0, scale / np.where(bs != 0, bs, 1), scale)
    # a rebuilt offset2bag can name bags past the gradient's rows (include_last_offset, no
    # bags): PyTorch reads past its buffer there; those rows add nothing here
    keep = (sidx != padding_idx) & (source >= 0) & (source < g.shape[0])
    rows = g[source[keep]] * scale[keep].astype(comp)[:, None]
    np.add.at(out, sidx[keep], rows)
    return wrap(out.astype(dt.np, copy=False), dt)


@kernel("_embedding_bag_per_sample_weights_backward")
def _embedding_bag_per_sample_weights_backward(
    grad: Tensor,
    weight: Tensor,
    indices: Tensor,
    offsets: Tensor,
    offset2bag: Tensor,
    mode: int,
    padding_idx: int = -1,
) -> Tensor:
    E._embedding_bag_per_sample_weights_backward(
        grad, weight, indices, offsets, offset2bag, mode, padding_idx
    )
    idx, off, itype = _index_data(indices, offsets)
    dt = grad._dtype
    comp = _comp(dt)
    o2b = offset2bag._data.reshape(-1)
    if idx.size and not o2b.size:
        o2b = _offset2bag(off, idx.size, itype.np)
    g = grad._data.astype(comp, copy=False)
    w = weight._data.astype(comp, copy=False)
    out = np.zeros(idx.size, comp)
    keep = idx != padding_idx
    out[keep] = np.einsum("ij,ij->i", g[o2b[keep]], w[idx[keep]])
    return wrap(fix_empty(out.astype(dt.np, copy=False)), dt)


@kernel("_embedding_bag_backward")
def _embedding_bag_backward(
    grad: Tensor,
    indices: Tensor,
    offsets: Tensor,
    offset2bag: Tensor,
    bag_size: Tensor,
    maximum_indices: Tensor,
    num_weights: int,
    scale_grad_by_freq: bool,
    mode: int,
    sparse: bool,
    per_sample_weights: Tensor | None,
    padding_idx: int = -1,
) -> Tensor:
    E._embedding_bag_backward(
        grad, indices, offsets, offset2bag, bag_size, maximum_indices, num_weights,
        scale_grad_by_freq, mode, sparse, per_sample_weights, padding_idx,
    )  # fmt: skip
    idx, off, itype = _index_data(indices, offsets)
    if idx.size and not offset2bag.numel():  # the fast sum path skipped it: from the offsets
        offset2bag = wrap(_offset2bag(off, idx.size, itype.np), itype)
    return _embedding_bag_dense_backward(
        grad, wrap(idx, itype), offset2bag, bag_size, maximum_indices, num_weights,
        scale_grad_by_freq, mode, per_sample_weights, padding_idx,
    )  # fmt: skip
