"""The shape of a Llama-family decoder, and the shapes of known models."""

from __future__ import annotations

from dataclasses import dataclass

__all__ = ["LlamaConfig", "LLAMA_CONFIGS"]


@dataclass
class LlamaConfig:
    layers: int = 32
    hidden: int = 4096
    ffn: int = 11008
    heads: int = 32
    kv_heads: int = 32
    vocab: int = 32000
    norm_eps: float = 1e-5
    rope_theta: float = 10000.0
    tie_embeddings: bool = False
    max_positions: int = 4096

    @property
    def head_dim(self) -> int:
        return self.hidden // self.heads

    def param_count(self) -> int:
        """Exact parameter count (embedding, per-layer attention/MLP/norms, final norm, head)."""
        kv = self.kv_heads * self.head_dim
        attn = self.hidden * self.hidden * 2 + self.hidden * kv * 2
        mlp = 3 * self.hidden * self.ffn
        per_layer = attn + mlp + 2 * self.hidden
        head = 0 if self.tie_embeddings else self.vocab * self.hidden
        return self.vocab * self.hidden + self.layers * per_layer + self.hidden + head


LLAMA_CONFIGS = {
    "llama2-7b": LlamaConfig(32, 4096, 11008, 32, 32, 32000),
    "llama2-13b": LlamaConfig(40, 5120, 13824, 40, 40, 32000),
    "llama2-70b": LlamaConfig(80, 8192, 28672, 64, 8, 32000),
    "llama3-8b": LlamaConfig(32, 4096, 14336, 32, 8, 128256, rope_theta=500000.0),
    "llama3-70b": LlamaConfig(80, 8192, 28672, 64, 8, 128256, rope_theta=500000.0),
    "smollm2-135m": LlamaConfig(
        30, 576, 1536, 9, 3, 49152, rope_theta=100000.0, tie_embeddings=True, max_positions=8192
    ),
}
