"""keyroute.compile's API and guards, as torch.compile's (PyTorch's behaviour in comments)."""

from __future__ import annotations

import logging

import pytest

import keyroute as torch


def _counting():
    graphs = []

    def backend(gm, example_inputs):
        graphs.append(gm)
        return gm.forward

    return graphs, backend


def setup_function() -> None:
    torch._dynamo.reset()


def test_decorator_forms_and_module_compile() -> None:
    @torch.compile(backend="eager")
    def f(x):
        return x * 2

    @torch.compile
    def g(x):
        return x + 1

    x = torch.randn(3)
    assert torch.equal(f(x), x * 2)
    assert torch.equal(g(x), x + 1)
    m = torch.nn.Linear(3, 2)
    want = m(x)
    m.compile(backend="eager")
    assert torch.allclose(m(x), want)
    assert m._compiled_call_impl.variants


def test_guards_recompile_on_shape_dtype_requires_grad_and_scalars() -> None:
    graphs, backend = _counting()
    f = torch.compile(lambda x, n: x * n, backend=backend)
    f(torch.randn(3), 2)
    f(torch.randn(3), 2)
    assert len(graphs) == 1  # guards held: cached
    f(torch.randn(3), 3)  # PyTorch: guard n == 2 fails
    f(torch.randn(4), 3)
    f(torch.randn(4, dtype=torch.float64), 3)
    f(torch.randn(4, dtype=torch.float64).requires_grad_(), 3)
    with torch.no_grad():
        f(torch.randn(4, dtype=torch.float64).requires_grad_(), 3)
    assert len(graphs) == 6


def test_guard_failure_reason_wording() -> None:
    from keyroute._dynamo import guards

    k1 = guards.args_key((torch.randn(3), 2), {})[0]
    k2 = guards.args_key((torch.randn(4), 2), {})[0]
    k3 = guards.args_key((torch.randn(3, dtype=torch.float64), 2), {})[0]
    k4 = guards.args_key((torch.randn(3), 3), {})[0]
    names = ["x", "n"]
    assert guards.failure_reason(k1, k2, names, True, True) == (
        "tensor 'x' size mismatch at index 0. expected 3, actual 4"
    )
    assert guards.failure_reason(k1, k3, names, True, True) == (
        "tensor 'x' dtype mismatch. expected Float, actual Double"
    )
    assert guards.failure_reason(k1, k4, names, True, True) == "n == 2"
    assert guards.failure_reason(k1, k1, names, True, False) == "GLOBAL_STATE changed: grad_mode "


def test_recompile_limit_falls_back_to_eager_with_pytorchs_warning(caplog) -> None:
    graphs, backend = _counting()
    assert torch._dynamo.config.cache_size_limit == 8  # PyTorch's default
    torch._dynamo.config.cache_size_limit = 2
    try:
        f = torch.compile(lambda x, n: x + n, backend=backend)
        with caplog.at_level(logging.WARNING, logger="keyroute._dynamo"):
            for i in range(5):
                assert torch.equal(f(torch.ones(2), i), torch.ones(2) + i)
        assert len(graphs) == 2
        assert "torch._dynamo hit config.recompile_limit (2)" in caplog.text
        assert torch._dynamo.config.recompile_limit == 2
    finally:
        torch._dynamo.config.cache_size_limit = 8


def test_automatic_dynamic_sizes_do_not_count_toward_the_limit() -> None:
    graphs, backend = _counting()
    torch._dynamo.config.cache_size_limit = 2
    try:
        f = torch.compile(lambda x: x * 2, backend=backend)
        for n in range(1, 6):
            assert torch.equal(f(torch.ones(n)), torch.ones(n) * 2)
        # Sizes 1 and 2 static, then one dynamic graph (s77) serves 3, 4 and 5, as PyTorch's.
        assert len(graphs) == 2
    finally:
        torch._dynamo.config.cache_size_limit = 8


def test_module_parameters_are_inputs_and_attribute_changes_recompile() -> None:
    graphs, backend = _counting()

    class M(torch.nn.Module):
        def __init__(self):
            super().__init__()
            self.lin = torch.nn.Linear(3, 3)
            self.scale = 2.0

        def forward(self, x):
            return self.lin(x) * self.scale

    m = M()
    cm = torch.compile(m, backend=backend)
    x = torch.randn(2, 3)
    assert torch.allclose(cm(x), m(x))
    ph = [n for n in graphs[0].graph.nodes if n.op == "placeholder"]
    assert len(ph) == 3  # weight, bias, x: parameters lifted, not constants
    with torch.no_grad():
        m.lin.weight.mul_(0.5)  # in place: the same graph sees it
    assert torch.allclose(cm(x), m(x))
    assert len(graphs) == 1
    m.scale = 3.0  # a module attribute the trace read: guard fails, recompile
    assert torch.allclose(cm(x), m(x))
    assert len(graphs) == 2
    m.lin = torch.nn.Linear(3, 3)
    assert torch.allclose(cm(x), m(x))
    assert isinstance(cm, torch._dynamo.OptimizedModule)
    assert cm.lin is m.lin and cm.state_dict().keys() == m.state_dict().keys()


def test_global_values_are_guarded() -> None:
    g = {"K": 2.0}
    exec("def f(x):\n    return x * K\n", g)
    f = torch.compile(g["f"], backend="eager")
    x = torch.ones(2)
    assert torch.equal(f(x), x * 2)
    g["K"] = 5.0
    assert torch.equal(f(x), x * 5)


def test_reset_and_disable_and_force_eager() -> None:
    graphs, backend = _counting()
    f = torch.compile(lambda x: x - 1, backend=backend)
    f(torch.ones(2))
    torch.compiler.reset()
    f(torch.ones(2))
    assert len(graphs) == 2
    d = torch.compile(lambda x: x - 1, backend=backend, disable=True)
    d(torch.ones(2))
    assert len(graphs) == 2
    with torch.compiler.set_stance("force_eager"):
        torch.compile(lambda x: x * 7, backend=backend)(torch.ones(2))
    assert len(graphs) == 2


def test_invalid_backend_and_mode_errors() -> None:
    with pytest.raises(torch._dynamo.exc.InvalidBackend, match="Invalid backend: 'nope'"):
        torch.compile(lambda x: x, backend="nope")
    with pytest.raises(RuntimeError, match="Unrecognized mode=fast"):
        torch.compile(lambda x: x, mode="fast")


def test_custom_ops_are_single_nodes_mutating_through_the_graph() -> None:
    from . import programs

    programs._lib(torch)
    graphs, backend = _counting()

    def f(cache, slots, v, x, w):
        torch.ops.kr_compile.store_kv(cache, slots, v)
        return torch.ops.kr_compile.rms_norm(x, w, 1e-6) @ cache.t()

    cache = torch.zeros(4, 8)
    args = (torch.tensor([1]), torch.ones(1, 8), torch.randn(2, 8), torch.ones(8))
    out = torch.compile(f, backend=backend, fullgraph=True)(cache, *args)
    targets = [str(n.target) for n in graphs[0].graph.nodes if n.op == "call_function"]
    assert "kr_compile.store_kv.default" in targets and "kr_compile.rms_norm.default" in targets
    assert not any("index_copy" in t or "rsqrt" in t for t in targets)
    assert cache[1].sum().item() == 8
    ref = torch.zeros(4, 8)
    assert torch.allclose(out, f(ref, *args))


def test_custom_op_without_fake_impl_raises_pytorchs_error() -> None:
    @torch.library.custom_op("kr_compile_t::nofake", mutates_args=())
    def nofake(x: torch.Tensor) -> torch.Tensor:
        return x * 2

    f = torch.compile(lambda x: nofake(x.sin()).cos(), backend="eager")
    with pytest.raises(torch._dynamo.exc.TorchRuntimeError, match="no fake impl registered"):
        f(torch.randn(3))


def test_python_side_effects_happen_at_trace_time_only() -> None:
    seen = []

    def f(x):
        seen.append(1)
        return x + 1

    c = torch.compile(f, backend="eager")
    c(torch.ones(2))
    c(torch.ones(2))
    assert seen == [1]


def test_explain_output() -> None:
    def f(x):
        y = x.sin()
        s = y.sum().item()
        return y * s

    e = torch._dynamo.explain(f)(torch.randn(3))
    assert (e.graph_count, e.graph_break_count, e.op_count) == (2, 1, 3)
    assert "Graph Count: 2" in str(e)
    assert [str(t) for t in e.ops_per_graph[0]] == ["aten.sin.default", "aten.sum.default"]


def test_recompile_reasons_match_pytorch(monkeypatch, caplog) -> None:
    import json
    import os
    import re

    rec = json.load(
        open(os.path.join(os.path.dirname(__file__), "..", "data", "compile_guards.json"))
    )
    monkeypatch.setenv("KEYROUTE_LOGS", "recompiles")
    f = torch.compile(lambda x, n: x * n, backend="eager")
    with caplog.at_level(logging.WARNING, logger="keyroute._dynamo"):
        for dt, shape, rg, grad, n in rec["calls"]:
            x = torch.ones(shape, dtype=getattr(torch, dt), requires_grad=rg)
            with torch.set_grad_enabled(grad):
                f(x, n)
    got = [
        m.group(1).split("  ")[0].strip()
        for r in caplog.records
        if (m := re.search(r"- \d+/\d+: (.*)", r.getMessage()))
    ]
    # keyroute's lambda parameters are named as PyTorch's function's (x, n).
    assert got == rec["first_reasons"]
