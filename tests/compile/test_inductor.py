"""The inductor backend: generated NumPy source (readable, in linecache, logged with
KEYROUTE_LOGS=output_code), buffer reuse in pointwise chains, custom operators called as
their CPU kernels, mutating ones re-inplaced, reduce-overhead replay, the dishonest-mutation
example against PyTorch 2.13 (tests/data/compile_dishonest.json), a small Llama compiled."""

from __future__ import annotations

import importlib.util
import json
import linecache
import logging
import pathlib

import keyroute as torch

ROOT = pathlib.Path(__file__).resolve().parents[2]


def _kernel(c):
    c = getattr(c, "_compiled", c)
    return list(c.variants.values())[-1].run.kernel


def setup_function() -> None:
    torch._dynamo.reset()


def test_source_is_numpy_with_a_pointwise_chain_in_one_buffer() -> None:
    def rms(x, w):
        return x * torch.rsqrt(x.pow(2).mean(-1, keepdim=True) + 1e-6) * w

    # The NumPy path (the numba path's loop nests: tests/compile/test_numba_codegen.py).
    c = torch.compile(rms, backend="inductor", options={"cpu_backend": "numpy"})
    x, w = torch.randn(4, 32), torch.randn(32)
    assert torch.allclose(c(x, w), rms(x, w), atol=1e-6)
    k = _kernel(c)
    assert "torch.ops" not in k.src and "_k_fallback" not in k.src
    assert "np.multiply(mul, arg1_1, out=mul)" in k.src  # the chain writes mul's buffer
    assert "np.sqrt(add, out=add)" in k.src
    assert k.fused >= 3
    assert linecache.getlines(k.filename)[0].startswith("def kernel(")


def test_output_code_log(monkeypatch, caplog) -> None:
    monkeypatch.setenv("KEYROUTE_LOGS", "output_code")
    with caplog.at_level(logging.WARNING, logger="keyroute._inductor"):
        torch.compile(lambda x: x.sin() + 1, backend="inductor")(torch.randn(3))
    assert "Output code written to: <inductor-kernel-" in caplog.text
    assert "np.sin(arg0_1)" in caplog.text


def test_ops_without_lowering_go_through_the_dispatcher_and_say_so() -> None:
    c = torch.compile(lambda x: torch.erf(x) * 2, backend="inductor")
    x = torch.randn(5)
    assert torch.allclose(c(x), torch.erf(x) * 2)
    assert "aten.erf.default: no lowering, called through the dispatcher" in _kernel(c).src


def test_dtype_rules_are_pytorchs() -> None:
    c = torch.compile(lambda a, b: (a / b, a // b, a.sum(), (a > 1).sum()), backend="inductor")
    a, b = torch.arange(1, 7), torch.full((6,), 4)
    got = c(a, b)
    want = (a / b, a // b, a.sum(), (a > 1).sum())
    for g, w in zip(got, want):
        assert g.dtype == w.dtype and torch.equal(g, w)


def test_dishonest_mutation_matches_pytorch_per_backend() -> None:
    spec = importlib.util.spec_from_file_location(
        "dishonest_mutation", ROOT / "examples" / "dishonest_mutation.py"
    )
    mod = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(mod)
    rec = json.loads((ROOT / "tests" / "data" / "compile_dishonest.json").read_text())
    q, k = torch.ones(1, 4), torch.full((2, 4), 2.0)
    for be, want in rec["backends"].items():
        torch._dynamo.reset()
        cache = torch.zeros(2, 4)
        out = torch.compile(mod.step, backend=be)(q, cache, k)
        assert out.tolist() == want["result"], be
        assert cache.sum().item() == want["cache_sum"], be


def test_mutating_custom_op_is_reinplaced_into_the_input() -> None:
    from . import programs

    programs._lib(torch)

    def f(cache, slots, v):
        torch.ops.kr_compile.store_kv(cache, slots, v)
        return cache.sum(0)

    c = torch.compile(f, backend="inductor")
    cache = torch.zeros(4, 3)
    out = c(cache, torch.tensor([2]), torch.ones(1, 3))
    assert cache[2].tolist() == [1.0, 1.0, 1.0] and out.tolist() == [1.0, 1.0, 1.0]
    src = _kernel(c).src
    # no clone of the cache: the op's CPU kernel writes it, called directly (direct.py)
    assert "_k_ret0(" in src and "clone" not in src and "_k_fallback(" not in src


def test_reduce_overhead_replays_and_still_guards() -> None:
    graphs = []
    c = torch.compile(lambda x, y: x * y + 1, backend="inductor", mode="reduce-overhead")
    x, y = torch.randn(3), torch.randn(3)
    assert torch.allclose(c(x, y), x * y + 1)
    cf = getattr(c, "_compiled", c)
    assert cf._replay is not None
    x2 = torch.randn(3)
    assert torch.allclose(c(x2, y), x2 * y + 1)  # replayed: same metadata
    assert len(cf.variants) == 1
    x3 = torch.randn(4)
    assert torch.allclose(c(x3, torch.ones(4)), x3 + 1)  # shape changed: the guard path
    assert len(cf.variants) == 2
    x4 = torch.randn(3, dtype=torch.float64)
    assert c(x4, y.double()).dtype == torch.float64
    del graphs


def test_small_llama_decode_with_custom_ops_compiles_and_matches() -> None:
    from keyroute.models.llama import Llama
    from keyroute.models.llama_config import LlamaConfig

    cfg = LlamaConfig(layers=2, hidden=32, ffn=64, heads=4, kv_heads=2, vocab=50)
    torch.manual_seed(0)
    ref = Llama(cfg)
    ref.setup_cache(16)
    m = Llama(cfg)
    m.load_state_dict(ref.state_dict())
    m.setup_cache(16)
    cm = torch.compile(m, backend="inductor", mode="reduce-overhead", fullgraph=True)
    with torch.no_grad():
        assert torch.allclose(
            cm(torch.tensor([[1, 2, 3]]), 0), ref(torch.tensor([[1, 2, 3]]), 0), atol=1e-5
        )  # noqa: E501
        for pos, tok in [(3, 4), (4, 7)]:
            ids = torch.tensor([[tok]])
            assert torch.allclose(cm(ids, pos), ref(ids, pos), atol=1e-5)
    src = _kernel(cm).src
    assert "keyroute.rms_norm.default: no lowering, called through its CPU kernel" in src
    # int positions: each layer's keyroute::attend_kv_cache runs in place on both caches
    assert src.count("_k_ret1(") == cfg.layers and "_k_ret0(" not in src
    assert "_k_fallback(" not in src.split("rms_norm", 1)[1]  # custom ops: no dispatcher


def test_a_buffer_read_by_a_view_is_not_overwritten() -> None:
    def f(x):
        a = x * 2
        v = a.view(-1)
        b = a + 1  # must not write a's buffer: v reads it after
        return b, v * 3

    c = torch.compile(f, backend="inductor")
    x = torch.randn(2, 3)
    for g, w in zip(c(x), f(x)):
        assert torch.allclose(g, w)
