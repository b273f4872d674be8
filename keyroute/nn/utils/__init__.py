"""torch.nn.utils: gradient clipping, parameter/vector conversion, weight and spectral norm,
parametrizations, RNN packing, fusion, stateless calls."""

from . import parametrizations, parametrize, rnn, stateless  # noqa: F401
from .clip_grad import (
    clip_grad_norm,
    clip_grad_norm_,
    clip_grad_value_,
    clip_grads_with_norm_,
    get_total_norm,
)
from .convert_parameters import parameters_to_vector, vector_to_parameters
from .fusion import (
    fuse_conv_bn_eval,
    fuse_conv_bn_weights,
    fuse_linear_bn_eval,
    fuse_linear_bn_weights,
)
from .init import skip_init
from .spectral_norm import remove_spectral_norm, spectral_norm
from .weight_norm import remove_weight_norm, weight_norm

__all__ = [
    "clip_grad_norm",
    "clip_grad_norm_",
    "clip_grad_value_",
    "clip_grads_with_norm_",
    "convert_conv2d_weight_memory_format",
    "convert_conv3d_weight_memory_format",
    "fuse_conv_bn_eval",
    "fuse_conv_bn_weights",
    "fuse_linear_bn_eval",
    "fuse_linear_bn_weights",
    "get_total_norm",
    "parameters_to_vector",
    "parametrizations",
    "parametrize",
    "remove_spectral_norm",
    "remove_weight_norm",
    "rnn",
    "skip_init",
    "spectral_norm",
    "stateless",
    "vector_to_parameters",
    "weight_norm",
]


def convert_conv2d_weight_memory_format(module: object, memory_format: object) -> object:
    """Convert the weights of the Conv2d/ConvTranspose2d modules of module to memory_format."""
    return _convert_weights(module, memory_format, ("Conv2d", "ConvTranspose2d"))


def convert_conv3d_weight_memory_format(module: object, memory_format: object) -> object:
    """Convert the weights of the Conv3d/ConvTranspose3d modules of module to memory_format."""
    return _convert_weights(module, memory_format, ("Conv3d", "ConvTranspose3d"))


def _convert_weights(module: object, memory_format: object, kinds: tuple[str, ...]) -> object:
    if type(module).__name__ in kinds:
        w = module.weight.detach().clone().contiguous(memory_format=memory_format)
        module.weight.data = w.resize_(w.size(), memory_format=memory_format)
    for child in module.children():
        _convert_weights(child, memory_format, kinds)
    return module
