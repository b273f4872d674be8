"""3-d pooling and adaptive max pooling (meta functions with PyTorch's checks, decompositions):
max_pool3d_with_indices, avg_pool3d, _adaptive_avg_pool3d, adaptive_max_pool2d/3d and their
backward operators; max_pool3d, adaptive_avg_pool3d and adaptive_max_pool1d as
CompositeImplicitAutograd (DilatedMaxPool3d.cpp, AveragePool3d.cpp, AdaptiveAveragePooling3d.cpp,
AdaptiveMaxPooling2d/3d.cpp, Pool.h's pool3d_shape_check). Kernels in
kernels/cpu/pool3d.py; derivatives in autograd/derivatives/pool3d.py."""

from __future__ import annotations

from typing import Any

from ...tensor.dtype import int64
from .._define import composite, meta
from .._meta_util import check, new_meta, shape_of
from .._variants import out_variant, same_dtype
from ..linalg import op
from ._common import _ints, _not_implemented
from .pool import pool_output_size

__all__ = ["pool3d_params", "pool3d_output", "adaptive_max_shape"]


def _three(name: str, what: str, v: Any, allow_empty: bool, verb: str) -> list[int]:
    vals = [int(x) for x in ([v] if isinstance(v, int) else (v or []))]
    ok = len(vals) in ((0, 1, 3) if allow_empty else (1, 3))
    omitted = "omitted, " if allow_empty else ""
    check(ok, f"{name}: {what} must {verb}{omitted}a single int, or a tuple of three ints")
    return vals * 3 if len(vals) == 1 else vals


def pool3d_params(
    name: str, kernel_size: Any, stride: Any, padding: Any, dilation: Any = None
) -> tuple[list[int], list[int], list[int], list[int]]:
    """(kernel, stride, padding, dilation) as three ints each; PyTorch's wording per op."""
    verb = "either be " if name == "max_pool3d" else "be "
    k = _three(name, "kernel_size", kernel_size, False, verb)
    s = _three(name, "stride", stride, True, verb) or list(k)
    p = _three(name, "padding", padding, False, verb)
    d = [1, 1, 1]
    if dilation is not None:
        d = _three(name, "dilation", dilation, False, "be either ")
    return k, s, p, d


def _pool3d_shape_check(input, k, s, p, d, out, fn_name: str, check_input_size: bool) -> None:
    check(
        all(x > 0 for x in k),
        f"kernel size should be greater than zero, but got kT: {k[0]} kH: {k[1]} kW: {k[2]}",
    )
    check(
        all(x > 0 for x in s),
        f"stride should be greater than zero, but got dT: {s[0]} dH: {s[1]} dW: {s[2]}",
    )
    check(
        all(x > 0 for x in d),
        f"dilation should be greater than zero, but got dilationT: {d[0]} dilationH: {d[1]} "
        f"dilationW: {d[2]}",
    )
    sh = shape_of(input)
    nd = len(sh)
    check(nd in (4, 5), f"{fn_name}: Expected 4D or 5D tensor for input, but got: {list(sh)}")
    for i in range(nd):
        if nd == 5 and i == 0:
            continue
        check(
            sh[i] > 0,
            f"{fn_name}: Expected input's non-batch dimensions to have positive length, but input "
            f"has a shape of {list(sh)} and non-batch dimension {sh[i]} has length zero!",
        )
    it, ih, iw = sh[-3:]
    if check_input_size:
        check(
            it >= k[0] and ih >= k[1] and iw >= k[2],
            f"input image (T: {it} H: {ih} W: {iw}) smaller than kernel size (kT: {k[0]} kH: "
            f"{k[1]} kW: {k[2]})",
        )
    eff = [(k[i] - 1) * d[i] + 1 for i in range(3)]
    check(
        k[0] // 2 >= p[0] and k[2] // 2 >= p[2] and k[1] // 2 >= p[1],
        f"pad should be smaller than or equal to half of effective kernel size, but got padT: "
        f"{p[0]} padW: {p[2]} padH: {p[1]} effectiveKT: {eff[0]} effectiveKW: {eff[2]} "
        f"effectiveKH: {eff[1]}",
    )
    c = sh[-4]
    check(
        all(o >= 1 for o in out),
        f"Given input size: ({c}x{it}x{ih}x{iw}). Calculated output size: ({c}x{out[0]}x"
        f"{out[1]}x{out[2]}). Output size is too small",
    )


def pool3d_output(
    input, name: str, kernel_size, stride, padding, dilation, ceil_mode, fn_name, avg=False
):
    """The checked parameters and output spatial size of a 3-d pooling call."""
    k, s, p, d = pool3d_params(name, kernel_size, stride, padding, None if avg else dilation)
    check(input.dim() in (4, 5), "non-empty 4D or 5D (batch mode) tensor expected for input")
    sh = shape_of(input)
    for i in range(3):
        check(s[i] != 0, "stride should not be zero")
    out = [pool_output_size(sh[-3 + i], k[i], p[i], s[i], d[i], ceil_mode) for i in range(3)]
    _pool3d_shape_check(input, k, s, p, d, out, fn_name, avg)
    return k, s, p, d, out


_MAX3 = (
    "Tensor self, int[3] kernel_size, int[3] stride=[], int[3] padding=0, int[3] dilation=1, "
    "bool ceil_mode=False"
)


@meta(f"max_pool3d_with_indices({_MAX3}) -> (Tensor, Tensor)")
def max_pool3d_with_indices(self, kernel_size, stride=(), padding=0, dilation=1, ceil_mode=False):
    *_, out = pool3d_output(
        self, "max_pool3d", kernel_size, stride, padding, dilation, ceil_mode,
        "max_pool3d_with_indices_out_cpu_template()",
    )  # fmt: skip
    if self._dtype.category == 0:
        _not_implemented("max_pool3d", self._dtype)
    shape = (*shape_of(self)[:-3], *out)
    return new_meta(shape, self._dtype), new_meta(shape, int64)


out_variant(
    f"max_pool3d_with_indices.out({_MAX3}, *, Tensor(a!) out, Tensor(b!) indices) -> "
    "(Tensor(a!), Tensor(b!))",
    "max_pool3d_with_indices",
    ("out", "indices"),
    check=same_dtype,
)


@composite(f"max_pool3d({_MAX3}) -> Tensor")
def max_pool3d(self, kernel_size, stride=(), padding=0, dilation=1, ceil_mode=False):
    return op("max_pool3d_with_indices")(self, kernel_size, stride, padding, dilation, ceil_mode)[0]


def _dim_size(t, nd: int, dim: int, size: int) -> None:
    # check_dim_size's message
    sh = shape_of(t)
    check(
        len(sh) == nd and sh[dim] == size,
        f"Expected a tensor of dimension {nd} and tensor.size[{dim}] == {size} but got: dimension "
        f"{len(sh)} and tensor.size[{dim}] = {sh[dim] if dim < len(sh) else '?'}",
    )


@meta(
    "max_pool3d_with_indices_backward(Tensor grad_output, Tensor self, int[3] kernel_size, int[3]"
    " stride, int[3] padding, int[3] dilation, bool ceil_mode, Tensor indices) -> Tensor"
)
def max_pool3d_with_indices_backward(
    grad_output, self, kernel_size, stride, padding, dilation, ceil_mode, indices
):
    *_, out = pool3d_output(
        self, "max_pool3d", kernel_size, stride, padding, dilation, ceil_mode,
        "max_pool3d_with_indices_backward_out_cpu_template()",
    )  # fmt: skip
    # the CPU kernel checks neither grad_output's nor indices' shape
    return new_meta(shape_of(self), self._dtype)


_AVG3 = (
    "Tensor self, int[3] kernel_size, int[3] stride=[], int[3] padding=0, bool ceil_mode=False, "
    "bool count_include_pad=True, int? divisor_override=None"
)


@meta(f"avg_pool3d({_AVG3}) -> Tensor")
def avg_pool3d(
    self,
    kernel_size,
    stride=(),
    padding=0,
    ceil_mode=False,
    count_include_pad=True,
    divisor_override=None,
):
    k, s, p, d = pool3d_params("avg_pool3d", kernel_size, stride, padding)
    check(self.dim() in (4, 5), "non-empty 4D or 5D (batch mode) tensor expected for input")
    check(divisor_override is None or divisor_override != 0, "divisor must be not zero")
    *_, out = pool3d_output(
        self, "avg_pool3d", kernel_size, stride, padding, None, ceil_mode, "avg_pool3d()", True
    )
    if self._dtype.category == 0 or self._dtype._short == "BFloat16":
        _not_implemented("avg_pool3d_out_frame", self._dtype)
    return new_meta((*shape_of(self)[:-3], *out), self._dtype)


out_variant(
    f"avg_pool3d.out({_AVG3}, *, Tensor(a!) out) -> Tensor(a!)", "avg_pool3d", check=same_dtype
)


@meta(
    "avg_pool3d_backward(Tensor grad_output, Tensor self, int[3] kernel_size, int[3] stride, "
    "int[3] padding, bool ceil_mode, bool count_include_pad, int? divisor_override) -> Tensor"
)
def avg_pool3d_backward(
    grad_output, self, kernel_size, stride, padding, ceil_mode, count_include_pad, divisor_override
):
    check(divisor_override is None or divisor_override != 0, "divisor must be not zero")
    *_, out = pool3d_output(
        self, "avg_pool3d", kernel_size, stride, padding, None, ceil_mode,
        "avg_pool3d_backward()", True,
    )  # fmt: skip
    nd = self.dim()
    for i, size in enumerate((shape_of(self)[-4], *out)):
        _dim_size(grad_output, nd, nd - 4 + i, size)
    return new_meta(shape_of(self), self._dtype)


# ----------------------------------------------------------------------------- adaptive


def _adaptive_input(name: str, self, nd: int) -> None:
    sh = shape_of(self)
    dims = (nd + 1, nd + 2)
    words = {2: "3D or 4D", 3: "4D or 5D"}[nd]
    check(len(sh) in dims, f"{name}(): Expected {words} tensor, but got: {list(sh)}")
    for i in range(1, len(sh)):
        check(
            sh[i] > 0,
            f"{name}(): Expected input to have non-zero size for non-batch dimensions, but input "
            f"has sizes {list(sh)} with dimension {i} being empty",
        )


@meta("_adaptive_avg_pool3d(Tensor self, SymInt[3] output_size) -> Tensor")
def _adaptive_avg_pool3d(self, output_size):
    osz = [int(x) for x in output_size]
    check(len(osz) == 3, "adaptive_avg_pool3d: output_size must be 3")
    sh = shape_of(self)
    check(
        len(sh) in (4, 5),
        f"adaptive_avg_pool3d(): Expected 4D or 5D tensor, but got {list(sh)}",
    )
    for i in range(1, len(sh)):
        check(
            sh[i] > 0,
            f"adaptive_avg_pool3d(): Expected input to have non-zero size for non-batch "
            f"dimensions, but input has sizes {list(sh)} with dimension {i} being empty",
        )
    if self._dtype.category < 2:
        _not_implemented("adaptive_avg_pool3d_cpu", self._dtype)
    return new_meta((*sh[:-3], *osz), self._dtype)


@composite("adaptive_avg_pool3d(Tensor self, SymInt[3] output_size) -> Tensor")
def adaptive_avg_pool3d(self, output_size):
    osz = _ints(output_size, 3)
    check(len(osz) == 3, "adaptive_avg_pool3d: output_size must be 3")
    check(
        all(o >= 0 for o in osz),
        "adaptive_avg_pool3d: elements of output_size must be greater than or equal to 0 but "
        f"received {{{osz[0]}, {osz[1]},{osz[2]}}}",
    )
    if osz == [1, 1, 1]:
        return op("mean.dim")(self, [-1, -2, -3], True)
    return op("_adaptive_avg_pool3d")(self, osz)


@meta("_adaptive_avg_pool3d_backward(Tensor grad_output, Tensor self) -> Tensor")
def _adaptive_avg_pool3d_backward(grad_output, self):
    return new_meta(shape_of(self), self._dtype)


def adaptive_max_shape(self, output_size, nd: int) -> tuple[int, ...]:
    osz = [int(x) for x in output_size]
    name = f"adaptive_max_pool{nd}d"
    check(
        len(osz) == nd,
        f"{name}(): internal error: output_size.size() must be {nd}",
    )
    _adaptive_input(name, self, nd)
    if self._dtype.category < 2:
        _not_implemented(f"{name}_cpu" if nd == 3 else name, self._dtype)
    return (*shape_of(self)[:-nd], *osz)


@meta("adaptive_max_pool2d(Tensor self, int[2] output_size) -> (Tensor, Tensor)")
def adaptive_max_pool2d(self, output_size):
    shape = adaptive_max_shape(self, output_size, 2)
    return new_meta(shape, self._dtype), new_meta(shape, int64)


@meta("adaptive_max_pool3d(Tensor self, int[3] output_size) -> (Tensor, Tensor)")
def adaptive_max_pool3d(self, output_size):
    shape = adaptive_max_shape(self, output_size, 3)
    return new_meta(shape, self._dtype), new_meta(shape, int64)


for _nd in (2, 3):
    out_variant(
        f"adaptive_max_pool{_nd}d.out(Tensor self, int[{_nd}] output_size, *, Tensor(a!) out, "
        "Tensor(b!) indices) -> (Tensor(a!), Tensor(b!))",
        f"adaptive_max_pool{_nd}d",
        ("out", "indices"),
        check=same_dtype,
    )


def _adaptive_max_backward(grad_output, self, indices, nd: int):
    check(
        grad_output._dtype is self._dtype,
        f"expected dtype {self._dtype._short.lower()} for `grad_output` but got dtype "
        f"{grad_output._dtype._short.lower()}",
    )
    return new_meta(shape_of(self), self._dtype)


@meta("adaptive_max_pool2d_backward(Tensor grad_output, Tensor self, Tensor indices) -> Tensor")
def adaptive_max_pool2d_backward(grad_output, self, indices):
    return _adaptive_max_backward(grad_output, self, indices, 2)


@meta("adaptive_max_pool3d_backward(Tensor grad_output, Tensor self, Tensor indices) -> Tensor")
def adaptive_max_pool3d_backward(grad_output, self, indices):
    return _adaptive_max_backward(grad_output, self, indices, 3)


@composite("adaptive_max_pool1d(Tensor self, int[1] output_size) -> (Tensor, Tensor)")
def adaptive_max_pool1d(self, output_size):
    sh = shape_of(self)
    check(
        len(sh) in (2, 3),
        f"Expected 2 to 3 dimensions, but got {len(sh)}-dimensional tensor for argument #1 "
        f"'self' (while checking arguments for adaptive_max_pool1d)",
    )
    osz = _ints(output_size, 1)
    check(
        len(osz) == 1,
        f"adaptive_max_pool1d() argument 'output_size' should contain one int (got {len(osz)})",
    )
    for i in range(1, len(sh)):
        check(
            sh[i] > 0,
            f"adaptive_max_pool1d(): Expected input to have non-zero size for non-batch "
            f"dimensions, but input has sizes {list(sh)} with dimension {i} being empty",
        )
    out, idx = op("adaptive_max_pool2d")(op("unsqueeze")(self, -2), [1, osz[0]])
    return op("squeeze.dim")(out, -2), op("squeeze.dim")(idx, -2)


@composite("adaptive_avg_pool1d(Tensor self, int[1] output_size) -> Tensor")
def adaptive_avg_pool1d(self, output_size):
    sh = shape_of(self)
    check(
        len(sh) in (2, 3),
        f"Expected 2 to 3 dimensions, but got {len(sh)}-dimensional tensor for argument #1 "
        f"'self' (while checking arguments for adaptive_avg_pool1d)",
    )
    osz = _ints(output_size, 1)
    check(
        len(osz) == 1,
        f"adaptive_avg_pool1d() argument 'output_size' should contain one int (got {len(osz)})",
    )
    out = op("adaptive_avg_pool2d")(op("unsqueeze")(self, -2), [1, osz[0]])
    return op("squeeze.dim")(out, -2)


@composite(
    "max_pool1d_with_indices(Tensor self, int[1] kernel_size, int[1] stride=[], int[1] padding=0,"
    " int[1] dilation=1, bool ceil_mode=False) -> (Tensor, Tensor)"
)
def max_pool1d_with_indices(self, kernel_size, stride=(), padding=0, dilation=1, ceil_mode=False):
    check(
        self.dim() in (2, 3),
        f"Expected 2 to 3 dimensions, but got {self.dim()}-dimensional tensor for argument #1 "
        f"'self' (while checking arguments for max_pool1d)",
    )
    ks = _ints(kernel_size, 1)
    st = _ints(stride, 1) if (isinstance(stride, int) or len(stride)) else ks
    out, idx = op("max_pool2d_with_indices")(
        op("unsqueeze")(self, -2),
        [1, ks[0]],
        [1, st[0]],
        [0, _ints(padding, 1)[0]],
        [1, _ints(dilation, 1)[0]],
        ceil_mode,
    )
    return op("squeeze.dim")(out, -2), op("squeeze.dim")(idx, -2)
