"""torch.backends: the flags and availability checks of PyTorch's compute libraries.

keyroute computes with NumPy on the CPU, so the CUDA-side libraries (cuDNN, MPS) report
unavailable exactly as on PyTorch's CPU build, and their flags hold the values PyTorch's
defaults have, so that programs which set them (`torch.backends.cudnn.benchmark = True`) run.
keyroute's own kernels live in `keyroute.kernels`.
"""

from __future__ import annotations

from . import cpu, cuda, cudnn, mkl, mkldnn, mps, nnpack, openmp, opt_einsum  # noqa: F401

__all__ = ["cpu", "cuda", "cudnn", "mkl", "mkldnn", "mps", "nnpack", "openmp", "opt_einsum"]

#: torch.backends.fp32_precision: "none" lets each backend choose (PyTorch's default).
fp32_precision = "none"
