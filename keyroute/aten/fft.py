"""torch.fft's operators: the three transforms PyTorch's backends implement (_fft_r2c, _fft_c2r,
_fft_c2c) with their meta rules, and the CompositeImplicitAutograd front ends (fft_fft,
fft_rfftn, fft_fftfreq, fft_fftshift, ...) that decompose into them as SpectralOps.cpp does:
promote the input, wrap the dims, zero-pad or slice it to the signal size, pick the
normalization (0 none, 1 by 1/sqrt(n), 2 by 1/n) from `norm`, then call one transform.

Output strides follow the MKL backend of PyTorch's CPU wheels (_exec_fft): batch dimensions are
ordered by the input's strides, transformed dimensions come last, so an fft along dim 0 of a
contiguous matrix is column-major. Kernels in kernels/cpu/fft.py, derivatives in
autograd/derivatives/fft.py.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from ..tensor._tensor import Tensor
from ..tensor.dtype import complex64, complex128, float32, float64, get_default_dtype, to_dtype
from . import _shape
from ._define import composite, meta
from ._meta_util import check, new_meta, shape_of
from ._variants import out_variant, same_dtype
from .linalg import op

__all__ = ["exec_fft_strides", "norm_from_string"]

# ----------------------------------------------------------------------------- layout


def exec_fft_strides(
    in_strides: Sequence[int], out_sizes: Sequence[int], dims: Sequence[int]
) -> list[int]:
    """The strides _exec_fft gives its output: the batch dims (those not transformed), ordered
    by decreasing input stride, are collapsed into one leading dimension of a contiguous
    buffer whose trailing dimensions are the transformed ones in `dims` order."""
    ndim = len(out_sizes)
    is_t = [False] * ndim
    for d in dims:
        is_t[d] = True
    batch = [d for d in range(ndim) if not is_t[d]]
    batch.sort(key=lambda d: in_strides[d], reverse=True)
    perm = batch + list(dims)
    # Contiguous strides of (batch_numel, *out_sizes[dims]).
    inner = [1] * len(dims)
    acc = 1
    for i in range(len(dims) - 1, -1, -1):
        inner[i] = acc
        acc *= out_sizes[dims[i]]
    stride0 = acc
    out = [0] * ndim
    numel = 1
    for i in range(len(batch) - 1, -1, -1):
        out[perm[i]] = numel * stride0
        numel *= out_sizes[perm[i]]
    for i, d in enumerate(dims):
        out[d] = inner[i]
    return out


def _sort_dims(self: Tensor, dim: Sequence[int], exclude_last: bool = False) -> list[int]:
    dims = list(dim)
    strides = self.stride()
    end = len(dims) - int(exclude_last)
    dims[:end] = sorted(dims[:end], key=lambda d: strides[d], reverse=True)
    return dims


def _wrap_dims(dim: Sequence[int], ndim: int) -> list[int]:
    return [_shape.wrap_dim(d, ndim, wrap_scalar=False) for d in dim]


# ----------------------------------------------------------------------------- transforms


@meta("_fft_r2c(Tensor self, int[] dim, int normalization, bool onesided) -> Tensor")
def _fft_r2c(self, dim, normalization, onesided):
    check(
        self._dtype.is_floating_point,
        f"Only supports floating-point dtypes, but found: {self._dtype._short}",
    )
    sizes = list(shape_of(self))
    dims = _wrap_dims(dim, len(sizes))
    out_sizes = list(sizes)
    if onesided:
        out_sizes[dims[-1]] = sizes[dims[-1]] // 2 + 1
    cdt = complex128 if self._dtype is float64 else complex64
    order = _sort_dims(self, dims, exclude_last=True)
    return new_meta(out_sizes, cdt, exec_fft_strides(self.stride(), out_sizes, order))


@meta("_fft_c2r(Tensor self, int[] dim, int normalization, SymInt last_dim_size) -> Tensor")
def _fft_c2r(self, dim, normalization, last_dim_size):
    check(self._dtype.is_complex, f"Only supports complex dtypes, but found: {self._dtype._short}")
    sizes = list(shape_of(self))
    dims = _wrap_dims(dim, len(sizes))
    strides = self.stride()
    if len(dims) > 1:
        # The leading dims go through a c2c transform first: its output's strides.
        strides = exec_fft_strides(strides, sizes, _sort_dims(self, dims[:-1]))
    out_sizes = list(sizes)
    out_sizes[dims[-1]] = int(last_dim_size)
    return new_meta(
        out_sizes, self._dtype.to_real(), exec_fft_strides(strides, out_sizes, dims[-1:])
    )


@meta("_fft_c2c(Tensor self, SymInt[] dim, int normalization, bool forward) -> Tensor")
def _fft_c2c(self, dim, normalization, forward):
    check(self._dtype.is_complex, f"Only supports complex dtypes, but found: {self._dtype._short}")
    sizes = list(shape_of(self))
    if not dim:
        return new_meta(sizes, self._dtype, self.stride())
    dims = _wrap_dims(dim, len(sizes))
    return new_meta(
        sizes, self._dtype, exec_fft_strides(self.stride(), sizes, _sort_dims(self, dims))
    )


out_variant(
    "_fft_r2c.out(Tensor self, int[] dim, int normalization, bool onesided, *, Tensor(a!) out)"
    " -> Tensor(a!)",
    "_fft_r2c",
    check=same_dtype,
)
out_variant(
    "_fft_c2r.out(Tensor self, int[] dim, int normalization, SymInt last_dim_size, *, "
    "Tensor(a!) out) -> Tensor(a!)",
    "_fft_c2r",
    check=same_dtype,
)
out_variant(
    "_fft_c2c.out(Tensor self, SymInt[] dim, int normalization, bool forward, *, Tensor(a!) out)"
    " -> Tensor(a!)",
    "_fft_c2c",
    check=same_dtype,
)

# ----------------------------------------------------------------------------- front ends

_NONE, _BY_ROOT_N, _BY_N = 0, 1, 2


def norm_from_string(norm: str | None, forward: bool) -> int:
    """PyTorch's fft_norm_mode for a NumPy-style `norm` and a direction."""
    if norm is None or norm == "backward":
        return _NONE if forward else _BY_N
    if norm == "forward":
        return _BY_N if forward else _NONE
    if norm == "ortho":
        return _BY_ROOT_N
    raise RuntimeError(f'Invalid normalization mode: "{norm}"')


def _promote(t: Tensor, require_complex: bool = False) -> Tensor:
    dt = t._dtype
    if dt.is_complex:
        return t
    new = dt if dt.is_floating_point else get_default_dtype()
    check(new in (float32, float64), f"Unsupported dtype {new._short}")
    if require_complex:
        new = complex64 if new is float32 else complex128
    return t if new is dt else op("_to_copy")(t, dtype=new)


def _resize(x: Tensor, dims: Sequence[int], sizes: Sequence[int]) -> Tensor:
    """Zero-pad or slice x (from index 0) so x.size(dims[i]) == sizes[i] (-1: unchanged)."""
    shape = shape_of(x)
    pad = [0] * (len(shape) * 2)
    must_pad = False
    for d, n in zip(dims, sizes):
        if n == -1:
            continue
        if shape[d] < n:
            must_pad = True
            pad[len(pad) - 2 * d - 1] = n - shape[d]
        if shape[d] > n:
            x = op("slice.Tensor")(x, d, 0, n)
    return op("constant_pad_nd")(x, pad) if must_pad else x


def _n_check(n: int) -> None:
    check(n >= 1, f"Invalid number of data points ({n}) specified")


def fft_r2c(
    fname: str, x: Tensor, n: int | None, dim: int, norm: str | None, forward: bool, onesided: bool
) -> Tensor:
    check(
        not x._dtype.is_complex,
        f"{fname} expects a real input tensor, but got {x._dtype._short}",
    )
    x = _promote(x)
    d = _shape.wrap_dim(dim, len(shape_of(x)), wrap_scalar=False)
    size = shape_of(x)[d] if n is None else int(n)
    _n_check(size)
    if n is not None:
        x = _resize(x, [d], [size])
    ret = op("_fft_r2c")(x, [d], norm_from_string(norm, forward), onesided)
    # PyTorch has no native inverse r2c: the forward transform, conjugated (a lazy view).
    return ret if forward else op("conj")(ret)


def fft_c2r(fname: str, x: Tensor, n: int | None, dim: int, norm: str | None, forward: bool):
    x = _promote(x, require_complex=True)
    d = _shape.wrap_dim(dim, len(shape_of(x)), wrap_scalar=False)
    size = 2 * (shape_of(x)[d] - 1) if n is None else int(n)
    _n_check(size)
    if n is not None:
        x = _resize(x, [d], [size // 2 + 1])
    if forward:
        x = op("conj")(x)
    return op("_fft_c2r")(x, [d], norm_from_string(norm, forward), size)


def fft_c2c(fname: str, x: Tensor, n: int | None, dim: int, norm: str | None, forward: bool):
    check(
        x._dtype.is_complex,
        f"{fname} expects a complex input tensor, but got {x._dtype._short}",
    )
    d = _shape.wrap_dim(dim, len(shape_of(x)), wrap_scalar=False)
    size = shape_of(x)[d] if n is None else int(n)
    _n_check(size)
    if n is not None:
        x = _resize(x, [d], [size])
    return op("_fft_c2c")(x, [d], norm_from_string(norm, forward), forward)


_ONE_D = "(Tensor self, SymInt? n=None, int dim=-1, str? norm=None) -> Tensor"


@composite("fft_fft" + _ONE_D)
def fft_fft(self, n=None, dim=-1, norm=None):
    if self._dtype.is_complex:
        return fft_c2c("fft", self, n, dim, norm, True)
    return fft_r2c("fft", self, n, dim, norm, True, False)


@composite("fft_ifft" + _ONE_D)
def fft_ifft(self, n=None, dim=-1, norm=None):
    if self._dtype.is_complex:
        return fft_c2c("ifft", self, n, dim, norm, False)
    return fft_r2c("ifft", self, n, dim, norm, False, False)


@composite("fft_rfft" + _ONE_D)
def fft_rfft(self, n=None, dim=-1, norm=None):
    return fft_r2c("rfft", self, n, dim, norm, True, True)


@composite("fft_irfft" + _ONE_D)
def fft_irfft(self, n=None, dim=-1, norm=None):
    return fft_c2r("irfft", self, n, dim, norm, False)


@composite("fft_hfft" + _ONE_D)
def fft_hfft(self, n=None, dim=-1, norm=None):
    return fft_c2r("hfft", self, n, dim, norm, True)


@composite("fft_ihfft" + _ONE_D)
def fft_ihfft(self, n=None, dim=-1, norm=None):
    return fft_r2c("ihfft", self, n, dim, norm, False, True)


def shape_and_dims(
    x: Tensor, s: Sequence[int] | None, dim: Sequence[int] | None
) -> tuple[list[int], list[int]]:
    """canonicalize_fft_shape_and_dim_args: the signal sizes and the wrapped dims."""
    ndim = len(shape_of(x))
    sizes = shape_of(x)
    dims: list[int] = []
    if dim is not None:
        dims = _wrap_dims(dim, ndim)
        check(len(set(dims)) == len(dims), "FFT dims must be unique")
    if s is not None:
        check(
            dim is None or len(dim) == len(s),
            "When given, dim and shape arguments must have the same length",
        )
        check(
            len(s) <= ndim,
            f"Got shape with {len(s)} values but input tensor only has {ndim} dimensions.",
        )
        if dim is None:
            dims = list(range(ndim - len(s), ndim))
        shape = [sizes[d] if int(n) == -1 else int(n) for n, d in zip(s, dims)]
    elif dim is None:
        dims = list(range(ndim))
        shape = list(sizes)
    else:
        shape = [sizes[d] for d in dims]
    for n in shape:
        _n_check(n)
    return shape, dims


def _fftn(x: Tensor, s: Any, dim: Any, norm: str | None, forward: bool) -> Tensor:
    shape, dims = shape_and_dims(x, s, dim)
    x = _promote(x, require_complex=True)
    x = _resize(x, dims, shape)
    return op("_fft_c2c")(x, dims, norm_from_string(norm, forward), forward)


def _rfftn(x: Tensor, s: Any, dim: Any, norm: str | None) -> Tensor:
    check(
        not x._dtype.is_complex,
        f"rfftn expects a real-valued input tensor, but got {x._dtype._short}",
    )
    shape, dims = shape_and_dims(x, s, dim)
    check(len(shape) > 0, "rfftn must transform at least one axis")
    x = _resize(_promote(x), dims, shape)
    return op("_fft_r2c")(x, dims, norm_from_string(norm, True), True)


def _irfftn(x: Tensor, s: Any, dim: Any, norm: str | None) -> Tensor:
    shape, dims, last = _c2r_shape_and_dims("irfftn", x, s, dim)
    x = _resize(_promote(x, require_complex=True), dims, shape)
    return op("_fft_c2r")(x, dims, norm_from_string(norm, False), last)


_ND = "(Tensor self, SymInt[1]? s=None, int[1]? dim=None, str? norm=None) -> Tensor"
_2D = "(Tensor self, SymInt[1]? s=None, int[1] dim=[-2,-1], str? norm=None) -> Tensor"


@composite("fft_fftn" + _ND)
def fft_fftn(self, s=None, dim=None, norm=None):
    return _fftn(self, s, dim, norm, True)


@composite("fft_ifftn" + _ND)
def fft_ifftn(self, s=None, dim=None, norm=None):
    return _fftn(self, s, dim, norm, False)


@composite("fft_rfftn" + _ND)
def fft_rfftn(self, s=None, dim=None, norm=None):
    return _rfftn(self, s, dim, norm)


@composite("fft_irfftn" + _ND)
def fft_irfftn(self, s=None, dim=None, norm=None):
    return _irfftn(self, s, dim, norm)


@composite("fft_fft2" + _2D)
def fft_fft2(self, s=None, dim=(-2, -1), norm=None):
    return _fftn(self, s, dim, norm, True)


@composite("fft_ifft2" + _2D)
def fft_ifft2(self, s=None, dim=(-2, -1), norm=None):
    return _fftn(self, s, dim, norm, False)


@composite("fft_rfft2" + _2D)
def fft_rfft2(self, s=None, dim=(-2, -1), norm=None):
    return _rfftn(self, s, dim, norm)


@composite("fft_irfft2" + _2D)
def fft_irfft2(self, s=None, dim=(-2, -1), norm=None):
    return _irfftn(self, s, dim, norm)


# ----------------------------------------------------------------------------- helpers

_FACTORY = (
    "*, ScalarType? dtype=None, Layout? layout=None, Device? device=None, bool? pin_memory=None"
)


def _freq_dtype(name: str, dtype: Any) -> Any:
    dt = get_default_dtype() if dtype is None else to_dtype(dtype)
    check(
        dt.is_floating_point or dt.is_complex,
        f"{name} requires a floating point or complex dtype",
    )
    return dt


@composite(f"fft_fftfreq(int n, float d=1.0, {_FACTORY}) -> Tensor")
def fft_fftfreq(n, d=1.0, *, dtype=None, layout=None, device=None, pin_memory=None):
    dt = _freq_dtype("fftfreq", dtype)
    out = op("arange.start_step")(0, n, 1, dtype=dt, device=device)
    right = op("slice.Tensor")(out, 0, (n + 1) // 2)
    op("copy_")(right, op("arange.start_step")(-(n // 2), 0, 1, dtype=dt, device=device))
    # PyTorch multiplies by the reciprocal (faster than dividing; the same rounding here).
    return op("mul_.Scalar")(out, 1.0 / (n * d))


@composite(f"fft_rfftfreq(int n, float d=1.0, {_FACTORY}) -> Tensor")
def fft_rfftfreq(n, d=1.0, *, dtype=None, layout=None, device=None, pin_memory=None):
    dt = _freq_dtype("rfftfreq", dtype)
    out = op("arange.start_step")(0, n // 2 + 1, 1, dtype=dt, device=device)
    return op("mul_.Scalar")(out, 1.0 / (n * d))


def _shift(x: Tensor, dim: Sequence[int] | None, inverse: bool) -> Tensor:
    sizes = shape_of(x)
    dims = list(range(len(sizes))) if dim is None else _wrap_dims(dim, len(sizes))
    shift = [(sizes[d] + 1) // 2 if inverse else sizes[d] // 2 for d in dims]
    return op("roll")(x, shift, dims)


@composite("fft_fftshift(Tensor self, int[1]? dim=None) -> Tensor")
def fft_fftshift(self, dim=None):
    return _shift(self, dim, False)


@composite("fft_ifftshift(Tensor self, int[1]? dim=None) -> Tensor")
def fft_ifftshift(self, dim=None):
    return _shift(self, dim, True)


# ----------------------------------------------------------------------------- hermitian n-d


def _c2r_shape_and_dims(
    fname: str, x: Tensor, s: Any, dim: Any
) -> tuple[list[int], list[int], int]:
    """canonicalize_fft_c2r_shape_and_dim_args: the complex input's sizes (the last one the
    half-length) and the real output's last size."""
    shape, dims = shape_and_dims(x, s, dim)
    check(len(shape) > 0, f"{fname} must transform at least one axis")
    if s is None or int(s[-1]) == -1:
        last = 2 * (shape_of(x)[dims[-1]] - 1)
    else:
        last = shape[-1]
    _n_check(last)
    shape[-1] = last // 2 + 1
    return shape, dims, last


def _hfftn(x: Tensor, s: Any, dim: Any, norm: str | None) -> Tensor:
    shape, dims, last = _c2r_shape_and_dims("hfftn", x, s, dim)
    x = _resize(_promote(x, require_complex=True), dims, shape)
    mode = norm_from_string(norm, True)
    if len(dims) > 1:
        x = op("_fft_c2c")(x, dims[:-1], mode, True)
    return op("_fft_c2r")(op("conj")(x), dims[-1:], mode, last)


def _ihfftn(x: Tensor, s: Any, dim: Any, norm: str | None) -> Tensor:
    shape, dims = shape_and_dims(x, s, dim)
    check(len(shape) > 0, "ihfftn must transform at least one axis")
    x = _resize(_promote(x), dims, shape)
    mode = norm_from_string(norm, False)
    tmp = op("_fft_r2c")(x, dims[-1:], mode, True)
    if len(dims) == 1:
        return op("conj")(tmp)
    return op("_fft_c2c")(op("conj_physical")(tmp), dims[:-1], mode, False)


@composite("fft_hfftn" + _ND)
def fft_hfftn(self, s=None, dim=None, norm=None):
    return _hfftn(self, s, dim, norm)


@composite("fft_ihfftn" + _ND)
def fft_ihfftn(self, s=None, dim=None, norm=None):
    return _ihfftn(self, s, dim, norm)


@composite("fft_hfft2" + _2D)
def fft_hfft2(self, s=None, dim=(-2, -1), norm=None):
    return _hfftn(self, s, dim, norm)


@composite("fft_ihfft2" + _2D)
def fft_ihfft2(self, s=None, dim=(-2, -1), norm=None):
    return _ihfftn(self, s, dim, norm)
