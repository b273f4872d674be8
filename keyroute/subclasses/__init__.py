"""Tensor subclasses shipped with keyroute (PyTorch's torch._subclasses): FakeTensor."""

from . import fake_tensor
from .fake_tensor import (
    DynamicOutputShapeException,
    FakeTensor,
    FakeTensorMode,
    UnsupportedFakeTensorException,
)

__all__ = [
    "FakeTensor",
    "FakeTensorMode",
    "UnsupportedFakeTensorException",
    "DynamicOutputShapeException",
    "fake_tensor",
]
