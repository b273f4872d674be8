"""Pooling: max_pool2d_with_indices, avg_pool2d, _adaptive_avg_pool2d (meta functions, PyTorch's
shape checks) and the max_pool1d/2d, avg_pool1d, adaptive_avg_pool2d decompositions."""

from __future__ import annotations

from ...tensor.dtype import int64
from .._define import composite, meta
from .._meta_util import check, new_meta, shape_of
from .._variants import out_variant, same_dtype
from ..linalg import op
from ._common import _ints, _not_implemented

# ----------------------------------------------------------------------------- pooling


def pool_output_size(size: int, k: int, pad: int, stride: int, dil: int, ceil: bool) -> int:
    """pooling_output_shape: PyTorch's output length (the last window starts inside)."""
    check(stride != 0, "stride should not be zero")
    check(pad >= 0, f"pad must be non-negative, but got pad: {pad}")
    check(
        pad <= ((k - 1) * dil + 1) // 2,
        f"pad should be at most half of effective kernel size, but got pad={pad}, "
        f"kernel_size={k} and dilation={dil}",
    )
    num = size + 2 * pad - dil * (k - 1) - 1 + (stride - 1 if ceil else 0)
    out = num // stride + 1
    if ceil and (out - 1) * stride >= size + pad:
        out -= 1
    return out


def pool2d_params(name: str, kernel_size, stride, padding, dilation=None):
    ks = [int(x) for x in ([kernel_size] if isinstance(kernel_size, int) else kernel_size)]
    check(
        len(ks) in (1, 2),
        f"{name}: kernel_size must either be a single int, or a tuple of two ints",
    )
    kh, kw = ks[0], ks[-1]
    st = [int(x) for x in ([stride] if isinstance(stride, int) else (stride or []))]
    check(
        len(st) in (0, 1, 2),
        f"{name}: stride must either be omitted, a single int, or a tuple of two ints",
    )
    dh, dw = (kh, kw) if not st else (st[0], st[-1])
    pd = [int(x) for x in ([padding] if isinstance(padding, int) else padding)]
    check(len(pd) in (1, 2), f"{name}: padding must either be a single int, or a tuple of two ints")
    ph, pw = pd[0], pd[-1]
    if dilation is None:
        return kh, kw, dh, dw, ph, pw, 1, 1
    dl = [int(x) for x in ([dilation] if isinstance(dilation, int) else dilation)]
    check(
        len(dl) in (1, 2),
        f"{name}: dilation must be either a single int, or a tuple of two ints",
    )
    return kh, kw, dh, dw, ph, pw, dl[0], dl[-1]


def _pool2d_shape_check(input, kh, kw, dh, dw, ph, pw, dilh, dilw, oh, ow) -> None:
    check(
        kw > 0 and kh > 0,
        f"kernel size should be greater than zero, but got kH: {kh} kW: {kw}",
    )
    check(dw > 0 and dh > 0, f"stride should be greater than zero, but got dH: {dh} dW: {dw}")
    check(
        dilh > 0 and dilw > 0,
        f"dilation should be greater than zero, but got dilationH: {dilh} dilationW: {dilw}",
    )
    s = shape_of(input)
    nd = len(s)
    valid = s[1] != 0 and s[2] != 0
    check(
        (nd == 3 and s[0] != 0 and valid) or (nd == 4 and valid and s[3] != 0),
        f"Expected 3D or 4D (batch mode) tensor with optional 0 dim batch size for input, but "
        f"got:{list(s)}",
    )
    check(
        kw // 2 >= pw and kh // 2 >= ph,
        f"pad should be smaller than or equal to half of kernel size, but got padW = {pw}, "
        f"padH = {ph}, kW = {kw}, kH = {kh}",
    )
    c, ih, iw = s[-3], s[-2], s[-1]
    check(
        ow >= 1 and oh >= 1,
        f"Given input size: ({c}x{ih}x{iw}). Calculated output size: ({c}x{oh}x{ow}). Output "
        f"size is too small",
    )


@meta(
    "max_pool2d_with_indices(Tensor self, int[2] kernel_size, int[2] stride=[], int[2] padding=0, "
    "int[2] dilation=1, bool ceil_mode=False) -> (Tensor, Tensor)"
)
def max_pool2d_with_indices(self, kernel_size, stride=(), padding=0, dilation=1, ceil_mode=False):
    kh, kw, dh, dw, ph, pw, dilh, dilw = pool2d_params(
        "max_pool2d", kernel_size, stride, padding, dilation
    )
    check(self.dim() in (3, 4), "non-empty 3D or 4D (batch mode) tensor expected for input")
    s = shape_of(self)
    oh = pool_output_size(s[-2], kh, ph, dh, dilh, ceil_mode)
    ow = pool_output_size(s[-1], kw, pw, dw, dilw, ceil_mode)
    _pool2d_shape_check(self, kh, kw, dh, dw, ph, pw, dilh, dilw, oh, ow)
    if self._dtype.category == 0:
        _not_implemented("max_pool2d", self._dtype)
    shape = (*s[:-2], oh, ow)
    return new_meta(shape, self._dtype), new_meta(shape, int64)


out_variant(
    "max_pool2d_with_indices.out(Tensor self, int[2] kernel_size, int[2] stride=[], int[2] "
    "padding=0, int[2] dilation=1, bool ceil_mode=False, *, Tensor(a!) out, Tensor(b!) indices) "
    "-> (Tensor(a!), Tensor(b!))",
    "max_pool2d_with_indices",
    ("out", "indices"),
    check=same_dtype,
)


@composite(
    "max_pool2d(Tensor self, int[2] kernel_size, int[2] stride=[], int[2] padding=0, int[2] "
    "dilation=1, bool ceil_mode=False) -> Tensor"
)
def max_pool2d(self, kernel_size, stride=(), padding=0, dilation=1, ceil_mode=False):
    return op("max_pool2d_with_indices")(self, kernel_size, stride, padding, dilation, ceil_mode)[0]


@composite(
    "max_pool1d(Tensor self, int[1] kernel_size, int[1] stride=[], int[1] padding=[0], int[1] "
    "dilation=[1], bool ceil_mode=False) -> Tensor"
)
def max_pool1d(self, kernel_size, stride=(), padding=(0,), dilation=(1,), ceil_mode=False):
    check(
        self.dim() in (2, 3),
        f"max_pool1d() Expected 2D or 3D input tensor, but got {list(shape_of(self))}",
    )
    ks, st = _ints(kernel_size, 1), list(stride) if not isinstance(stride, int) else [stride]
    x = op("unsqueeze")(self, -2)
    out, indices = op("max_pool2d_with_indices")(
        x,
        [1, ks[0]],
        [1, st[0]] if st else [1, ks[0]],
        [0, _ints(padding, 1)[0]],
        [1, _ints(dilation, 1)[0]],
        ceil_mode,
    )
    out = op("squeeze.dim")(out, -2)
    op("squeeze.dim")(indices, -2)  # PyTorch squeezes both results (max_pool1d_with_indices)
    return out


def _avg_divisors(size: int, out: int, k: int, stride: int, pad: int, include_pad: bool):
    """Per-output-position window extents of avg_pool along one dimension."""
    counts = []
    for o in range(out):
        start = o * stride - pad
        end = min(start + k, size + pad)
        full = end - start
        start, end = max(start, 0), min(end, size)
        counts.append(full if include_pad else max(end - start, 0))
    return counts


@meta(
    "avg_pool2d(Tensor self, int[2] kernel_size, int[2] stride=[], int[2] padding=0, bool "
    "ceil_mode=False, bool count_include_pad=True, int? divisor_override=None) -> Tensor"
)
def avg_pool2d(
    self,
    kernel_size,
    stride=(),
    padding=0,
    ceil_mode=False,
    count_include_pad=True,
    divisor_override=None,
):
    kh, kw, dh, dw, ph, pw, _, _ = pool2d_params("avg_pool2d", kernel_size, stride, padding)
    check(divisor_override is None or divisor_override != 0, "divisor must be not zero")
    s = shape_of(self)
    check(self.dim() in (3, 4), "non-empty 3D or 4D (batch mode) tensor expected for input")
    oh = pool_output_size(s[-2], kh, ph, dh, 1, ceil_mode)
    ow = pool_output_size(s[-1], kw, pw, dw, 1, ceil_mode)
    _pool2d_shape_check(self, kh, kw, dh, dw, ph, pw, 1, 1, oh, ow)
    if self._dtype.category == 0:
        _not_implemented("avg_pool2d_out_frame", self._dtype)
    return new_meta((*s[:-2], oh, ow), self._dtype)


out_variant(
    "avg_pool2d.out(Tensor self, int[2] kernel_size, int[2] stride=[], int[2] padding=0, bool "
    "ceil_mode=False, bool count_include_pad=True, int? divisor_override=None, *, Tensor(a!) out)"
    " -> Tensor(a!)",
    "avg_pool2d",
    check=same_dtype,
)


@composite(
    "avg_pool1d(Tensor self, int[1] kernel_size, int[1] stride=[], int[1] padding=[0], bool "
    "ceil_mode=False, bool count_include_pad=True) -> Tensor"
)
def avg_pool1d(self, kernel_size, stride=(), padding=(0,), ceil_mode=False, count_include_pad=True):
    check(
        self.dim() in (2, 3),
        f"avg_pool1d() Expected 2D or 3D input tensor, but got {list(shape_of(self))}",
    )
    ks = _ints(kernel_size, 1)
    st = [stride] if isinstance(stride, int) else list(stride)
    x = op("unsqueeze")(self, -2)
    out = op("avg_pool2d")(
        x,
        [1, ks[0]],
        [1, st[0]] if st else [1, ks[0]],
        [0, _ints(padding, 1)[0]],
        ceil_mode,
        count_include_pad,
    )
    return op("squeeze.dim")(out, -2)


@meta("_adaptive_avg_pool2d(Tensor self, SymInt[2] output_size) -> Tensor")
def _adaptive_avg_pool2d(self, output_size):
    osz = _ints(output_size, 2)
    check(len(osz) == 2, "adaptive_avg_pool2d: output_size must be 2")
    s = shape_of(self)
    nd = len(s)
    check(nd in (3, 4), f"adaptive_avg_pool2d(): Expected 3D or 4D tensor, but got {list(s)}")
    for i in (nd - 2, nd - 1):
        check(
            s[i] > 0,
            f"adaptive_avg_pool2d(): Expected input to have non-zero size for non-batch "
            f"dimensions, but input has sizes {list(s)} with dimension {i} being empty",
        )
    if self._dtype.category < 2:
        _not_implemented("adaptive_avg_pool2d", self._dtype)
    return new_meta((*s[:-2], osz[0], osz[1]), self._dtype)


@composite("adaptive_avg_pool2d(Tensor self, SymInt[2] output_size) -> Tensor")
def adaptive_avg_pool2d(self, output_size):
    osz = _ints(output_size, 2)
    check(len(osz) == 2, "adaptive_avg_pool2d: output_size must be 2")
    check(
        osz[0] >= 0 and osz[1] >= 0,
        f"adaptive_avg_pool2d: elements of output_size must be greater than or equal to 0 but "
        f"received {{{osz[0]}, {osz[1]}}}",
    )
    if osz[0] == 1 and osz[1] == 1:
        return op("mean.dim")(self, [-1, -2], True)
    return op("_adaptive_avg_pool2d")(self, osz)
