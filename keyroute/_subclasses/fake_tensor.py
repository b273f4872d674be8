"""Alias of keyroute.subclasses.fake_tensor (PyTorch's torch._subclasses.fake_tensor)."""

from ..subclasses.fake_tensor import *  # noqa: F403
from ..subclasses.fake_tensor import __all__  # noqa: F401
