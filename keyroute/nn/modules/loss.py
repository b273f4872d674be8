"""torch.nn.modules.loss (PyTorch's module path): the loss modules.

The classes are defined in layers.py and carry this module as their home, as PyTorch's do.
"""

from __future__ import annotations

from .layers import BCELoss, BCEWithLogitsLoss, CrossEntropyLoss, L1Loss, MSELoss, NLLLoss, _Loss  # noqa: F401

__all__ = ["CrossEntropyLoss", "MSELoss", "NLLLoss", "L1Loss", "BCELoss", "BCEWithLogitsLoss"]

for _cls in (
    _Loss,
    CrossEntropyLoss,
    MSELoss,
    NLLLoss,
    L1Loss,
    BCELoss,
    BCEWithLogitsLoss,
):
    _cls.__module__ = __name__
del _cls
