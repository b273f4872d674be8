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

# The families defined in their own modules (PyTorch's file names): each exports its __all__.
from . import activation_mha, activation_more, batchnorm, instancenorm, lazy, loss_more, rnn  # noqa: E402, F401, I001
from . import misc, transformer  # noqa: E402
from . import fold, upsampling  # noqa: E402
from . import embedding_bag, pooling3d  # noqa: E402
from . import loss_ctc  # noqa: E402

_FAMILIES = (
    batchnorm, instancenorm, normalization, rnn, activation_mha, transformer, activation_more,
    loss_more, misc, upsampling, fold, embedding_bag, pooling3d, loss_ctc,
)  # fmt: skip
for _family in _FAMILIES:
    for _name in _family.__all__:
        globals()[_name] = getattr(_family, _name)
        if _name not in __all__:
            __all__.append(_name)
del _family, _name
