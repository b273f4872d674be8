"""Sliding blocks: im2col (F.unfold) and col2im (F.fold) with Im2Col.h's shape checks, and
pixel_shuffle / pixel_unshuffle as the aten operators PyTorch's functions call. Kernels in
kernels/cpu/fold.py, derivatives in autograd/derivatives/fold.py."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from ...tensor._tensor import Tensor
from .. import _shape
from .._define import meta
from .._meta_util import check, new_meta, shape_of
from .._variants import out_variant, same_dtype
from ._common import _not_implemented

__all__ = ["im2col_shape", "col2im_shape", "pixel_shuffle_shape", "pixel_unshuffle_shape"]


def _div_rtn(a: int, b: int) -> int:
    # div_rtn: division rounding toward negative infinity.
    return a // b


def _float_only(kernel: str, self: Tensor) -> None:
    if not (self._dtype.is_floating_point or self._dtype.is_complex):
        _not_implemented(kernel, self._dtype)


def _pairs(**kw: Sequence[int]) -> list[list[int]]:
    out = []
    for name, v in kw.items():
        v = [int(x) for x in v]
        check(len(v) == 2, f"It is expected {name} equals to 2, but got size {len(v)}")
        out.append(v)
    return out


def _common(k: list[int], d: list[int], p: list[int], s: list[int], stride_first: bool) -> None:
    check(
        k[1] > 0 and k[0] > 0,
        f"kernel size should be greater than zero, but got kernel_height: {k[0]} kernel_width: "
        f"{k[1]}",
    )
    msgs = [
        (
            d[1] > 0 and d[0] > 0,
            f"dilation should be greater than zero, but got dilation_height: {d[0]} "
            f"dilation_width: {d[1]}",
        ),
        (
            p[1] >= 0 and p[0] >= 0,
            f"padding should be non-negative, but got pad_height: {p[0]} pad_width: {p[1]}",
        ),
    ]
    st = (
        s[1] > 0 and s[0] > 0,
        f"stride should be greater than zero, but got stride_height: {s[0]} stride_width: {s[1]}",
    )
    for ok, msg in [st, *msgs] if stride_first else [*msgs, st]:
        check(ok, msg)


def im2col_shape(
    self: Tensor, kernel_size: Any, dilation: Any, padding: Any, stride: Any
) -> tuple[tuple[int, ...], list[int], list[int], list[int], list[int], int, int]:
    k, d, p, s = _pairs(kernel_size=kernel_size, dilation=dilation, padding=padding, stride=stride)
    _common(k, d, p, s, stride_first=False)
    x = shape_of(self)
    nd = len(x)
    if nd < 3:  # PyTorch reads input.size(2) first: the index error
        _shape.wrap_dim(2, nd)
    valid = x[1] != 0 and x[2] != 0
    check(
        (nd == 3 and x[0] != 0 and valid) or (nd == 4 and valid and x[3] != 0),
        f"Expected 3D or 4D (batch mode) tensor input with possible 0 batch size and non-zero "
        f"dimensions, but got: {list(x)}",
    )
    h, w = x[-2], x[-1]
    oh = _div_rtn(h + 2 * p[0] - (d[0] * (k[0] - 1) + 1), s[0]) + 1
    ow = _div_rtn(w + 2 * p[1] - (d[1] * (k[1] - 1) + 1), s[1]) + 1
    check(
        oh >= 1 and ow >= 1,
        f"Given input with spatial size ({h}, {h}), kernel_size=({k[0]}, {k[1]}), "
        f"dilation=({d[0]}, {d[1]}), padding=({p[0]}, {p[1]}), calculated shape of the array of "
        f"sliding blocks as ({oh}, {ow}), but its components must be at least one.",
    )
    _float_only("im2col_out_cpu", self)
    c = x[-3]
    out = (c * k[0] * k[1], oh * ow) if nd == 3 else (x[0], c * k[0] * k[1], oh * ow)
    return out, k, d, p, s, oh, ow


@meta(
    "im2col(Tensor self, int[2] kernel_size, int[2] dilation, int[2] padding, int[2] stride) -> "
    "Tensor"
)
def im2col(self, kernel_size, dilation, padding, stride):
    return new_meta(im2col_shape(self, kernel_size, dilation, padding, stride)[0], self._dtype)


def col2im_shape(
    self: Tensor, output_size: Any, kernel_size: Any, dilation: Any, padding: Any, stride: Any
) -> tuple[tuple[int, ...], list[int], list[int], list[int], list[int], list[int], int, int]:
    o, k, d, p, s = _pairs(
        output_size=output_size,
        kernel_size=kernel_size,
        dilation=dilation,
        padding=padding,
        stride=stride,
    )
    _common(k, d, p, s, stride_first=True)
    x = shape_of(self)
    nd = len(x)
    check(
        (nd == 2 and x[0] != 0 and x[1] != 0) or (nd == 3 and x[1] != 0 and x[2] != 0),
        f"Expected 2D or 3D (batch mode) tensor for input with possibly 0 batch size and "
        f"non-zero dimensions for input, but got: {list(x)}",
    )
    planes, length = x[-2], x[-1]
    check(
        planes % (k[0] * k[1]) == 0,
        f"Expected size of input's dimension 1 to be divisible by the product of kernel_size, "
        f"but got input.size(1)={planes} and kernel_size=({k[0]}, {k[1]}).",
    )
    bh = _div_rtn(o[0] + 2 * p[0] - d[0] * (k[0] - 1) - 1, s[0]) + 1
    bw = _div_rtn(o[1] + 2 * p[1] - d[1] * (k[1] - 1) - 1, s[1]) + 1
    desc = (
        f"Given output_size=({o[0]}, {o[1]}), kernel_size=({k[0]}, {k[1]}), dilation=({d[0]}, "
        f"{d[1]}), padding=({p[0]}, {p[1]}), stride=({s[0]}, {s[1]}), "
    )
    check(
        length == bh * bw,
        f"{desc}expected size of input's dimension 2 to match the calculated number of sliding "
        f"blocks {bh} * {bw} = {bh * bw}, but got input.size(2)={length}.",
    )
    check(
        bh >= 1 and bw >= 1,
        f"{desc}calculated shape of the array of sliding blocks as ({bh}, {bw}), which is too "
        f"small (non-positive)",
    )
    check(
        o[0] >= 1 and o[1] >= 1,
        f"Expected output spatial size to be positive, but got: output_size=({o[0]}, {o[1]}).",
    )
    _float_only("col2im_out_cpu", self)
    c = planes // (k[0] * k[1])
    out = (c, o[0], o[1]) if nd == 2 else (x[0], c, o[0], o[1])
    return out, o, k, d, p, s, bh, bw


@meta(
    "col2im(Tensor self, SymInt[2] output_size, int[2] kernel_size, int[2] dilation, int[2] "
    "padding, int[2] stride) -> Tensor"
)
def col2im(self, output_size, kernel_size, dilation, padding, stride):
    shape = col2im_shape(self, output_size, kernel_size, dilation, padding, stride)[0]
    return new_meta(shape, self._dtype)


out_variant(
    "im2col.out(Tensor self, int[2] kernel_size, int[2] dilation, int[2] padding, int[2] stride,"
    " *, Tensor(a!) out) -> Tensor(a!)",
    "im2col",
    check=same_dtype,
)
out_variant(
    "col2im.out(Tensor self, SymInt[2] output_size, int[2] kernel_size, int[2] dilation, int[2] "
    "padding, int[2] stride, *, Tensor(a!) out) -> Tensor(a!)",
    "col2im",
    check=same_dtype,
)


# ----------------------------------------------------------------------------- pixel shuffle


def _pixel_strides(self: Tensor, shape: tuple[int, ...]) -> list[int] | None:
    # The output takes the input's suggested memory format (channels_last for a 4-d one).
    from .upsample import out_strides

    return out_strides(self, shape)


def pixel_shuffle_shape(self: Tensor, upscale_factor: int) -> tuple[int, ...]:
    s = shape_of(self)
    check(
        len(s) >= 3,
        f"pixel_shuffle expects input to have at least 3 dimensions, but got input with "
        f"{len(s)} dimension(s)",
    )
    r = int(upscale_factor)
    check(r > 0, f"pixel_shuffle expects a positive upscale_factor, but got {r}")
    c, h, w = s[-3:]
    check(
        c % (r * r) == 0,
        f"pixel_shuffle expects its input's 'channel' dimension to be divisible by the square of "
        f"upscale_factor, but input.size(-3)={c} is not divisible by {r * r}",
    )
    return (*s[:-3], c // (r * r), h * r, w * r)


def pixel_unshuffle_shape(self: Tensor, downscale_factor: int) -> tuple[int, ...]:
    s = shape_of(self)
    check(
        len(s) >= 3,
        f"pixel_unshuffle expects input to have at least 3 dimensions, but got input with "
        f"{len(s)} dimension(s)",
    )
    r = int(downscale_factor)
    check(r > 0, f"pixel_unshuffle expects a positive downscale_factor, but got {r}")
    c, h, w = s[-3:]
    check(
        h % r == 0,
        f"pixel_unshuffle expects height to be divisible by downscale_factor, but input.size(-2)"
        f"={h} is not divisible by {r}",
    )
    check(
        w % r == 0,
        f"pixel_unshuffle expects width to be divisible by downscale_factor, but input.size(-1)"
        f"={w} is not divisible by {r}",
    )
    return (*s[:-3], c * r * r, h // r, w // r)


@meta("pixel_shuffle(Tensor self, int upscale_factor) -> Tensor")
def pixel_shuffle(self, upscale_factor):
    shape = pixel_shuffle_shape(self, upscale_factor)
    return new_meta(shape, self._dtype, _pixel_strides(self, shape))


@meta("pixel_unshuffle(Tensor self, int downscale_factor) -> Tensor")
def pixel_unshuffle(self, downscale_factor):
    shape = pixel_unshuffle_shape(self, downscale_factor)
    return new_meta(shape, self._dtype, _pixel_strides(self, shape))


out_variant(
    "pixel_shuffle.out(Tensor self, int upscale_factor, *, Tensor(a!) out) -> Tensor(a!)",
    "pixel_shuffle",
    check=same_dtype,
)
out_variant(
    "pixel_unshuffle.out(Tensor self, int downscale_factor, *, Tensor(a!) out) -> Tensor(a!)",
    "pixel_unshuffle",
    check=same_dtype,
)
