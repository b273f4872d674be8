"""torch.nn.modules.sparse: Embedding (PyTorch's module path; the classes are
defined in layers.py and carry this module as their home, as PyTorch's do)."""

from __future__ import annotations

from .layers import Embedding  # noqa: F401

__all__ = ["Embedding"]

for _cls in (Embedding,):
    _cls.__module__ = __name__
del _cls
