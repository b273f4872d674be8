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


def _one_d(name: str) -> Any:
    fn_op = getattr(aten, "fft_" + name).default

    def fn(
        input: Tensor,  # noqa: A002
        n: int | None = None,
        dim: int = -1,
        norm: str | None = None,
        *,
        out: Tensor | None = None,
    ) -> Tensor:
        return _write_out(fn_op(input, n, dim, norm), out)

    fn.__name__ = fn.__qualname__ = name
    fn.__doc__ = f"torch.fft.{name} (aten::fft_{name})."
    return fn


def _n_d(name: str, default_dim: Any) -> Any:
    fn_op = getattr(aten, "fft_" + name).default

    def fn(
        input: Tensor,  # noqa: A002
        s: Sequence[int] | None = None,
        dim: Any = default_dim,
        norm: str | None = None,
        *,
        out: Tensor | None = None,
    ) -> Tensor:
        return _write_out(fn_op(input, s, dim, norm), out)

    fn.__name__ = fn.__qualname__ = name
    fn.__doc__ = f"torch.fft.{name} (aten::fft_{name})."
    return fn


fft = _one_d("fft")
ifft = _one_d("ifft")
rfft = _one_d("rfft")
irfft = _one_d("irfft")
hfft = _one_d("hfft")
ihfft = _one_d("ihfft")
fftn = _n_d("fftn", None)
ifftn = _n_d("ifftn", None)
rfftn = _n_d("rfftn", None)
irfftn = _n_d("irfftn", None)
fft2 = _n_d("fft2", (-2, -1))
ifft2 = _n_d("ifft2", (-2, -1))
rfft2 = _n_d("rfft2", (-2, -1))
irfft2 = _n_d("irfft2", (-2, -1))
hfftn = _n_d("hfftn", None)
ihfftn = _n_d("ihfftn", None)
hfft2 = _n_d("hfft2", (-2, -1))
ihfft2 = _n_d("ihfft2", (-2, -1))


def fftfreq(
    n: int,
    d: float = 1.0,
    *,
    out: Tensor | None = None,
    dtype: Any = None,
    layout: Any = None,
    device: Any = None,
    requires_grad: bool = False,
) -> Tensor:
    """The sample frequencies of a length-n transform (aten::fft_fftfreq)."""
    r = aten.fft_fftfreq.default(n, d, dtype=dtype, device=device)
    r = _write_out(r, out)
    return r.requires_grad_(True) if requires_grad else r


def rfftfreq(
    n: int,
    d: float = 1.0,
    *,
    out: Tensor | None = None,
    dtype: Any = None,
    layout: Any = None,
    device: Any = None,
    requires_grad: bool = False,
) -> Tensor:
    """The non-negative sample frequencies of a length-n rfft (aten::fft_rfftfreq)."""
    r = aten.fft_rfftfreq.default(n, d, dtype=dtype, device=device)
    r = _write_out(r, out)
    return r.requires_grad_(True) if requires_grad else r


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
