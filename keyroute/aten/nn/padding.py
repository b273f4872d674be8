"""Padding: constant_pad_nd, the reflection/replication pad operators and the pad decomposition."""

from __future__ import annotations

from collections.abc import Sequence

from ...tensor._tensor import Tensor
from .. import _shape
from .._define import composite, meta
from .._meta_util import check, new_meta, shape_of
from .._variants import out_variant, same_dtype
from ..linalg import op
from ._common import _not_implemented

# ----------------------------------------------------------------------------- padding


def constant_pad_shape(self: Tensor, pad: Sequence[int]) -> tuple[int, ...]:
    pad = [int(p) for p in pad]
    check(len(pad) % 2 == 0, f"Length of pad must be even but instead it equals {len(pad)}")
    shape = shape_of(self)
    l_inp, l_pad = len(shape), len(pad) // 2
    check(
        l_inp >= l_pad,
        f"Length of pad should be no more than twice the number of dimensions of the input. Pad "
        f"length is {len(pad)}while the input has {l_inp}dimensions.",
    )
    l_diff = l_inp - l_pad
    for i in range(l_diff, l_inp):
        # Negative pads narrow first (left, then right): narrow's own error.
        k = 2 * (l_inp - i - 1)
        cur = shape[i]
        for p in (pad[k], pad[k + 1]):
            if p < 0:
                check(cur + p >= 0, "narrow(): length must be non-negative.")
                cur += p
    new = list(shape[:l_diff])
    for i in range(l_pad):
        idx = len(pad) - (i + 1) * 2
        size = shape[l_diff + i] + pad[idx] + pad[idx + 1]
        check(
            size >= 0,
            f"The input size {shape[l_diff + i]}, plus negative padding {pad[idx]} and "
            f"{pad[idx + 1]} resulted in a negative output size, which is invalid. Check "
            f"dimension {l_diff + i} of your input.",
        )
        new.append(size)
    return tuple(new)


@meta("constant_pad_nd(Tensor self, SymInt[] pad, Scalar value=0) -> Tensor")
def constant_pad_nd(self, pad, value=0):
    shape = constant_pad_shape(self, pad)
    if all(int(p) <= 0 for p in pad):
        # self narrowed, then cloned: dense strides in self's memory order.
        return new_meta(
            shape, self._dtype, _shape.elementwise_strides(shape, [(shape, self.stride())])
        )
    return new_meta(shape, self._dtype)


out_variant(
    "constant_pad_nd.out(Tensor self, SymInt[] pad, Scalar value=0, *, Tensor(a!) out) -> "
    "Tensor(a!)",
    "constant_pad_nd",
    check=same_dtype,
)

_PAD_MODES = ("constant", "reflect", "replicate", "circular")


def index_pad_shape(name: str, self: Tensor, padding: Sequence[int], nd: int) -> tuple[int, ...]:
    """reflection_pad{nd}d / replication_pad{nd}d: PyTorch's checks and the output shape."""
    pad = [int(p) for p in padding]
    s = shape_of(self)
    dims = len(s)
    check(len(pad) == 2 * nd, f"padding size is expected to be {2 * nd}, but got: {len(pad)}")
    batch_ok = dims in (nd + 1, nd + 2) and all(x != 0 for x in s[dims - nd - 1 :])
    check(
        batch_ok,
        f"Expected {nd + 1}D or {nd + 2}D (batch mode) tensor with possibly 0 batch size and "
        f"other non-zero dimensions for input, but got: {list(s)}",
    )
    out = list(s)
    for i in range(nd):
        dim = dims - 1 - i
        lo, hi = pad[2 * i], pad[2 * i + 1]
        if name.startswith("reflection"):
            check(
                lo < s[dim] and hi < s[dim],
                f"Argument #{4 + 2 * i}: Padding size should be less than the corresponding "
                f"input dimension, but got: padding ({lo}, {hi}) at dimension {dim} of input "
                f"{list(s)}",
            )
        out[dim] = s[dim] + lo + hi
        check(
            out[dim] >= 1,
            f"input (H: {s[dim]}) is too small. Calculated output H: {out[dim]}",
        )
    if self._dtype.category == 0:
        _not_implemented(f"{name}", self._dtype)
    return tuple(out)


def _index_pad_op(name: str, nd: int) -> None:
    schema = f"{name}(Tensor self, SymInt[{2 * nd}] padding) -> Tensor"

    def meta_fn(self: Tensor, padding: Sequence[int]) -> Tensor:
        return new_meta(index_pad_shape(name, self, padding, nd), self._dtype)

    meta_fn.__name__ = name
    meta(schema)(meta_fn)
    out_variant(
        f"{name}.out(Tensor self, SymInt[{2 * nd}] padding, *, Tensor(a!) out) -> Tensor(a!)",
        name,
        check=same_dtype,
    )


for _nd in (1, 2, 3):
    _index_pad_op(f"reflection_pad{_nd}d", _nd)
    _index_pad_op(f"replication_pad{_nd}d", _nd)


@composite("_pad_circular(Tensor self, SymInt[] pad) -> Tensor")
def _pad_circular(self, pad):
    pad = [int(p) for p in pad]
    in_shape = list(shape_of(self))
    ndim = len(in_shape)
    npad = len(pad) // 2
    nnon = ndim - npad
    check(
        nnon in (1, 2),
        f"Invalid padding size, expected 1 or 2 non-padded dimensions, which would be equivalent "
        f"to padding of length {(ndim - 1) * 2} or {(ndim - 2) * 2} respectively but got "
        f"{len(pad)}",
    )
    out_shape = list(in_shape)
    for i in range(npad):
        lo, hi = pad[2 * (npad - i - 1)], pad[2 * (npad - i - 1) + 1]
        size = in_shape[nnon + i]
        out_shape[nnon + i] = size + lo + hi
        check(lo <= size and hi <= size, "Padding value causes wrapping around more than once.")
        check(
            out_shape[nnon + i] >= 0,
            "Negative padding value is resulting in an empty dimension",
        )
    out = op("new_empty")(self, out_shape)
    slice_ = op("slice.Tensor")
    out_slice, in_slice = out, self
    for i in range(npad):
        dim = npad - i + nnon - 1
        lo, hi = pad[2 * i], pad[2 * i + 1]
        out_slice = slice_(out_slice, dim, max(lo, 0), out_shape[dim] - max(hi, 0))
        in_slice = slice_(in_slice, dim, max(-lo, 0), in_shape[dim] - max(-hi, 0))
    op("copy_")(out_slice, in_slice)
    for i in range(npad):
        dim = npad - i + nnon - 1
        lo, hi = pad[2 * i], pad[2 * i + 1]
        if lo > 0:
            dst = slice_(out, dim, 0, lo)
            src = slice_(out, dim, out_shape[dim] - lo - max(hi, 0), out_shape[dim] - max(hi, 0))
            op("copy_")(dst, src)
        if hi > 0:
            dst = slice_(out, dim, out_shape[dim] - hi, out_shape[dim])
            src = slice_(out, dim, max(lo, 0), max(lo, 0) + hi)
            op("copy_")(dst, src)
    return out


@composite('pad(Tensor self, SymInt[] pad, str mode="constant", float? value=None) -> Tensor')
def pad(self, pad, mode="constant", value=None):
    if mode not in _PAD_MODES:
        raise NotImplementedError(f"Unrecognised padding mode {mode}")
    pad = [int(p) for p in pad]
    dim = self.dim()
    check(len(pad) % 2 == 0, "Padding length must be divisible by 2")
    check(
        len(pad) <= 2 * dim,
        f"Padding length should be less than or equal to two times the input dimension but got "
        f"padding length {len(pad)} and input of dimension {dim}",
    )
    if mode == "constant":
        return op("constant_pad_nd")(self, pad, 0.0 if value is None else value)
    check(
        value is None or value == 0,
        f'Padding mode "{mode}" doesn\'t take in value argument',
    )
    nd = len(pad) // 2
    if not (nd in (1, 2, 3) and dim in (nd + 1, nd + 2)):
        raise NotImplementedError(
            f"Padding size {len(pad)} is not supported for {dim}D input tensor."
        )
    if mode == "reflect":
        return op(f"reflection_pad{nd}d")(self, pad)
    if mode == "replicate":
        return op(f"replication_pad{nd}d")(self, pad)
    return op("_pad_circular")(self, pad)
