"""torch.nn's module classes."""

from .container import ModuleDict, ModuleList, ParameterDict, ParameterList, Sequential
from .layers import *  # noqa: F403
from .layers import __all__ as _layers_all
from .module import Module

__all__ = [
    "Module",
    "Sequential",
    "ModuleList",
    "ModuleDict",
    "ParameterList",
    "ParameterDict",
    *_layers_all,
]
