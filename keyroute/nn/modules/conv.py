"""torch.nn.modules.conv (PyTorch's module path): Conv1d, Conv2d, ConvTranspose1d, ConvTranspose2d.

The classes are defined in layers.py and carry this module as their home, as PyTorch's do.
"""

from __future__ import annotations

from .layers import Conv1d, Conv2d, ConvTranspose1d, ConvTranspose2d, _ConvNd, _ConvTransposeNd  # noqa: F401

__all__ = ["Conv1d", "Conv2d", "ConvTranspose1d", "ConvTranspose2d"]

for _cls in (
    _ConvNd,
    Conv1d,
    Conv2d,
    _ConvTransposeNd,
    ConvTranspose1d,
    ConvTranspose2d,
):
    _cls.__module__ = __name__
del _cls
