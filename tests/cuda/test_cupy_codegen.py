"""The cupy emitter for fusion groups (keyroute/_inductor/cupy_codegen.py): the generated
ElementwiseKernel / ReductionKernel source, and that source run through the NumPy stand-in
(cupy_standin.py, Note [one source, two runners]) against eager keyroute on the CPU.

Groups come from compiling with the inductor backend's numba path (fusion.find_groups runs
there); tolerance as tests/compile/test_numba_codegen.py: reductions are not bit-identical to
eager (the stand-in folds in order, eager in PyTorch's cascade order)."""

from __future__ import annotations

import importlib.util
import os
import sys

import numpy as np
import pytest

import keyroute as torch
from keyroute._inductor import cupy_codegen

sys.path.insert(0, os.path.dirname(__file__))
import cupy_standin  # noqa: E402

pytestmark = pytest.mark.skipif(
    importlib.util.find_spec("numba") is None, reason="fusion groups come from the numba path"
)
TOL = {torch.float32: 1e-5, torch.float64: 1e-12}


def setup_function() -> None:
    torch._dynamo.reset()


def _groups(fn, *args):
    c = torch.compile(fn, backend="inductor")
    c(*args)
    k = list(c.variants.values())[-1].run.kernel
    placeholders = [n for n in k.nodes if n.op == "placeholder"]
    return k.groups, dict(zip(placeholders, args))


def _run(fn, *args):
    """(the group kernels, their outputs on the stand-in, eager's values of those outputs)."""
    (g,), values = _groups(fn, *args)
    gk = cupy_codegen.build(g)
    got = gk.run(cupy_standin, [values[a].numpy() for a, _ in g.inputs])
    return gk, g, got


def _rms(x, w):
    return x * torch.rsqrt(x.pow(2).mean(-1, keepdim=True) + 1e-6) * w


@pytest.mark.parametrize("dtype", [torch.float32, torch.float64])
def test_rmsnorm_is_a_reduction_a_row_kernel_and_a_full_kernel(dtype) -> None:
    x, w = torch.randn(16, 300, dtype=dtype), torch.randn(300, dtype=dtype)
    gk, g, (out,) = _run(_rms, x, w)
    ct = "float" if dtype == torch.float32 else "double"
    dt = "float32" if dtype == torch.float32 else "float64"
    assert [(s.kind, s.domain) for s in gk.stages] == [
        ("reduction", "full"),
        ("elementwise", "row"),
        ("elementwise", "full"),
    ]
    red, row, full = gk.stages
    assert red.in_params == f"{dt} in0" and red.out_params == f"{dt} v1"
    assert f"__device__ {ct} _map_v1({ct} in0) {{\n    {ct} v0 = in0 * in0;" in red.preamble
    assert red.map_expr == "_map_v1(in0)" and red.reduce_expr == "a + b"
    assert red.post_map_expr == f"v1 = a / ({ct})(300.0)" and red.identity == "0"
    assert row.operation == f"v2 = v1 + ({ct})(1e-06);\nv3 = _rsqrt(v2);"
    assert full.in_params == f"{dt} in0, {dt} v3, {dt} in1"  # the weight reads as (N,)
    assert full.operation.endswith("out0 = v5;")
    assert all(s.preamble.startswith(cupy_codegen.HELPERS) for s in gk.stages)
    assert gk.rows == 16 and gk.n == 300 and gk.input_kinds == ["full", "col"]
    want = _rms(x, w).numpy()
    assert out.dtype == want.dtype
    np.testing.assert_allclose(out.reshape(want.shape), want, rtol=TOL[dtype], atol=TOL[dtype])


def _centred_relu_sum(x):
    return (x - x.amax(-1, keepdim=True)).relu().sum(-1)


def test_two_passes_and_nan_propagation() -> None:
    x = torch.randn(8, 33)
    x[2, 5] = float("nan")  # amax and relu propagate NaN, as PyTorch's
    gk, g, got = _run(_centred_relu_sum, x)
    assert [s.kind for s in gk.stages] == ["reduction", "reduction"]
    assert gk.stages[0].reduce_expr == "_maximum(a, b)" and gk.stages[0].identity == "-INFINITY"
    assert "_relu(" in gk.stages[1].preamble
    want = _centred_relu_sum(x).numpy()
    np.testing.assert_allclose(got[-1].reshape(want.shape), want, rtol=1e-5, atol=1e-5)
    assert np.isnan(got[-1][2]) and not np.isnan(np.delete(got[-1], 2)).any()


def _pointwise(x, y, m):
    return torch.where(m, x * 2.5, -y).clamp(-1.0, 1.0) + torch.maximum(x, y)


def test_pointwise_group_is_one_elementwise_kernel_with_a_bool_input() -> None:
    x, y = torch.randn(6, 40), torch.randn(6, 40)
    y[0, 0] = float("nan")
    m = x > 0
    gk, g, (out,) = _run(_pointwise, x, y, m)
    (st,) = gk.stages
    assert st.kind == "elementwise" and st.domain == "full"
    assert "bool in" in st.in_params
    assert "_where(in" in st.operation and "_clamp_max(_clamp_min(" in st.operation
    want = _pointwise(x, y, m).numpy()
    np.testing.assert_allclose(out.reshape(want.shape), want, rtol=1e-6, atol=1e-6)
    assert np.isnan(out[0, 0])


def test_unsupported_dtype_is_refused() -> None:
    (g,), _ = _groups(_rms, torch.randn(4, 32), torch.randn(32))
    g.members[0].meta["val"] = torch.empty(4, 32, dtype=torch.float16, device="meta")
    with pytest.raises(NotImplementedError, match="cupy fusion: dtype float16"):
        cupy_codegen.build(g)


def test_stand_in_refuses_a_wrong_parameter_dtype() -> None:
    k = cupy_standin.ElementwiseKernel(
        "float32 in0", "float32 out0", "out0 = in0;", "k", preamble=cupy_codegen.HELPERS
    )
    with pytest.raises(TypeError, match="parameter in0 is float32"):
        k(np.zeros(3))
