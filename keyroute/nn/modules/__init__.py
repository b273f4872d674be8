"""torch.nn's module classes."""

# PyTorch's file layout (torch.nn.modules.linear.Linear, ...): re-homes the classes.
from . import activation, conv, dropout, flatten, linear, loss, normalization, pooling, sparse  # noqa: E402, F401
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
