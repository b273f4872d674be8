"""The CUDA kernels' source (keyroute/kernels/xp_kernels.py) run with NumPy as the array
module, against keyroute's CPU kernels on the same inputs."""

from __future__ import annotations

import numpy as np
import pytest

import keyroute as torch
from keyroute.kernels import xp_kernels as K

aten = torch.ops.aten
g = torch.Generator().manual_seed(0)
A = torch.randn(4, 6, generator=g)
B = torch.randn(4, 6, generator=g)
W = torch.randn(6, 3, generator=g)
IDX = torch.tensor([[0, 3], [2, 2]])

CASES = {
    "add.Tensor": ((A, B), {"alpha": 2}),
    "sub.Tensor": ((A, B), {}),
    "mul.Tensor": ((A, B), {}),
    "div.Tensor": ((A, B), {}),
    "neg": ((A,), {}),
    "exp": ((A,), {}),
    "log": ((A.abs(),), {}),
    "sqrt": ((A.abs(),), {}),
    "rsqrt": ((A.abs() + 0.1,), {}),
    "tanh": ((A,), {}),
    "sin": ((A,), {}),
    "cos": ((A,), {}),
    "abs": ((A,), {}),
    "reciprocal": ((A,), {}),
    "sigmoid": ((A,), {}),
    "relu": ((A,), {}),
    "silu": ((A,), {}),
    "gelu": ((A,), {}),
    "erf": ((A,), {}),
    "where.self": ((A > 0, A, B), {}),
    "eq.Tensor": ((A, A.round()), {}),
    "ne.Tensor": ((A, B), {}),
    "lt.Tensor": ((A, B), {}),
    "le.Tensor": ((A, B), {}),
    "gt.Tensor": ((A, B), {}),
    "ge.Tensor": ((A, B), {}),
    "maximum": ((A, B), {}),
    "minimum": ((A, B), {}),
    "clamp": ((A, -0.5, 0.5), {}),
    "clamp_min": ((A, 0.1), {}),
    "sum.dim_IntList": ((A, [1], True), {}),
    "sum": ((A,), {}),
    "mean.dim": ((A, [0]), {}),
    "mean": ((A,), {}),
    "amax": ((A, [1]), {}),
    "amin": ((A, [0], True), {}),
    "linalg_vector_norm": ((A, 2, [1]), {}),
    "mm": ((A, W), {}),
    "bmm": ((A.view(2, 2, 6), W.expand(2, 6, 3).contiguous()), {}),
    "addmm": ((W[0], A, W), {"beta": 0.5, "alpha": 2}),
    "_softmax": ((A, 1, False), {}),
    "_log_softmax": ((A, 0, False), {}),
    "native_layer_norm": ((A, [6], W[:, 0].repeat(1), None, 1e-5), {}),
    "embedding": ((A, IDX), {}),
    "view": ((A, [3, 8]), {}),
    "_unsafe_view": ((A, [24]), {}),
    "unsqueeze": ((A, 1), {}),
    "squeeze.dim": ((A.view(4, 1, 6), 1), {}),
    "squeeze.dims": ((A.view(1, 4, 1, 6), [0, 2]), {}),
    "squeeze": ((A.view(1, 4, 6),), {}),
    "permute": ((A, [1, 0]), {}),
    "transpose.int": ((A, 0, 1), {}),
    "t": ((A,), {}),
    "expand": ((A[0], [3, 6]), {}),
    "slice.Tensor": ((A, 1, -5, 100, 2), {}),
    "select.int": ((A, 0, -1), {}),
    "alias": ((A,), {}),
    "detach": ((A,), {}),
    "clone": ((A,), {}),
}


def _op(name):
    base, _, overload = name.partition(".")
    return getattr(getattr(aten, base), overload or "default")


def _arrays(v):
    if isinstance(v, torch.Tensor):
        return v.numpy()
    if isinstance(v, (list, tuple)):
        return type(v)(_arrays(x) for x in v)
    return v


def test_every_kernel_has_a_case():
    assert set(K.KERNELS) == set(CASES)


@pytest.mark.parametrize("name", sorted(CASES))
def test_kernel_matches_the_cpu_kernel(name):
    args, kwargs = CASES[name]
    if name == "native_layer_norm":
        args = (A, [6], torch.randn(6, generator=torch.Generator().manual_seed(1)), None, 1e-5)
    ref = _op(name)(*args, **kwargs)
    extra = {"out_shape": tuple(ref.shape)} if name in K.NEEDS_SHAPE else {}
    got = K.KERNELS[name](np, *_arrays(args), **kwargs, **extra)
    refs = ref if isinstance(ref, tuple) else (ref,)
    gots = got if isinstance(got, tuple) else (got,)
    for r, o in zip(refs, gots):
        o = np.asarray(o)
        assert o.shape == tuple(r.shape), name
        np.testing.assert_allclose(o.astype(r.numpy().dtype), r.numpy(), rtol=2e-6, atol=2e-6)
    if name in K.VIEWS:  # a view kernel shares the input's memory, as the CPU view does
        assert np.shares_memory(gots[0], args[0].numpy())
