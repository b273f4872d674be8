"""keyroute.fft's Python functions: each calls its aten::fft_* operator (whose recorded samples
are tests/ops/samples_fft.py), takes PyTorch's arguments and out=, and round-trips."""

from __future__ import annotations

import numpy as np
import pytest

import keyroute as kr
from keyroute.utils.python_dispatch import TorchDispatchMode


class _Log(TorchDispatchMode):
    def __init__(self) -> None:
        super().__init__()
        self.calls: list[str] = []

    def __torch_dispatch__(self, func, types, args=(), kwargs=None):  # noqa: ANN001, ANN204
        self.calls.append(str(func))
        return func(*args, **(kwargs or {}))


def _x(*shape: int) -> kr.Tensor:
    return kr.from_numpy(np.random.default_rng(0).uniform(-1, 1, shape).astype(np.float32))


def test_rfft_decomposes_into_fft_r2c() -> None:
    x = _x(4, 6)
    with _Log() as log:
        kr.fft.rfft(x, n=8, norm="ortho")
    assert log.calls == ["aten.constant_pad_nd.default", "aten._fft_r2c.default"]


def test_ifft_of_real_input_is_a_lazy_conjugate() -> None:
    out = kr.fft.ifft(_x(5))
    assert out.is_conj() and out.dtype is kr.complex64


@pytest.mark.parametrize("norm", [None, "forward", "ortho", "backward"])
def test_round_trips(norm: str | None) -> None:
    x = _x(3, 8).double()
    np.testing.assert_allclose(kr.fft.irfft(kr.fft.rfft(x, norm=norm), n=8, norm=norm), x)
    np.testing.assert_allclose(
        kr.fft.ifftn(kr.fft.fftn(x, norm=norm), norm=norm).real.numpy(), x.numpy(), atol=1e-12
    )
    np.testing.assert_allclose(
        kr.fft.irfft2(kr.fft.rfft2(x, norm=norm), s=(3, 8), norm=norm), x, atol=1e-12
    )


def test_out_and_keywords() -> None:
    out = kr.empty(0, dtype=kr.complex64)
    r = kr.fft.fft(input=_x(4), n=4, dim=0, norm="ortho", out=out)
    assert r is out and out.shape == (4,)
    f = kr.fft.fftfreq(4, d=0.5, dtype=kr.float64, requires_grad=True)
    assert f.dtype is kr.float64 and f.requires_grad
    assert kr.fft.fftshift(kr.arange(5), dim=0).tolist() == [3, 4, 0, 1, 2]
    assert kr.fft.ifftshift(kr.arange(5), dim=(0,)).tolist() == [2, 3, 4, 0, 1]


def test_gradient_through_the_public_functions() -> None:
    x = _x(6).double().requires_grad_(True)
    y = kr.fft.irfft(kr.fft.rfft(x, norm="ortho"), n=6, norm="ortho")
    (g,) = kr.autograd.grad(y.sum(), x)
    np.testing.assert_allclose(g.numpy(), np.ones(6), atol=1e-12)


def test_matches_pytorch_live() -> None:
    torch = pytest.importorskip("torch")
    a = np.random.default_rng(1).uniform(-1, 1, (3, 4, 5))
    for name, kw in [
        ("fft", {"dim": 1}),
        ("rfftn", {"s": (4, 6)}),
        ("ihfft", {"n": 7}),
        ("hfft", {"n": 9}),
        ("fft2", {"norm": "forward"}),
        ("irfftn", {"dim": (0, 2)}),
    ]:
        got = getattr(kr.fft, name)(kr.from_numpy(a), **kw).resolve_conj()
        exp = getattr(torch.fft, name)(torch.from_numpy(a), **kw).resolve_conj()
        assert tuple(got.shape) == tuple(exp.shape) and got.stride() == exp.stride()
        np.testing.assert_allclose(got.numpy(), exp.numpy(), atol=1e-10)
