"""torch.nn.modules.activation (PyTorch's module path): the activation modules.

The classes are defined in layers.py and carry this module as their home, as PyTorch's do.
"""

from __future__ import annotations

from .layers import (
    ELU,
    GELU,
    Hardtanh,
    LeakyReLU,
    LogSoftmax,
    Mish,
    ReLU,
    Sigmoid,
    SiLU,
    Softmax,
    Softplus,
    Tanh,
)  # noqa: F401

__all__ = [
    "ReLU",
    "GELU",
    "SiLU",
    "Tanh",
    "Sigmoid",
    "Softmax",
    "LogSoftmax",
    "LeakyReLU",
    "Hardtanh",
    "ELU",
    "Softplus",
    "Mish",
]

for _cls in (
    ReLU,
    GELU,
    SiLU,
    Tanh,
    Sigmoid,
    Softmax,
    LogSoftmax,
    LeakyReLU,
    Hardtanh,
    ELU,
    Softplus,
    Mish,
):
    _cls.__module__ = __name__
del _cls
