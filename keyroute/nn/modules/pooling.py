"""torch.nn.modules.pooling (PyTorch's module path): MaxPool2d, AvgPool2d, AdaptiveAvgPool2d and
the 3-d forms (pooling3d.py).

The classes are defined in layers.py and carry this module as their home, as PyTorch's do.
"""

from __future__ import annotations

from .layers import AdaptiveAvgPool2d, AvgPool2d, MaxPool2d  # noqa: F401
from .pooling3d import AdaptiveAvgPool3d, AdaptiveMaxPool3d, AvgPool3d, LPPool3d, MaxPool3d

__all__ = [
    "MaxPool2d", "AvgPool2d", "AdaptiveAvgPool2d", "MaxPool3d", "AvgPool3d", "AdaptiveAvgPool3d",
    "AdaptiveMaxPool3d", "LPPool3d",
]  # fmt: skip

for _cls in (
    MaxPool2d,
    AvgPool2d,
    AdaptiveAvgPool2d,
    MaxPool3d,
    AvgPool3d,
    AdaptiveAvgPool3d,
    AdaptiveMaxPool3d,
    LPPool3d,
):
    _cls.__module__ = __name__
del _cls
