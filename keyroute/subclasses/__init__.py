"""Tensor subclasses shipped with keyroute (FakeTensor)."""

from .fake_tensor import FakeTensor, FakeTensorMode

__all__ = ["FakeTensor", "FakeTensorMode"]
