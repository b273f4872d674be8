"""torch.nn.modules.dropout: Dropout (PyTorch's module path; the classes are
defined in layers.py and carry this module as their home, as PyTorch's do)."""

from __future__ import annotations

from .layers import Dropout  # noqa: F401

__all__ = ["Dropout"]

for _cls in (Dropout,):
    _cls.__module__ = __name__
del _cls
