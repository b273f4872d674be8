"""A Llama-shaped decoder (RMSNorm, rotary attention with grouped KV heads, SwiGLU MLP) built
from keyroute.nn modules: runs for real at small sizes, and plans memory at any size on the
meta device.

>>> cfg = LlamaConfig(layers=2, hidden=64, ffn=128, heads=4, kv_heads=2, vocab=100)
>>> cfg.param_count()
86848
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from .._api import creation as _creation
from ..nn import functional as F
from ..nn.modules import Embedding, Linear, Module, ModuleList, RMSNorm
from ..tensor._tensor import Tensor

__all__ = ["LlamaConfig", "Llama", "LLAMA_CONFIGS"]


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
}


def _rotate_half(x: Tensor) -> Tensor:
    half = x.shape[-1] // 2
    return _creation_cat((-x[..., half:], x[..., :half]))


def _creation_cat(parts: tuple[Tensor, ...]) -> Tensor:
    from .. import cat

    return cat(parts, -1)


class Attention(Module):
    def __init__(self, cfg: LlamaConfig, device: Any = None, dtype: Any = None) -> None:
        super().__init__()
        self.heads, self.kv_heads, self.head_dim = cfg.heads, cfg.kv_heads, cfg.head_dim
        kv = cfg.kv_heads * cfg.head_dim
        self.q_proj = Linear(cfg.hidden, cfg.hidden, bias=False, device=device, dtype=dtype)
        self.k_proj = Linear(cfg.hidden, kv, bias=False, device=device, dtype=dtype)
        self.v_proj = Linear(cfg.hidden, kv, bias=False, device=device, dtype=dtype)
        self.o_proj = Linear(cfg.hidden, cfg.hidden, bias=False, device=device, dtype=dtype)

    def forward(self, x: Tensor, cos: Tensor, sin: Tensor) -> Tensor:
        b, s, _ = x.shape
        q = self.q_proj(x).view(b, s, self.heads, self.head_dim).transpose(1, 2)
        k = self.k_proj(x).view(b, s, self.kv_heads, self.head_dim).transpose(1, 2)
        v = self.v_proj(x).view(b, s, self.kv_heads, self.head_dim).transpose(1, 2)
        q = q * cos + _rotate_half(q) * sin
        k = k * cos + _rotate_half(k) * sin
        if self.kv_heads != self.heads:
            rep = self.heads // self.kv_heads
            k = k.repeat_interleave(rep, dim=1)
            v = v.repeat_interleave(rep, dim=1)
        out = F.scaled_dot_product_attention(q, k, v, is_causal=True)
        return self.o_proj(out.transpose(1, 2).reshape(b, s, self.heads * self.head_dim))


class MLP(Module):
    def __init__(self, cfg: LlamaConfig, device: Any = None, dtype: Any = None) -> None:
        super().__init__()
        self.gate_proj = Linear(cfg.hidden, cfg.ffn, bias=False, device=device, dtype=dtype)
        self.up_proj = Linear(cfg.hidden, cfg.ffn, bias=False, device=device, dtype=dtype)
        self.down_proj = Linear(cfg.ffn, cfg.hidden, bias=False, device=device, dtype=dtype)

    def forward(self, x: Tensor) -> Tensor:
        return self.down_proj(F.silu(self.gate_proj(x)) * self.up_proj(x))


class DecoderLayer(Module):
    def __init__(self, cfg: LlamaConfig, device: Any = None, dtype: Any = None) -> None:
        super().__init__()
        self.input_layernorm = RMSNorm(cfg.hidden, eps=cfg.norm_eps, device=device, dtype=dtype)
        self.self_attn = Attention(cfg, device, dtype)
        self.post_attention_layernorm = RMSNorm(
            cfg.hidden, eps=cfg.norm_eps, device=device, dtype=dtype
        )
        self.mlp = MLP(cfg, device, dtype)

    def forward(self, x: Tensor, cos: Tensor, sin: Tensor) -> Tensor:
        x = x + self.self_attn(self.input_layernorm(x), cos, sin)
        return x + self.mlp(self.post_attention_layernorm(x))


class Llama(Module):
    def __init__(self, cfg: LlamaConfig, device: Any = None, dtype: Any = None) -> None:
        super().__init__()
        self.config = cfg
        self.embed_tokens = Embedding(cfg.vocab, cfg.hidden, device=device, dtype=dtype)
        self.layers = ModuleList([DecoderLayer(cfg, device, dtype) for _ in range(cfg.layers)])
        self.norm = RMSNorm(cfg.hidden, eps=cfg.norm_eps, device=device, dtype=dtype)
        if cfg.tie_embeddings:
            self.lm_head = None
        else:
            self.lm_head = Linear(cfg.hidden, cfg.vocab, bias=False, device=device, dtype=dtype)

    def rotary(self, seq: int, like: Tensor) -> tuple[Tensor, Tensor]:
        cfg = self.config
        d = cfg.head_dim
        even = _creation.arange(0, d, 2, dtype=like.dtype, device=like.device)
        inv = 1.0 / (cfg.rope_theta ** (even / d))
        t = _creation.arange(seq, dtype=like.dtype, device=like.device)
        freqs = t[:, None] * inv[None, :]
        emb = _creation_cat((freqs, freqs))
        return emb.cos()[None, None], emb.sin()[None, None]

    def forward(self, input_ids: Tensor) -> Tensor:
        x = self.embed_tokens(input_ids)
        cos, sin = self.rotary(input_ids.shape[1], x)
        for layer in self.layers:
            x = layer(x, cos, sin)
        x = self.norm(x)
        if self.lm_head is None:
            return F.linear(x, self.embed_tokens.weight)
        return self.lm_head(x)
