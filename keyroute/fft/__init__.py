"""torch.fft: discrete Fourier transforms over the aten operators of aten/fft.py (each function
calls its aten::fft_* operator, which decomposes into _fft_r2c / _fft_c2r / _fft_c2c as
PyTorch's SpectralOps.cpp does).

>>> import keyroute
>>> keyroute.fft.rfft(keyroute.tensor([1.0, 2.0, 3.0, 4.0]))
tensor([10.+0.j, -2.+2.j, -2.+0.j])
>>> keyroute.fft.fftfreq(4)
tensor([ 0.0000,  0.2500, -0.5000, -0.2500])
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from .._api.linalg_ops import _write_out
from .._ops import ops
from ..tensor._tensor import Tensor

aten = ops.aten

__all__ = [
    "fft",
    "ifft",
    "rfft",
    "irfft",
    "hfft",
    "ihfft",
    "fft2",
    "ifft2",
    "rfft2",
    "irfft2",
    "hfft2",
    "ihfft2",
    "fftn",
    "ifftn",
    "rfftn",
    "irfftn",
    "hfftn",
    "ihfftn",
    "fftfreq",
    "rfftfreq",
    "fftshift",
    "ifftshift",
]


def _transform(name: str, default_dim: Any) -> Any:
    """torch.fft.<name> over aten::fft_<name>: the 1-d transforms take a length `n` and one
    `dim`, the 2-d and n-d ones a shape `s` and dims (PyTorch's argument names)."""
    fn_op = getattr(aten, "fft_" + name).default

    def call(input: Tensor, size: Any, dim: Any, norm: str | None, out: Tensor | None) -> Tensor:  # noqa: A002
        return _write_out(fn_op(input, size, dim, norm), out)

    if isinstance(default_dim, int):

        def fn(
            input: Tensor,  # noqa: A002
            n: int | None = None,
            dim: int = default_dim,
            norm: str | None = None,
            *,
            out: Tensor | None = None,
        ) -> Tensor:
            return call(input, n, dim, norm, out)

    else:

        def fn(
            input: Tensor,  # noqa: A002
            s: Sequence[int] | None = None,
            dim: Any = default_dim,
            norm: str | None = None,
            *,
            out: Tensor | None = None,
        ) -> Tensor:
            return call(input, s, dim, norm, out)

    fn.__name__ = fn.__qualname__ = name
    fn.__doc__ = f"torch.fft.{name} (aten::fft_{name})."
    return fn


fft = _transform("fft", -1)
ifft = _transform("ifft", -1)
rfft = _transform("rfft", -1)
irfft = _transform("irfft", -1)
hfft = _transform("hfft", -1)
ihfft = _transform("ihfft", -1)
fftn = _transform("fftn", None)
ifftn = _transform("ifftn", None)
rfftn = _transform("rfftn", None)
irfftn = _transform("irfftn", None)
fft2 = _transform("fft2", (-2, -1))
ifft2 = _transform("ifft2", (-2, -1))
rfft2 = _transform("rfft2", (-2, -1))
irfft2 = _transform("irfft2", (-2, -1))
hfftn = _transform("hfftn", None)
ihfftn = _transform("ihfftn", None)
hfft2 = _transform("hfft2", (-2, -1))
ihfft2 = _transform("ihfft2", (-2, -1))


def _frequencies(name: str, what: str) -> Any:
    fn_op = getattr(aten, "fft_" + name).default

    def fn(
        n: int,
        d: float = 1.0,
        *,
        out: Tensor | None = None,
        dtype: Any = None,
        layout: Any = None,
        device: Any = None,
        requires_grad: bool = False,
    ) -> Tensor:
        r = _write_out(fn_op(n, d, dtype=dtype, device=device), out)
        return r.requires_grad_(True) if requires_grad else r

    fn.__name__ = fn.__qualname__ = name
    fn.__doc__ = f"The {what} (aten::fft_{name})."
    return fn


fftfreq = _frequencies("fftfreq", "sample frequencies of a length-n transform")
rfftfreq = _frequencies("rfftfreq", "non-negative sample frequencies of a length-n rfft")


def _dim_list(dim: Any) -> Any:
    return [dim] if isinstance(dim, int) else dim


def fftshift(input: Tensor, dim: Any = None) -> Tensor:  # noqa: A002
    """Moves the zero-frequency term to the centre (aten::fft_fftshift: a roll)."""
    return aten.fft_fftshift.default(input, _dim_list(dim))


def ifftshift(input: Tensor, dim: Any = None) -> Tensor:  # noqa: A002
    """The inverse of fftshift (aten::fft_ifftshift)."""
    return aten.fft_ifftshift.default(input, _dim_list(dim))


def __getattr__(name: str) -> object:
    # A PyTorch name keyroute lacks: a NotImplementedError naming it (keyroute/_missing.py).
    from .._missing import missing

    raise missing("fft", name, "module 'keyroute.fft'")
