"""Neural-network modules, parameters, initialisation and functions (torch.nn)."""

from . import functional, init, utils  # noqa: F401
from .modules import *  # noqa: F403
from .modules import __all__ as _modules_all
from .parameter import Buffer, Parameter

__all__ = ["Parameter", "Buffer", "functional", "init", *_modules_all]


def __getattr__(name: str) -> object:
    # A PyTorch name keyroute lacks: a NotImplementedError naming it (keyroute/_missing.py).
    from .._missing import missing

    raise missing("nn", name, "module 'keyroute.nn'")
