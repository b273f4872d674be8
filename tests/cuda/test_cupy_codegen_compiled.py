"""The fused-group emitter's CUDA C++ compiled by nvcc (device) and by g++ (host, run): the
generated source is valid CUDA C++, and as C++ it computes what eager keyroute does.

tests/cuda/test_cupy_codegen.py reads the same source as Python through the NumPy stand-in;
these tests close the part of the `fused_not_compiled_by_cupy` gap that needs no GPU (what is
left: CuPy's own NVRTC build and a real device run, tools/gpu_check.py)."""

from __future__ import annotations

import importlib.util
import os
import sys

import numpy as np
import pytest

import keyroute as torch
from keyroute._inductor import cupy_codegen

sys.path.insert(0, os.path.dirname(__file__))
import cupy_compiled  # noqa: E402

pytestmark = pytest.mark.skipif(
    importlib.util.find_spec("numba") is None, reason="fusion groups come from the numba path"
)
needs_nvcc = pytest.mark.skipif(not cupy_compiled.have("nvcc"), reason="nvcc is not installed")
needs_gxx = pytest.mark.skipif(not cupy_compiled.have("g++"), reason="g++ is not installed")


def setup_function() -> None:
    torch._dynamo.reset()


def _group(fn, *args):
    c = torch.compile(fn, backend="inductor")
    c(*args)
    k = list(c.variants.values())[-1].run.kernel
    (g,) = k.groups
    values = dict(zip([n for n in k.nodes if n.op == "placeholder"], args))
    return g, [values[a].numpy() for a, _ in g.inputs]


def _rms(x, w):
    return x * torch.rsqrt(x.pow(2).mean(-1, keepdim=True) + 1e-6) * w


def _centred_relu_sum(x):
    return (x - x.amax(-1, keepdim=True)).relu().sum(-1)


def _pointwise(x, y, m):
    return torch.where(m, x * 2.5, -y).clamp(-1.0, 1.0) + torch.maximum(x, y)


def _cases():
    x32, w32 = torch.randn(16, 300), torch.randn(300)
    x64, w64 = x32.double(), w32.double()
    xn = torch.randn(8, 33)
    xn[2, 5] = float("nan")
    x, y = torch.randn(6, 40), torch.randn(6, 40)
    y[0, 0] = float("nan")
    return {
        "rms_float32": (_rms, (x32, w32), 1e-5),
        "rms_float64": (_rms, (x64, w64), 1e-12),
        "centred_relu_sum_nan": (_centred_relu_sum, (xn,), 1e-5),
        "pointwise_bool_input": (_pointwise, (x, y, x > 0), 1e-6),
    }


CASES = sorted(_cases())


@needs_nvcc
@pytest.mark.parametrize("case", CASES)
def test_every_stage_compiles_for_the_device(case) -> None:
    fn, args, _tol = _cases()[case]
    g, _ = _group(fn, *args)
    gk = cupy_codegen.build(g)
    for st in gk.stages:
        ptx = cupy_compiled.nvcc_ptx(cupy_compiled.stage_source(st))
        assert f".entry {st.name}(" in ptx


@needs_nvcc
def test_nvcc_refuses_a_broken_stage() -> None:
    # the check can fail: a stage whose operation names an undeclared value is refused
    src = cupy_compiled.elementwise_source(
        "float32 in0", "float32 out0", "out0 = in0 * v9;", "kr_broken", cupy_codegen.HELPERS
    )
    with pytest.raises(RuntimeError, match="refused the generated source"):
        cupy_compiled.nvcc_ptx(src)


@needs_gxx
@pytest.mark.parametrize("case", CASES)
def test_the_source_run_as_cpp_matches_eager(case) -> None:
    fn, args, tol = _cases()[case]
    g, inputs = _group(fn, *args)
    gk = cupy_codegen.build(g)
    got = gk.run(cupy_compiled.HostCuPy(), inputs)[-1]
    want = fn(*args).numpy()
    assert got.dtype == want.dtype
    got = got.reshape(want.shape)
    np.testing.assert_allclose(got, want, rtol=tol, atol=tol)
    np.testing.assert_array_equal(np.isnan(got), np.isnan(want))


@needs_gxx
def test_host_kernel_checks_parameter_dtypes() -> None:
    k = cupy_compiled.HostCuPy().ElementwiseKernel(
        "float32 in0",
        "float32 out0",
        "out0 = _relu(in0);",
        "kr_relu",
        preamble=cupy_codegen.HELPERS,
    )
    np.testing.assert_array_equal(k(np.array([-1.0, 2.0], np.float32)), [0.0, 2.0])
    with pytest.raises(TypeError, match="parameter in0 is float32"):
        k(np.zeros(2))
