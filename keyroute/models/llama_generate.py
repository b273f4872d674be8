"""Prefill and decode with a `Llama`'s KV cache: the generation loop.

The prompt's tokens go through the model at once (prefill, positions 0..n-1, the cache
written for all of them, only the last position's logits computed), then one token at a time
(decode, position n, n+1, ...) until `max_new_tokens`, the end-of-sequence token, or the
cache's end. Tokens can be streamed (`stream=callback(text_piece)`) as they come.
"""

from __future__ import annotations

import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from typing import Any

from .._api import creation as _creation
from ..autograd.grad_mode import no_grad
from ..tensor.dtype import int64
from .llama_sampling import check_sampling, sample_next

__all__ = ["Generation", "generate"]


@dataclass
class Generation:
    """What `generate` produced: the new token ids, their text, and the timings."""

    prompt_tokens: list[int]
    tokens: list[int] = field(default_factory=list)
    text: str = ""
    stop_reason: str = "length"  # "eos", "length" or "cache"
    prefill_seconds: float = 0.0
    decode_seconds: float = 0.0

    @property
    def prefill_tokens_per_second(self) -> float:
        return len(self.prompt_tokens) / self.prefill_seconds if self.prefill_seconds else 0.0

    @property
    def decode_tokens_per_second(self) -> float:
        n = len(self.tokens) - 1  # the first new token comes from the prefill's logits
        return n / self.decode_seconds if n > 0 and self.decode_seconds else 0.0


class _Streamer:
    """Decodes the growing token list and hands on the new text, holding back an incomplete
    UTF-8 sequence (the byte-level decoder shows it as U+FFFD) until it completes."""

    def __init__(self, tokenizer: Any, callback: Callable[[str], Any]) -> None:
        self.tokenizer, self.callback = tokenizer, callback
        self.tokens: list[int] = []
        self.sent = 0

    def put(self, token: int) -> None:
        self.tokens.append(token)
        text = self.tokenizer.decode(self.tokens, skip_special_tokens=True)
        if text.endswith("\ufffd"):
            return
        if len(text) > self.sent:
            self.callback(text[self.sent :])
            self.sent = len(text)


def generate(
    model: Any,  # a Llama (not imported: llama imports this module)
    prompt: str | Sequence[int],
    max_new_tokens: int = 64,
    *,
    temperature: float = 0.0,
    top_k: int | None = None,
    top_p: float | None = None,
    seed: int | None = None,
    generator: Any = None,
    chat: bool = False,
    eos_token_id: int | None = None,
    stream: Callable[[str], Any] | None = None,
    decode_step: Callable[[Any, int], Any] | None = None,
) -> Generation:
    """Generate up to `max_new_tokens` tokens after `prompt`.

    temperature 0 is greedy (argmax); otherwise the logits are divided by it, cut to the
    `top_k` largest and to the smallest set of probability >= `top_p`, and a token is drawn
    with `generator` (or a fresh one seeded with `seed`). `chat=True` renders the prompt
    text as one user message through the model's chat template. `decode_step(ids, pos)` (a
    compiled step, for example) replaces `model(ids, start_pos=pos, last_only=True)` for the
    one-token steps."""
    from ..random import Generator

    check_sampling(temperature, top_k, top_p)
    if max_new_tokens < 0:
        raise ValueError(f"max_new_tokens must be non-negative, got {max_new_tokens}")
    tok = model.tokenizer
    if isinstance(prompt, str):
        if tok is None:
            raise ValueError("generate: a text prompt needs the model's tokenizer (use load())")
        if chat:
            prompt = tok.apply_chat_template([{"role": "user", "content": prompt}])
        ids = tok.encode(prompt)
    else:
        if chat:
            raise ValueError("generate: chat=True needs a text prompt")
        ids = [int(t) for t in prompt]
    if not ids:
        raise ValueError("generate: the prompt has no tokens")
    if eos_token_id is None and tok is not None:
        eos_token_id = tok.eos_token_id
    if model.rope_cos is None:
        model.setup_cache(min(2048, model.config.max_positions))
    if len(ids) > model.max_seq_len:
        raise ValueError(
            f"generate: the prompt has {len(ids)} tokens, more than the cache's "
            f"{model.max_seq_len} positions"
        )
    if temperature > 0 and generator is None:
        generator = Generator()
        if seed is not None:
            generator.manual_seed(seed)
    out = Generation(prompt_tokens=list(ids))
    streamer = _Streamer(tok, stream) if stream is not None and tok is not None else None
    step = decode_step or (lambda x, pos: model(x, start_pos=pos, last_only=True))

    def pick(logits: Any) -> int:
        return sample_next(logits[0, -1], temperature, top_k, top_p, generator)

    with no_grad():
        if max_new_tokens == 0:
            return out
        t0 = time.perf_counter()
        logits = model(_creation.tensor([ids], dtype=int64), start_pos=0, last_only=True)
        token = pick(logits)
        out.prefill_seconds = time.perf_counter() - t0
        t0 = time.perf_counter()
        pos = len(ids)
        while True:
            out.tokens.append(token)
            if streamer is not None:
                streamer.put(token)
            if eos_token_id is not None and token == eos_token_id:
                out.stop_reason = "eos"
                break
            if len(out.tokens) >= max_new_tokens:
                out.stop_reason = "length"
                break
            if pos >= model.max_seq_len:
                out.stop_reason = "cache"
                break
            logits = step(_creation.tensor([[token]], dtype=int64), pos)
            pos += 1
            token = pick(logits)
        out.decode_seconds = time.perf_counter() - t0
    if tok is not None:
        out.text = tok.decode(out.tokens, skip_special_tokens=True)
    return out
