"""torch.amp: autocast (autocast_mode.py over the Autocast layer, keyroute/layers/autocast.py)
and GradScaler (grad_scaler.py), as PyTorch's CPU build behaves without a GPU: CUDA autocast and
the CUDA GradScaler are disabled with PyTorch's warnings.
"""

from __future__ import annotations

from .autocast_mode import autocast, custom_bwd, custom_fwd, is_autocast_available
from .grad_scaler import GradScaler

__all__ = ["autocast", "GradScaler", "is_autocast_available", "custom_fwd", "custom_bwd"]
