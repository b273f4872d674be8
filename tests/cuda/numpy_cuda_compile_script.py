"""Run by test_compile_on_numpy.py in a fresh process (the CUDA backend installed with NumPy as
its array module is a process-wide registration): keyroute.compile(backend="inductor") on cuda
tensors runs its fusion groups through cupy_codegen's kernels, here on the NumPy stand-in
(cupy_standin.py), the other nodes through the cuda backend; results agree with eager on cuda."""

from __future__ import annotations

import os
import sys

import numpy as np

import keyroute as torch
from keyroute._inductor import cuda_graph, cupy_codegen
from keyroute.cuda.backend import install

sys.path.insert(0, os.path.dirname(__file__))
import cupy_standin  # noqa: E402

CALLS: list[str] = []


class _Counting:
    """The stand-in, recording which kernels ran."""

    def __getattr__(self, name):
        return getattr(cupy_standin, name)

    def ElementwiseKernel(self, *a, **kw):  # noqa: N802 - CuPy's name
        k = cupy_standin.ElementwiseKernel(*a, **kw)
        return lambda *args, **kws: (CALLS.append(k.name), k(*args, **kws))[1]

    def ReductionKernel(self, *a, **kw):  # noqa: N802 - CuPy's name
        k = cupy_standin.ReductionKernel(*a, **kw)
        return lambda *args, **kws: (CALLS.append(k.name), k(*args, **kws))[1]


def rms(x, w):
    return x * torch.rsqrt(x.pow(2).mean(-1, keepdim=True) + 1e-6) * w


def mlp(x, w, m):
    return torch.relu(rms(x, w) @ m).sum(-1)


def check(fn, *args, fused: bool, tol: float = 1e-5) -> None:
    torch._dynamo.reset()
    CALLS.clear()
    c = torch.compile(fn, backend="inductor")
    got = c(*args)
    want = fn(*args)  # eager on cuda
    assert got.device.type == "cuda" and got.dtype == want.dtype, (got.device, got.dtype)
    assert got.shape == want.shape
    np.testing.assert_allclose(got.cpu().numpy(), want.cpu().numpy(), rtol=tol, atol=tol)
    assert bool(CALLS) == fused, (fn.__name__, CALLS)


def main() -> None:
    install(np)
    cuda_graph.KERNEL_MODULE = _Counting()
    g = torch.Generator().manual_seed(0)
    x = torch.randn(16, 300, generator=g).to("cuda")
    w = torch.randn(300, generator=g).to("cuda")
    m = torch.randn(300, 8, generator=g).to("cuda")
    check(rms, x, w, fused=True)
    assert CALLS == ["kr_fused0_0", "kr_fused0_1", "kr_fused0_2"], CALLS
    check(rms, x.double(), w.double(), fused=True, tol=1e-12)
    check(mlp, x, w, m, fused=True)  # groups around a matmul the cuda backend runs
    check(lambda x: x.cumsum(1) * 2, x, fused=False)  # no group: the dispatcher path

    def add_(x):
        x.add_(1)
        return x * 2

    y = x.clone()
    torch.compile(add_, backend="inductor")(y)  # a mutating graph stays on the dispatcher
    assert not CALLS and np.allclose(y.cpu().numpy(), x.cpu().numpy() + 1)

    real = cupy_codegen.build

    def refuse(*a, **kw):
        raise NotImplementedError("cupy fusion: refused for the test")

    cupy_codegen.build = refuse
    try:
        check(rms, x, w, fused=False)  # the emitter refuses: the dispatcher path
    finally:
        cupy_codegen.build = real
    cuda_graph.KERNEL_MODULE = None  # NumPy has no ElementwiseKernel: the dispatcher path
    check(rms, x, w, fused=False)
    print("ok")


if __name__ == "__main__":
    main()
