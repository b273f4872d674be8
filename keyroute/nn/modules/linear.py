"""torch.nn.modules.linear: Identity, Linear, Bilinear (PyTorch's module path; the classes are
defined in layers.py and carry this module as their home, as PyTorch's do)."""

from __future__ import annotations

from .layers import Bilinear, Identity, Linear  # noqa: F401

__all__ = ["Identity", "Linear", "Bilinear"]

for _cls in (
    Identity,
    Linear,
    Bilinear,
):
    _cls.__module__ = __name__
del _cls
