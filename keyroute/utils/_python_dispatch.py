"""Alias of keyroute.utils.python_dispatch under PyTorch's private name."""

from .python_dispatch import *  # noqa: F403
from .python_dispatch import __all__  # noqa: F401
