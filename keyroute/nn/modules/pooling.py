"""torch.nn.modules.pooling (PyTorch's module path): MaxPool2d, AvgPool2d, AdaptiveAvgPool2d.

The classes are defined in layers.py and carry this module as their home, as PyTorch's do.
"""

from __future__ import annotations

from .layers import AdaptiveAvgPool2d, AvgPool2d, MaxPool2d  # noqa: F401

__all__ = ["MaxPool2d", "AvgPool2d", "AdaptiveAvgPool2d"]

for _cls in (
    MaxPool2d,
    AvgPool2d,
    AdaptiveAvgPool2d,
):
    _cls.__module__ = __name__
del _cls
