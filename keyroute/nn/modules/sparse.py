"""torch.nn.modules.sparse: Embedding and EmbeddingBag (PyTorch's module path; the classes are
defined in layers.py and embedding_bag.py and carry this module as their home, as PyTorch's do)."""

from __future__ import annotations

from .embedding_bag import EmbeddingBag  # noqa: F401
from .layers import Embedding  # noqa: F401

__all__ = ["Embedding", "EmbeddingBag"]

for _cls in (Embedding, EmbeddingBag):
    _cls.__module__ = __name__
del _cls
