"""torch.backends.openmp: keyroute runs its Python on one thread (NumPy's BLAS may use more)."""

from __future__ import annotations

__all__ = ["is_available"]


def is_available() -> bool:
    return False
