"""torch.nn.modules.flatten: Flatten, Unflatten (PyTorch's module path; the classes are
defined in layers.py and carry this module as their home, as PyTorch's do)."""

from __future__ import annotations

from .layers import Flatten, Unflatten  # noqa: F401

__all__ = ["Flatten", "Unflatten"]

for _cls in (
    Flatten,
    Unflatten,
):
    _cls.__module__ = __name__
del _cls
