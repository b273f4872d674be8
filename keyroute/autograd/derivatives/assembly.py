"""Derivative formulas of the assembly operators (aten/assembly.py)."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from ..._ops import ops
from ._registry import _shape, _zeros, derivative

aten = ops.aten


# ----------------------------------------------------------------------------- assembly


@derivative(
    "cat",
    "CatBackward0",
    save=("dim",),
    computed={"shapes": lambda v: [tuple(t.shape) for t in v["tensors"]]},
)
def _cat(grad, dim, shapes):
    nd = grad.dim()
    d = dim % nd if nd else 0
    out = []
    start = 0
    for s in shapes:
        if len(s) == 1 and s[0] == 0 and nd != 1:  # legacy empty tensors take no part
            out.append(aten.zeros.default([0], dtype=grad._dtype, device=grad.device))
            continue
        size = s[d]
        out.append(aten.slice.Tensor(grad, d, start, start + size, 1))
        start += size
    return tuple(out)


@derivative("stack", "StackBackward0", save=("dim",), computed={"n": lambda v: len(v["tensors"])})
def _stack(grad, dim, n):
    return tuple(aten.unbind.int(grad, dim % grad.dim()))


@derivative("flip", "FlipBackward0", save=("dims",))
def _flip(grad, dims):
    return (aten.flip.default(grad, list(dims)),)


@derivative("roll", "RollBackward0", save=("shifts", "dims"))
def _roll(grad, shifts, dims):
    return (aten.roll.default(grad, [-s for s in shifts], list(dims)),)


@derivative("rot90", "Rot90Backward0", save=("k", "dims"))
def _rot90(grad, k, dims):
    return (aten.rot90.default(grad, -k, list(dims)),)


@derivative("tril", "TrilBackward0", save=("diagonal",))
def _tril(grad, diagonal):
    return (aten.tril.default(grad, diagonal),)


@derivative("triu", "TriuBackward0", save=("diagonal",))
def _triu(grad, diagonal):
    return (aten.triu.default(grad, diagonal),)


@derivative("repeat", "RepeatBackward0", save=("repeats",), computed={"s": _shape("self")})
def _repeat(grad, repeats, s):
    extra = len(repeats) - len(s)
    if extra:
        grad = aten.sum.dim_IntList(grad, list(range(extra)), False)
    shape = []
    for r, size in zip(repeats[extra:], s):
        shape += [r, size]
    if not shape:
        return (grad,)
    g = aten.reshape.default(grad, shape)
    g = aten.sum.dim_IntList(g, list(range(0, len(shape), 2)), False)
    return (g,)


@derivative(
    "unfold", "UnfoldBackward0", save=("dimension", "size", "step"), computed={"s": _shape("self")}
)
def _unfold(grad, dimension, size, step, s):
    if not s:  # a 0-d tensor unfolds to one window of one element
        return (aten.reshape.default(grad, []),)
    out = _zeros(s, grad)
    d = dimension % max(len(s), 1)
    windows = grad.shape[d] if s else 1
    for i in range(windows):
        piece = aten.movedim.int(aten.select.int(grad, d, i), -1, d) if s else grad
        region = aten.slice.Tensor(out, d, i * step, i * step + size, 1)
        aten.add_.Tensor(region, piece)
    return (out,)


@derivative(
    "constant_pad_nd", "ConstantPadNdBackward0", save=("pad",), computed={"s": _shape("self")}
)
def _constant_pad(grad, pad, s):
    g = grad
    nd = len(s)
    for i in range(len(pad) // 2):
        d = nd - 1 - i
        left, right = pad[2 * i], pad[2 * i + 1]
        start = left if left > 0 else 0
        length = s[d] + min(left, 0) + min(right, 0)
        g = aten.slice.Tensor(g, d, start, start + max(length, 0), 1)
    if tuple(g.shape) != tuple(s):
        out = _zeros(s, grad)
        # Negative padding cropped the input: gradient flows to the kept region only.
        region = out
        for i in range(len(pad) // 2):
            d = nd - 1 - i
            left, right = pad[2 * i], pad[2 * i + 1]
            region = aten.slice.Tensor(region, d, max(-left, 0), s[d] - max(-right, 0), 1)
        aten.copy_.default(region, g)
        g = out
    return (g,)


def _pad_index(size: int, left: int, right: int, mode: str) -> list[int]:
    idx = []
    for p in range(-left, size + right):
        if mode == "reflect":
            q = abs(p)
            q = 2 * (size - 1) - q if q > size - 1 else q
        else:
            q = min(max(p, 0), size - 1)
        idx.append(q)
    return idx


def _pad_backward(grad: Any, s: tuple[int, ...], padding: Sequence[int], mode: str) -> Any:
    g = grad
    nd = len(s)
    for i in range(len(padding) // 2):
        d = nd - 1 - i
        idx = _pad_index(s[d], padding[2 * i], padding[2 * i + 1], mode)
        shape = list(g.shape)
        shape[d] = s[d]
        target = aten.zeros.default(shape, dtype=grad._dtype, device=grad.device)
        from ..._api.creation import tensor as _tensor

        index = _tensor(idx)
        g = aten.index_add.default(target, d, index, g)
    return g


for _dims in (1, 2, 3):
    derivative(
        f"reflection_pad{_dims}d",
        f"ReflectionPad{_dims}DBackward0",
        save=("padding",),
        computed={"s": _shape("self")},
    )(lambda grad, padding, s: (_pad_backward(grad, s, padding, "reflect"),))
    derivative(
        f"replication_pad{_dims}d",
        f"ReplicationPad{_dims}DBackward0",
        save=("padding",),
        computed={"s": _shape("self")},
    )(lambda grad, padding, s: (_pad_backward(grad, s, padding, "replicate"),))
