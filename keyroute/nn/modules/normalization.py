"""torch.nn.modules.normalization: LayerNorm, RMSNorm (PyTorch's module path; the classes are
defined in layers.py and carry this module as their home, as PyTorch's do)."""

from __future__ import annotations

from .layers import LayerNorm, RMSNorm  # noqa: F401

__all__ = ["LayerNorm", "RMSNorm"]

for _cls in (
    LayerNorm,
    RMSNorm,
):
    _cls.__module__ = __name__
del _cls
