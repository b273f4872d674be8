"""torch.backends.cpu: the vector instruction set PyTorch's CPU kernels were picked for."""

from __future__ import annotations

__all__ = ["get_cpu_capability"]


def get_cpu_capability() -> str:
    """ "DEFAULT": keyroute's kernels are NumPy calls, not ATen's per-ISA builds."""
    return "DEFAULT"
