"""F.interpolate's argument handling: which aten operator each mode calls, the Python-level
errors PyTorch raises, and (when torch is importable) the same results and messages."""

from __future__ import annotations

import warnings

import numpy as np
import pytest

import keyroute as kr
from keyroute.utils.python_dispatch import TorchDispatchMode

F = kr.nn.functional

CALLS = [
    ({"scale_factor": 2}, 4, "aten.upsample_nearest2d.default"),
    ({"size": 5, "mode": "nearest-exact"}, 3, "aten._upsample_nearest_exact1d.default"),
    ({"size": (3, 4, 5), "mode": "trilinear"}, 5, "aten.upsample_trilinear3d.default"),
    ({"scale_factor": 1.5, "mode": "bicubic"}, 4, "aten.upsample_bicubic2d.default"),
    ({"scale_factor": 0.5, "mode": "area"}, 4, "aten._adaptive_avg_pool2d.default"),
    ({"scale_factor": 2.0, "mode": "linear"}, 3, "aten.upsample_linear1d.default"),
]

ERRORS = [
    ({"scale_factor": 2, "align_corners": True}, 4),
    ({"size": 3, "scale_factor": 2}, 4),
    ({}, 4),
    ({"size": (3,)}, 4),
    ({"size": (3.0, 4.0)}, 4),
    ({"scale_factor": (2.0,)}, 4),
    ({"size": 4, "recompute_scale_factor": True}, 4),
    ({"size": 4, "mode": "bilinear"}, 3),
    ({"size": 4, "mode": "linear"}, 5),
    ({"size": 4, "mode": "trilinear"}, 4),
    ({"size": 4, "mode": "bogus"}, 4),
    ({"size": 4, "mode": "nearest", "antialias": True}, 4),
    ({"size": 4, "mode": "lanczos"}, 4),
]


class _Log(TorchDispatchMode):
    def __init__(self) -> None:
        super().__init__()
        self.calls: list[str] = []

    def __torch_dispatch__(self, func, types, args=(), kwargs=None):  # noqa: ANN001, ANN204
        self.calls.append(str(func))
        return func(*args, **(kwargs or {}))


def _x(M, nd: int):  # noqa: ANN001, ANN202
    a = np.random.default_rng(nd).uniform(-1, 1, (1, 2, 3, 4, 5)[:nd]).astype(np.float32)
    return M.from_numpy(a)


@pytest.mark.parametrize("kw,nd,first", CALLS)
def test_mode_picks_the_operator(kw: dict, nd: int, first: str) -> None:
    x = _x(kr, nd)
    with _Log() as log:
        F.interpolate(x, **kw)
    assert first in log.calls


@pytest.mark.parametrize("kw,nd", ERRORS)
def test_errors(kw: dict, nd: int) -> None:
    with pytest.raises((ValueError, TypeError, NotImplementedError)):
        F.interpolate(_x(kr, nd), **kw)


def test_deprecated_aliases_warn() -> None:
    x = _x(kr, 4)
    with warnings.catch_warnings(record=True) as w:
        warnings.simplefilter("always")
        a = F.upsample_bilinear(x, scale_factor=2)
        F.upsample_nearest(x, size=5)
        F.upsample(x, scale_factor=2)
    assert [str(m.message).split("`")[1] for m in w] == [
        "nn.functional.upsample_bilinear",
        "nn.functional.upsample_nearest",
        "nn.functional.upsample",
    ]
    np.testing.assert_array_equal(
        a.numpy(), F.interpolate(x, scale_factor=2, mode="bilinear", align_corners=True).numpy()
    )


def test_same_as_pytorch_live() -> None:
    torch = pytest.importorskip("torch")
    for kw, nd, _ in CALLS:
        a = F.interpolate(_x(kr, nd), **kw)
        b = torch.nn.functional.interpolate(_x(torch, nd), **kw)
        np.testing.assert_allclose(a.numpy(), b.numpy(), rtol=1e-6, atol=1e-6)
    for kw, nd in ERRORS:
        with pytest.raises(Exception) as e_t:
            torch.nn.functional.interpolate(_x(torch, nd), **kw)
        with pytest.raises(Exception) as e_k:
            F.interpolate(_x(kr, nd), **kw)
        assert type(e_k.value) is type(e_t.value), kw
        assert str(e_k.value).replace("keyroute", "torch") == str(e_t.value), kw
