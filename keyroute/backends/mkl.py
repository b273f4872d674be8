"""torch.backends.mkl: keyroute links no MKL of its own (NumPy's BLAS does the work)."""

from __future__ import annotations

__all__ = ["is_available"]


def is_available() -> bool:
    return False
