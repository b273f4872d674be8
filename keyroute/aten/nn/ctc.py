"""Connectionist temporal classification, as LossCTC.cpp: `_ctc_loss` (CPU kernel in
kernels/cpu/ctc.py: the log-space alpha recursion, returning (neg_log_likelihood, log_alpha))
and `_ctc_loss_backward` (the beta recursion and eq. 16 of Graves et al.), with their `.Tensor`
overloads taking the lengths as tensors; `ctc_loss` (CompositeImplicitAutograd) calls
_ctc_loss, zeroes infinite losses with zero_infinity, then reduces (mean: each loss divided by
its clamped target length, then the mean). Derivatives in autograd/derivatives/ctc.py.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

import numpy as np

from ...tensor._tensor import Tensor
from ...tensor.dtype import int64
from .._define import composite, meta
from .._meta_util import check, new_meta, shape_of
from .._variants import out_variant
from ..linalg import op, subclass_like

__all__ = ["ctc_lengths", "ctc_check"]


def ctc_lengths(lengths: Any, what: str) -> list[int]:
    """An int[] or a tensor of lengths as a list (the .Tensor overloads' CPU copy)."""
    if isinstance(lengths, Tensor):
        check(
            not lengths._dtype.is_floating_point
            and not lengths._dtype.is_complex
            and lengths._dtype.name != "bool",
            f"{what} must be integral",
        )
        return [int(v) for v in lengths.reshape(-1).tolist()]
    return [int(v) for v in lengths]


def ctc_check(
    log_probs: Tensor, targets: Tensor, il: Sequence[int], tl: Sequence[int], blank: int
) -> int:
    """ctc_loss_cpu_template's argument checks; returns the longest target length."""
    c = "ctc_loss_allocate_outputs"
    check(
        targets._dtype is int64 or targets._dtype.name == "int32",
        f"Expected tensor for argument #2 'targets' to have one of the following scalar types: "
        f"Int, Long; but got torch.{targets._dtype._short}Tensor instead (while checking "
        f"arguments for {c})",
    )
    check(
        log_probs.dim() == 3,
        f"Expected 3-dimensional tensor, but got {log_probs.dim()}-dimensional tensor for "
        f"argument #1 'log_probs' (while checking arguments for {c})",
    )
    check(
        1 <= targets.dim() < 3,
        f"Expected 1 to 2 dimensions, but got {targets.dim()}-dimensional tensor for argument "
        f"#2 'targets' (while checking arguments for {c})",
    )
    t_len, batch, labels = shape_of(log_probs)
    check(0 <= blank < labels, "blank must be in label range")
    check(len(il) == batch, "input_lengths must be of size batch_size")
    check(len(tl) == batch, "target_lengths must be of size batch_size")
    for v in tl:
        check(
            v >= 0,
            f"Expected target_lengths to have value at least 0, but got value {v} (while "
            f"checking arguments for {c})",
        )
    longest = max(tl, default=0)
    if targets.dim() == 1:
        total = sum(tl)
        check(
            targets.shape[0] == total,
            f"Expected tensor to have size {total} at dimension 0, but got size "
            f"{targets.shape[0]} for argument #2 'targets' (while checking arguments for {c})",
        )
    else:
        check(
            targets.shape[0] == batch,
            f"Expected tensor to have size {batch} at dimension 0, but got size "
            f"{targets.shape[0]} for argument #2 'targets' (while checking arguments for {c})",
        )
        check(
            targets.shape[1] >= longest,
            f"Expected tensor to have size at least {longest} at dimension 1, but got size "
            f"{targets.shape[1]} for argument #2 'targets' (while checking arguments for {c})",
        )
    for v in il:
        check(
            v >= 0,
            f"Expected input_lengths to have value at least 0, but got value {v} (while "
            f"checking arguments for {c})",
        )
        check(
            v <= t_len,
            f"Expected input_lengths to have value at most {t_len}, but got value {v} (while "
            f"checking arguments for {c})",
        )
    return longest


def _forward_meta(log_probs, targets, input_lengths, target_lengths, blank=0, zero_infinity=False):
    il = ctc_lengths(input_lengths, "input_lengths")
    tl = ctc_lengths(target_lengths, "target_lengths")
    longest = ctc_check(log_probs, targets, il, tl, blank)
    t_len, batch, _ = shape_of(log_probs)
    return (
        new_meta([batch], log_probs._dtype),
        new_meta([batch, t_len, 2 * longest + 1], log_probs._dtype),
    )


_FWD = "Tensor log_probs, Tensor targets, {L} input_lengths, {L} target_lengths, int blank=0"
for _ov, _lt in (("", "int[]"), ("Tensor", "Tensor")):
    _name = "_ctc_loss" + (f".{_ov}" if _ov else "")
    _args = _FWD.format(L=_lt) + ", bool zero_infinity=False"
    meta(f"{_name}({_args}) -> (Tensor, Tensor)")(_forward_meta)
    _out = "out" if not _ov else "Tensor_out"
    out_variant(
        f"_ctc_loss.{_out}({_args}, *, Tensor(a!) out0, Tensor(b!) out1) -> "
        "(Tensor(a!), Tensor(b!))",
        _name,
        ("out0", "out1"),
    )


def _backward_meta(
    grad, log_probs, targets, input_lengths, target_lengths, nll, log_alpha, blank, zi=False
):
    # at::full_like(log_probs, ..., LEGACY_CONTIGUOUS_MEMORY_FORMAT)
    return new_meta(list(shape_of(log_probs)), log_probs._dtype)


_BWD = (
    "Tensor grad, Tensor log_probs, Tensor targets, {L} input_lengths, {L} target_lengths, "
    "Tensor neg_log_likelihood, Tensor log_alpha, int blank, bool zero_infinity=False"
)
meta(f"_ctc_loss_backward({_BWD.format(L='int[]')}) -> Tensor")(_backward_meta)
meta(f"_ctc_loss_backward.Tensor({_BWD.format(L='Tensor')}) -> Tensor")(_backward_meta)
out_variant(
    f"_ctc_loss_backward.out({_BWD.format(L='int[]')}, *, Tensor(a!) out) -> Tensor(a!)",
    "_ctc_loss_backward",
)


def _reduce(res: Tensor, tl: Any, reduction: int, zero_infinity: bool, batched: bool):
    if zero_infinity:
        zero = op("zeros")([], dtype=res._dtype, layout=None, device=res.device)
        res = op("where.self")(op("eq.Scalar")(res, float("inf")), zero, res)
    if reduction == 1:
        if isinstance(tl, Tensor):  # the subclass-like path: the lengths stay tensors
            lengths = op("_to_copy")(tl, dtype=res._dtype)
        else:
            # at::tensor(target_lengths, res.options()): an empty tensor filled directly.
            lengths = op("empty.memory_format")([len(tl)], dtype=res._dtype, device=res.device)
            if isinstance(lengths._data, np.ndarray):  # not on meta or fake tensors
                lengths._data[...] = np.asarray(tl, dtype=lengths._data.dtype)
        lengths = op("clamp_min")(lengths, 1)
        return op("mean")(op("div.Tensor")(res, lengths))
    if reduction == 2:
        return op("sum")(res)
    return res if batched else op("squeeze.dim")(res, 0)


def _ctc(log_probs, targets, input_lengths, target_lengths, blank, reduction, zero_infinity):
    batched = log_probs.dim() == 3
    lp = log_probs if batched else op("unsqueeze")(log_probs, 1)
    if isinstance(input_lengths, Tensor):
        il = (
            ctc_lengths(input_lengths, "input_lengths")
            if input_lengths.device.type != "meta"
            else None
        )
        tl = (
            ctc_lengths(target_lengths, "target_lengths")
            if target_lengths.device.type != "meta"
            else None
        )
        if subclass_like(log_probs, targets, input_lengths, target_lengths) or il is None:
            # PyTorch's composite-compliant path (a mode or a tensor subclass sees it).
            if targets._dtype is not int64:
                targets = op("_to_copy")(targets, dtype=int64)
            res = op("_ctc_loss.Tensor")(
                lp, targets, input_lengths, target_lengths, blank, zero_infinity
            )[0]
            return _reduce(res, target_lengths, reduction, zero_infinity, batched)
        input_lengths, target_lengths = il, tl
    if targets._dtype is not int64:
        targets = op("_to_copy")(targets, dtype=int64)
    tl = [int(v) for v in target_lengths]
    res = op("_ctc_loss")(lp, targets, [int(v) for v in input_lengths], tl, blank, zero_infinity)[0]
    return _reduce(res, tl, reduction, zero_infinity, batched)


_CTC = (
    "Tensor log_probs, Tensor targets, {L} input_lengths, {L} target_lengths, int blank=0, "
    "int reduction=1, bool zero_infinity=False"
)


@composite(f"ctc_loss.IntList({_CTC.format(L='int[]')}) -> Tensor")
def ctc_loss_intlist(
    log_probs, targets, input_lengths, target_lengths, blank=0, reduction=1, zero_infinity=False
):
    return _ctc(log_probs, targets, input_lengths, target_lengths, blank, reduction, zero_infinity)


@composite(f"ctc_loss.Tensor({_CTC.format(L='Tensor')}) -> Tensor")
def ctc_loss_tensor(
    log_probs, targets, input_lengths, target_lengths, blank=0, reduction=1, zero_infinity=False
):
    return _ctc(log_probs, targets, input_lengths, target_lengths, blank, reduction, zero_infinity)
