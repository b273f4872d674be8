"""The tokenizer and chat template of a GGUF model, from its metadata.

A GGUF file of the `gpt2` tokenizer family carries its byte-level BPE vocabulary and merges;
the `smollm` / `starcoder` pre-tokenizers split digits one by one before GPT-2's byte-level
split (Hugging Face's tokenizer.json for SmolLM2 says the same). Control tokens (type 3:
`<|im_start|>`, `<|im_end|>`, ...) are added as special tokens so they are matched whole. Built
with `tokenizers`; the chat template (Jinja) is rendered with `jinja2`, as transformers'
`apply_chat_template` does.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

__all__ = ["LlamaTokenizer"]

_CONTROL = 3  # llama.cpp's token type for control tokens
_DIGIT_SPLIT = ("smollm", "starcoder", "refact", "qwen2", "deepseek-coder")


class LlamaTokenizer:
    """encode / decode / apply_chat_template for a GGUF model's vocabulary."""

    def __init__(self, metadata: dict[str, Any]) -> None:
        try:
            from tokenizers import Tokenizer, decoders, models, pre_tokenizers
        except ImportError:
            raise ModuleNotFoundError(
                "The tokenizer needs the 'tokenizers' package: pip install 'keyroute[models]'"
            ) from None
        kind = metadata.get("tokenizer.ggml.model")
        if kind != "gpt2":
            raise NotImplementedError(
                f"GGUF tokenizer model {kind!r} is not supported (only byte-level BPE, 'gpt2')"
            )
        tokens: list[str] = list(metadata["tokenizer.ggml.tokens"])
        types = list(metadata.get("tokenizer.ggml.token_type", [1] * len(tokens)))
        merges = [tuple(m.split(" ", 1)) for m in metadata["tokenizer.ggml.merges"]]
        tok = Tokenizer(models.BPE({t: i for i, t in enumerate(tokens)}, merges))
        byte_level = pre_tokenizers.ByteLevel(add_prefix_space=False, use_regex=True)
        if metadata.get("tokenizer.ggml.pre") in _DIGIT_SPLIT:
            tok.pre_tokenizer = pre_tokenizers.Sequence(
                [pre_tokenizers.Digits(individual_digits=True), byte_level]
            )
        else:
            tok.pre_tokenizer = byte_level
        tok.decoder = decoders.ByteLevel()
        self.special_tokens = [t for t, k in zip(tokens, types) if k == _CONTROL]
        tok.add_special_tokens(self.special_tokens)
        self._tok = tok
        self.vocab_size = len(tokens)
        self.bos_token_id: int | None = metadata.get("tokenizer.ggml.bos_token_id")
        self.eos_token_id: int | None = metadata.get("tokenizer.ggml.eos_token_id")
        self.add_bos = bool(metadata.get("tokenizer.ggml.add_bos_token", False))
        self.chat_template: str | None = metadata.get("tokenizer.chat_template")
        self._template: Any = None

    def encode(self, text: str) -> list[int]:
        ids = self._tok.encode(text).ids
        if self.add_bos and self.bos_token_id is not None:
            ids = [self.bos_token_id, *ids]
        return ids

    def decode(self, ids: Sequence[int], skip_special_tokens: bool = False) -> str:
        return self._tok.decode(list(ids), skip_special_tokens=skip_special_tokens)

    def token_to_id(self, token: str) -> int | None:
        return self._tok.token_to_id(token)

    def apply_chat_template(
        self, messages: Sequence[dict[str, str]], add_generation_prompt: bool = True
    ) -> str:
        """The prompt text for `messages` ([{"role": "user", "content": ...}, ...])."""
        if self.chat_template is None:
            raise ValueError("this model's GGUF file has no tokenizer.chat_template")
        if self._template is None:
            try:
                import jinja2
            except ImportError:
                raise ModuleNotFoundError(
                    "Chat templates need the 'jinja2' package: pip install 'keyroute[models]'"
                ) from None
            env = jinja2.Environment(trim_blocks=True, lstrip_blocks=True)
            self._template = env.from_string(self.chat_template)
        return self._template.render(
            messages=list(messages), add_generation_prompt=add_generation_prompt
        )
