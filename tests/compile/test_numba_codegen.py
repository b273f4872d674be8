"""The inductor backend's numba path (keyroute/_inductor/fusion.py, numba_codegen.py): fused
pointwise + last-dimension reduction groups as numba loop nests, selected by
`keyroute._inductor.config.cpu_backend` / `options={"cpu_backend": ...}`.

Tolerance: fused reductions are not bit-identical to eager (numba's `reassoc` sums in vector
lanes, eager keyroute in PyTorch's cascade order), so results are compared as PyTorch's inductor
tests compare them: float32 with rtol=1e-5, atol=1e-5; float64 with rtol=1e-12, atol=1e-12.
Pointwise-only groups (no reduction) must agree to float32 rounding of the same expression.
"""

from __future__ import annotations

import importlib.util
import math
import os
import subprocess
import sys
import textwrap

import numpy as np
import pytest

import keyroute as torch
from keyroute._inductor import config

needs_numba = pytest.mark.skipif(
    importlib.util.find_spec("numba") is None, reason="numba (the compile extra) not installed"
)

TOL = {torch.float32: (1e-5, 1e-5), torch.float64: (1e-12, 1e-12)}


def _kernel(c):
    return list(c.variants.values())[-1].run.kernel


def _close(got, want) -> None:
    rtol, atol = TOL[want.dtype]
    np.testing.assert_allclose(got.numpy(), want.numpy(), rtol=rtol, atol=atol)


def setup_function() -> None:
    torch._dynamo.reset()


def _rms(x, w):
    return x * torch.rsqrt(x.pow(2).mean(-1, keepdim=True) + 1e-6) * w


@needs_numba
@pytest.mark.parametrize("dtype", [torch.float32, torch.float64])
def test_rmsnorm_is_one_kernel_with_two_passes(dtype) -> None:
    c = torch.compile(_rms, backend="inductor")
    x, w = torch.randn(16, 300, dtype=dtype), torch.randn(300, dtype=dtype)
    _close(c(x, w), _rms(x, w))
    k = _kernel(c)
    assert len(k.groups) == 1 and len(k.numba_sources) == 1
    src = k.numba_sources[0]
    assert src.count("for j in range(N):") == 2  # mean of squares, then the scaled output
    assert 'fastmath={"reassoc", "contract"}, error_model="numpy", cache=True' in src
    assert "parallel" not in src
    assert "_k_numba0(16, 300, arg0_1.reshape(16, 300), arg1_1.reshape(300)" in k.src


def test_numpy_path_when_asked_and_same_values() -> None:
    x, w = torch.randn(8, 64), torch.randn(64)
    c = torch.compile(_rms, backend="inductor", options={"cpu_backend": "numpy"})
    _close(c(x, w), _rms(x, w))
    assert not _kernel(c).groups and "numba" not in _kernel(c).src


def test_config_flag_selects_the_backend(monkeypatch) -> None:
    monkeypatch.setattr(config, "cpu_backend", "numpy")
    c = torch.compile(_rms, backend="inductor")
    c(torch.randn(4, 32), torch.randn(32))
    assert not _kernel(c).groups
    with pytest.raises(ValueError, match="cpu_backend must be 'numba' or 'numpy'"):
        config.resolve_cpu_backend({"cpu_backend": "cpp"})


def test_without_numba_the_numpy_path_with_a_clear_warning(monkeypatch) -> None:
    monkeypatch.setattr(config, "numba_available", lambda: False)
    assert config.resolve_cpu_backend(None) == "numpy"
    with pytest.warns(UserWarning, match=r"cpu_backend='numba' needs numba \(pip install"):
        assert config.resolve_cpu_backend({"cpu_backend": "numba"}) == "numpy"
    c = torch.compile(_rms, backend="inductor")
    x, w = torch.randn(4, 32), torch.randn(32)
    _close(c(x, w), _rms(x, w))
    assert not _kernel(c).groups


CASES = {
    # name: (function, input shapes)
    "sum_keepdim_false_out": (lambda x: (x * 2.0 + 1.0).sum(-1), [(6, 40)]),
    "amax_amin_center": (
        lambda x: (x - x.amax(-1, keepdim=True)) * (x - x.amin(-1, keepdim=True)),
        [(5, 33)],
    ),
    "variance_two_reductions": (
        lambda x: ((x - x.mean(-1, keepdim=True)) ** 2).mean(-1, keepdim=True),
        [(7, 50)],
    ),
    "layer_norm_by_hand": (
        lambda x, w, b: (
            (x - x.mean(-1, keepdim=True))
            * torch.rsqrt(((x - x.mean(-1, keepdim=True)) ** 2).mean(-1, keepdim=True) + 1e-5)
            * w
            + b
        ),
        [(3, 4, 64), (64,), (64,)],
    ),
    "row_and_scalar_inputs": (lambda x, r, s: (x * r + s).relu() / r, [(4, 16), (4, 1), ()]),
    "pointwise_chain": (
        lambda x, y: torch.clamp(torch.maximum(x, y) * 3 - y.abs(), -1.0, 2.0).sqrt(),
        [(10, 20), (10, 20)],
    ),
    "two_outputs": (lambda x: (x * x, (x * x).sum(-1, keepdim=True)), [(4, 24)]),
    "where_and_div": (lambda x, y: torch.where(x > 0, x / y, -x), [(6, 12), (6, 12)]),
}


@needs_numba
@pytest.mark.parametrize("name", sorted(CASES))
def test_fused_groups_agree_with_eager(name) -> None:
    fn, shapes = CASES[name]
    torch.manual_seed(0)
    args = [torch.randn(s) + (3.0 if name == "where_and_div" else 0.0) for s in shapes]
    c = torch.compile(fn, backend="inductor")
    got, want = c(*args), fn(*args)
    for g, w in zip(*(v if isinstance(v, tuple) else (v,) for v in (got, want))):
        assert g.shape == w.shape and g.dtype == w.dtype
        _close(g, w)
    if name != "where_and_div":  # where's condition is a separate comparison node
        assert _kernel(c).groups, _kernel(c).src


@needs_numba
def test_nan_and_inf_propagate_as_in_eager() -> None:
    def f(x, y):
        return torch.maximum(x.relu(), y) / (y - y) + torch.clamp(x, 0.0, 1.0)

    x = torch.tensor([[float("nan"), -1.0, 2.0, 0.5], [1.0, float("nan"), -3.0, 4.0]])
    y = torch.tensor([[1.0, float("nan"), -2.0, 0.0], [0.0, 1.0, float("-inf"), 2.0]])
    c = torch.compile(f, backend="inductor")
    got, want = c(x, y).numpy(), f(x, y).numpy()
    assert _kernel(c).groups
    np.testing.assert_array_equal(np.isnan(got), np.isnan(want))
    np.testing.assert_array_equal(got[~np.isnan(got)], want[~np.isnan(want)])


@needs_numba
def test_exp_heavy_and_half_precision_stay_on_numpy() -> None:
    c = torch.compile(lambda x: torch.nn.functional.silu(x) * x.exp(), backend="inductor")
    c(torch.randn(4, 32))
    assert not _kernel(c).groups
    torch._dynamo.reset()
    c = torch.compile(_rms, backend="inductor")
    x, w = torch.randn(4, 32, dtype=torch.float16), torch.randn(32, dtype=torch.float16)
    c(x, w)
    assert not _kernel(c).groups


@needs_numba
def test_a_group_never_depends_on_itself_through_an_outside_node() -> None:
    # mean -> exp (not fusible) -> back into the pointwise chain: the group must not swallow
    # both sides of the exp.
    def f(x):
        m = x.mean(-1, keepdim=True)
        return (x - m) * torch.exp(m) + m * 2

    x = torch.randn(5, 30)
    c = torch.compile(f, backend="inductor")
    _close(c(x), f(x))


@needs_numba
def test_training_through_fused_forward_and_backward_gives_eager_grads() -> None:
    torch.manual_seed(0)
    x = torch.randn(8, 64, requires_grad=True)
    w = torch.randn(64, requires_grad=True)
    c = torch.compile(_rms, backend="inductor")
    c(x, w).sum().backward()
    gx, gw = x.grad.clone(), w.grad.clone()
    x.grad = w.grad = None
    _rms(x, w).sum().backward()
    _close(gx, x.grad)
    _close(gw, w.grad)


@needs_numba
def test_kernels_are_cached_on_disk_and_loaded_by_a_new_process(tmp_path) -> None:
    code = textwrap.dedent(
        """
        import keyroute as torch
        def f(x, w):
            return x * torch.rsqrt(x.pow(2).mean(-1, keepdim=True) + 1e-6) * w
        c = torch.compile(f, backend="inductor")
        c(torch.randn(4, 96), torch.randn(96))
        k = list(c.variants.values())[-1].run.kernel
        fn = k.globals["_k_numba0"]
        print(sum(fn.stats.cache_hits.values()), sum(fn.stats.cache_misses.values()))
        """
    )
    env = dict(os.environ, KEYROUTE_CACHE_DIR=str(tmp_path), PYTHONPATH=os.getcwd())
    runs = [
        subprocess.run([sys.executable, "-c", code], env=env, capture_output=True, text=True)
        for _ in range(2)
    ]
    for r in runs:
        assert r.returncode == 0, r.stderr
    assert runs[0].stdout.split() == ["0", "1"]  # compiled, then written to the cache
    assert runs[1].stdout.split() == ["1", "0"]  # loaded from it
    files = sorted(p.name for p in tmp_path.iterdir() if p.suffix == ".py")
    assert len(files) == 1 and files[0].startswith("k_")


@needs_numba
def test_mean_divides_by_the_reduced_size() -> None:
    c = torch.compile(lambda x: x.mean(-1, keepdim=True) * 1.0 + 0.0, backend="inductor")
    x = torch.full((2, 3), 1.0 / 3.0)
    assert math.isclose(float(c(x)[0, 0]), 1.0 / 3.0, rel_tol=1e-6)
