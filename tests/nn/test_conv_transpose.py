"""nn.ConvTranspose1d/2d and F.conv_transpose1d/2d as PyTorch's: parameter shapes and init,
output_size, errors, repr, the aten calls a dispatch mode sees, and (with torch installed) the
forward and backward values of the same module."""

from __future__ import annotations

import math

import numpy as np
import pytest

import keyroute as kr
from keyroute import nn
from keyroute.nn import functional as F
from keyroute.utils.python_dispatch import TorchDispatchMode

# (in, out, kernel, stride, padding, output_padding, groups, bias, dilation), input spatial size
CONFIGS_2D = [
    ((4, 6, 3, 1, 0, 0, 1, True, 1), (5, 5)),
    ((4, 6, (3, 2), (2, 1), (1, 0), (1, 0), 2, True, 1), (4, 5)),
    ((3, 3, 3, 2, 1, 1, 3, False, 2), (4, 4)),
    ((2, 4, 4, 2, 1, 0, 1, True, 1), (3, 6)),
]


def _module(cls: type, cfg: tuple) -> nn.Module:  # type: ignore[type-arg]
    cin, cout, k, s, p, op, g, b, d = cfg
    return cls(cin, cout, k, stride=s, padding=p, output_padding=op, groups=g, bias=b, dilation=d)


def test_parameters_shapes_and_attributes() -> None:
    m = nn.ConvTranspose2d(4, 6, (3, 2), stride=2, padding=1, output_padding=1, groups=2)
    assert tuple(m.weight.shape) == (4, 3, 3, 2)  # (in, out / groups, *kernel)
    assert tuple(m.bias.shape) == (6,)
    assert (m.kernel_size, m.stride, m.padding, m.output_padding, m.dilation) == (
        (3, 2),
        (2, 2),
        (1, 1),
        (1, 1),
        (1, 1),
    )
    assert m.transposed and not nn.Conv2d(4, 6, 3).transposed
    m1 = nn.ConvTranspose1d(2, 4, 3, bias=False)
    assert tuple(m1.weight.shape) == (2, 4, 3) and m1.bias is None
    assert [n for n, _ in m.named_parameters()] == ["weight", "bias"]


def test_init_bounds_use_the_transposed_fan_in() -> None:
    kr.manual_seed(0)
    m = nn.ConvTranspose2d(8, 16, 3, groups=2)
    fan_in = (16 // 2) * 9  # weight.size(1) * receptive field
    bound = 1 / math.sqrt(fan_in)
    for p in (m.weight, m.bias):
        a = np.abs(p.detach().numpy())
        assert a.max() <= bound and a.max() > 0.9 * bound


def test_constructor_errors() -> None:
    with pytest.raises(
        ValueError, match='Only "zeros" padding mode is supported for ConvTranspose2d'
    ):
        nn.ConvTranspose2d(2, 2, 3, padding_mode="reflect")
    with pytest.raises(ValueError, match="groups must be a positive integer"):
        nn.ConvTranspose2d(2, 2, 3, groups=0)
    with pytest.raises(ValueError, match="out_channels must be divisible by groups"):
        nn.ConvTranspose2d(4, 6, 3, groups=4)


def test_repr() -> None:
    m = nn.ConvTranspose2d(
        4, 6, 3, stride=2, padding=1, output_padding=1, groups=2, bias=False, dilation=2
    )
    assert repr(m) == (
        "ConvTranspose2d(4, 6, kernel_size=(3, 3), stride=(2, 2), padding=(1, 1), "
        "dilation=(2, 2), output_padding=(1, 1), groups=2, bias=False)"
    )
    assert (
        repr(nn.ConvTranspose1d(4, 6, 3)) == "ConvTranspose1d(4, 6, kernel_size=(3,), stride=(1,))"
    )


def test_output_size_picks_the_output_padding() -> None:
    m = nn.ConvTranspose2d(2, 3, 3, stride=(2, 3), padding=1)
    x = kr.randn(1, 2, 4, 4)
    # without output_size: (4 - 1) * s - 2 + 3 = 7 x 10; output_size may add up to stride - 1
    assert tuple(m(x).shape) == (1, 3, 7, 10)
    assert tuple(m(x, output_size=(8, 12)).shape) == (1, 3, 8, 12)
    assert tuple(m(x, output_size=[1, 3, 8, 11]).shape) == (1, 3, 8, 11)
    assert tuple(m(x[0], output_size=[3, 8, 12]).shape) == (3, 8, 12)
    with pytest.raises(ValueError, match=r"requested an output size of \(9, 12\), but valid sizes"):
        m(x, output_size=(9, 12))
    with pytest.raises(ValueError, match="for 4D input, output_size must have 2 or 4 elements"):
        m(x, output_size=(8,))
    m1 = nn.ConvTranspose1d(2, 3, 2, stride=2)
    assert tuple(m1(kr.randn(2, 2, 5), output_size=[11]).shape) == (2, 3, 11)


def test_functional_errors() -> None:
    w = kr.randn(2, 3, 3, 3)
    with pytest.raises(RuntimeError, match=r"Expected 3D \(unbatched\) or 4D \(batched\) input"):
        F.conv_transpose2d(kr.randn(4, 4), w)
    with pytest.raises(RuntimeError, match="output padding must be smaller than either stride"):
        F.conv_transpose2d(kr.randn(1, 2, 4, 4), w, stride=2, output_padding=2)
    with pytest.raises(TypeError, match="argument 'padding' must be tuple of ints, not str"):
        F.conv_transpose2d(kr.randn(1, 2, 4, 4), w, padding="same")


class _Log(TorchDispatchMode):
    def __init__(self) -> None:
        super().__init__()
        self.calls: list[tuple[str, tuple]] = []  # type: ignore[type-arg]

    def __torch_dispatch__(self, func, types, args=(), kwargs=None):  # noqa: ANN001, ANN202
        meta = tuple(tuple(a.shape) if hasattr(a, "shape") else a for a in args)
        self.calls.append((str(func), meta))
        return func(*args, **(kwargs or {}))


def _log_module_calls(M, x_shape, cfg, output_size=None):  # noqa: ANN001, ANN202
    M.manual_seed(0)
    m = _module(M.nn.ConvTranspose2d, cfg)
    x = M.ones(*x_shape)
    with _log_mode(M)() as log:
        m(x, output_size=output_size)
    return log.calls


def _log_mode(M):  # noqa: ANN001, ANN202
    if M is kr:
        return _Log
    from torch.utils._python_dispatch import TorchDispatchMode as TorchMode

    class TorchLog(TorchMode):
        def __init__(self) -> None:
            super().__init__()
            self.calls: list = []  # type: ignore[type-arg]

        def __torch_dispatch__(self, func, types, args=(), kwargs=None):  # noqa: ANN001, ANN202
            meta = tuple(tuple(a.shape) if hasattr(a, "shape") else a for a in args)
            self.calls.append((str(func), meta))
            return func(*args, **(kwargs or {}))

    return TorchLog


def test_mode_sees_one_transposed_convolution() -> None:
    cfg = (2, 4, 3, 2, 1, 1, 2, True, 1)
    calls = _log_module_calls(kr, (1, 2, 4, 4), cfg)
    assert [c[0] for c in calls] == ["aten.convolution.default"]
    assert calls[0][1] == (
        (1, 2, 4, 4),
        (2, 2, 3, 3),
        (4,),
        [2, 2],
        [1, 1],
        [1, 1],
        True,
        [1, 1],
        2,
    )
    unbatched = _log_module_calls(kr, (2, 4, 4), cfg)
    assert [c[0] for c in unbatched] == [
        "aten.unsqueeze.default",
        "aten.convolution.default",
        "aten.squeeze.dim",
    ]


# -- against live PyTorch ----------------------------------------------------------------------


def _copy_params(src, dst, torch) -> None:  # noqa: ANN001
    with torch.no_grad():
        for name, p in src.named_parameters():
            getattr(dst, name).copy_(torch.from_numpy(p.detach().numpy().copy()))


@pytest.mark.parametrize("cfg,size", CONFIGS_2D)
@pytest.mark.parametrize("dtype", ["float32", "float64"])
def test_conv_transpose2d_matches_pytorch(cfg: tuple, size: tuple, dtype: str) -> None:  # type: ignore[type-arg]
    torch = pytest.importorskip("torch")
    torch.set_num_threads(1)
    mk = _module(nn.ConvTranspose2d, cfg).to(getattr(kr, dtype))
    mt = _module(torch.nn.ConvTranspose2d, cfg).to(getattr(torch, dtype))
    _copy_params(mk, mt, torch)
    rng = np.random.default_rng(0)
    x = rng.standard_normal((2, cfg[0], *size)).astype(dtype)
    xk = kr.from_numpy(x.copy()).requires_grad_()
    xt = torch.from_numpy(x.copy()).requires_grad_()
    yk, yt = mk(xk), mt(xt)
    tol = 1e-5 if dtype == "float32" else 1e-12
    np.testing.assert_allclose(yk.detach().numpy(), yt.detach().numpy(), rtol=tol, atol=tol)
    g = rng.standard_normal(tuple(yt.shape)).astype(dtype)
    yk.backward(kr.from_numpy(g.copy()))
    yt.backward(torch.from_numpy(g.copy()))
    np.testing.assert_allclose(xk.grad.numpy(), xt.grad.numpy(), rtol=tol, atol=tol)
    for name, p in mt.named_parameters():
        np.testing.assert_allclose(
            getattr(mk, name).grad.numpy(), p.grad.numpy(), rtol=tol, atol=tol, err_msg=name
        )


def test_conv_transpose1d_and_output_size_match_pytorch() -> None:
    torch = pytest.importorskip("torch")
    cfg = (3, 4, 3, 2, 1, 0, 1, True, 1)
    mk, mt = _module(nn.ConvTranspose1d, cfg).double(), _module(torch.nn.ConvTranspose1d, cfg)
    mt = mt.double()
    _copy_params(mk, mt, torch)
    x = np.random.default_rng(1).standard_normal((2, 3, 6))
    yk = mk(kr.from_numpy(x.copy()), output_size=[12])
    yt = mt(torch.from_numpy(x.copy()), output_size=[12])
    np.testing.assert_allclose(yk.detach().numpy(), yt.detach().numpy(), rtol=1e-12, atol=1e-12)


@pytest.mark.parametrize("unbatched", [False, True])
def test_mode_calls_match_pytorch(unbatched: bool) -> None:
    torch = pytest.importorskip("torch")
    cfg = (2, 4, 3, 2, 1, 0, 2, True, 1)
    shape = (2, 4, 4) if unbatched else (1, 2, 4, 4)
    assert _log_module_calls(kr, shape, cfg, [8, 8]) == _log_module_calls(torch, shape, cfg, [8, 8])
