"""Alias of keyroute.subclasses under PyTorch's private name (torch._subclasses)."""

from ..subclasses import FakeTensor, FakeTensorMode, fake_tensor

__all__ = ["FakeTensor", "FakeTensorMode", "fake_tensor"]
