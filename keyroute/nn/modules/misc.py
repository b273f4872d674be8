"""More torch.nn modules: the feature and alpha dropouts, padding modules, 1-d / adaptive max /
LP pooling, pixel and channel shuffles, Conv3d, LazyLinear and the Lazy convolutions,
DataParallel (one device: the module itself, as PyTorch on CPU) and Container."""

from __future__ import annotations

import warnings
from typing import Any

from ...tensor._tensor import Tensor
from .. import functional as F
from ..parameter import UninitializedParameter
from .layers import (
    AvgPool2d,
    Conv1d,
    Conv2d,
    ConvTranspose1d,
    ConvTranspose2d,
    Dropout,
    Linear,
    MaxPool2d,
    _ConvNd,
)
from .lazy import LazyModuleMixin, materialize
from .module import Module

__all__ = [
    "Dropout1d", "Dropout2d", "Dropout3d", "AlphaDropout", "FeatureAlphaDropout",
    "ZeroPad1d", "ZeroPad2d", "ZeroPad3d", "ConstantPad1d", "ConstantPad2d", "ConstantPad3d",
    "ReflectionPad1d", "ReflectionPad2d", "ReflectionPad3d", "ReplicationPad1d",
    "ReplicationPad2d", "ReplicationPad3d", "CircularPad1d", "CircularPad2d", "CircularPad3d",
    "MaxPool1d", "AvgPool1d", "AdaptiveAvgPool1d", "AdaptiveMaxPool1d", "AdaptiveMaxPool2d",
    "LPPool1d", "LPPool2d", "PixelShuffle", "PixelUnshuffle", "ChannelShuffle", "Conv3d",
    "LazyLinear", "LazyConv1d", "LazyConv2d", "LazyConv3d", "LazyConvTranspose1d",
    "LazyConvTranspose2d", "DataParallel", "Container", "ConvTranspose3d", "LazyConvTranspose3d",
]  # fmt: skip


def _dropout(name: str, fn_name: str) -> type[Module]:
    def forward(self: Any, input: Tensor) -> Tensor:  # noqa: A002
        return getattr(F, fn_name)(input, self.p, self.training, self.inplace)

    return type(name, (Dropout,), {"forward": forward, "__module__": __name__})


Dropout1d = _dropout("Dropout1d", "dropout1d")
Dropout2d = _dropout("Dropout2d", "dropout2d")
Dropout3d = _dropout("Dropout3d", "dropout3d")
AlphaDropout = _dropout("AlphaDropout", "alpha_dropout")
FeatureAlphaDropout = _dropout("FeatureAlphaDropout", "feature_alpha_dropout")


class _PadNd(Module):
    _n = 1
    mode = "constant"

    def __init__(self, padding: Any, value: float | None = None) -> None:
        super().__init__()
        self.padding = (padding,) * (2 * self._n) if isinstance(padding, int) else tuple(padding)
        if value is not None or self.mode == "constant":
            self.value = 0.0 if value is None else value

    def forward(self, input: Tensor) -> Tensor:  # noqa: A002
        if self.mode == "constant":
            return F.pad(input, self.padding, "constant", self.value)
        return F.pad(input, self.padding, self.mode)

    def extra_repr(self) -> str:
        if self.mode == "constant" and not type(self).__name__.startswith("Zero"):
            return f"padding={self.padding}, value={self.value}"
        return f"{self.padding}"


def _pad(name: str, n: int, mode: str, with_value: bool) -> type[Module]:
    if with_value:

        def __init__(self: Any, padding: Any, value: float) -> None:
            _PadNd.__init__(self, padding, value)
    else:

        def __init__(self: Any, padding: Any) -> None:
            _PadNd.__init__(self, padding)

    ns = {"_n": n, "mode": mode, "__init__": __init__, "__module__": __name__}
    return type(name, (_PadNd,), ns)


ZeroPad1d = _pad("ZeroPad1d", 1, "constant", False)
ZeroPad2d = _pad("ZeroPad2d", 2, "constant", False)
ZeroPad3d = _pad("ZeroPad3d", 3, "constant", False)
ConstantPad1d = _pad("ConstantPad1d", 1, "constant", True)
ConstantPad2d = _pad("ConstantPad2d", 2, "constant", True)
ConstantPad3d = _pad("ConstantPad3d", 3, "constant", True)
ReflectionPad1d = _pad("ReflectionPad1d", 1, "reflect", False)
ReflectionPad2d = _pad("ReflectionPad2d", 2, "reflect", False)
ReflectionPad3d = _pad("ReflectionPad3d", 3, "reflect", False)
ReplicationPad1d = _pad("ReplicationPad1d", 1, "replicate", False)
ReplicationPad2d = _pad("ReplicationPad2d", 2, "replicate", False)
ReplicationPad3d = _pad("ReplicationPad3d", 3, "replicate", False)
CircularPad1d = _pad("CircularPad1d", 1, "circular", False)
CircularPad2d = _pad("CircularPad2d", 2, "circular", False)
CircularPad3d = _pad("CircularPad3d", 3, "circular", False)


class MaxPool1d(MaxPool2d):
    def forward(self, input: Tensor) -> Any:  # noqa: A002
        return F.max_pool1d(
            input, self.kernel_size, self.stride, self.padding, self.dilation,
            ceil_mode=self.ceil_mode, return_indices=self.return_indices,
        )  # fmt: skip


class AvgPool1d(AvgPool2d):
    def forward(self, input: Tensor) -> Tensor:  # noqa: A002
        return F.avg_pool1d(
            input, self.kernel_size, self.stride, self.padding, self.ceil_mode,
            self.count_include_pad,
        )  # fmt: skip


class _AdaptivePool(Module):
    def __init__(self, output_size: Any, return_indices: bool = False) -> None:
        super().__init__()
        self.output_size = output_size
        self.return_indices = return_indices

    def extra_repr(self) -> str:
        return f"output_size={self.output_size}"


class AdaptiveAvgPool1d(_AdaptivePool):
    def __init__(self, output_size: Any) -> None:
        super().__init__(output_size)

    def forward(self, input: Tensor) -> Tensor:  # noqa: A002
        return F.adaptive_avg_pool1d(input, self.output_size)


class AdaptiveMaxPool1d(_AdaptivePool):
    def forward(self, input: Tensor) -> Any:  # noqa: A002
        return F.adaptive_max_pool1d(input, self.output_size, self.return_indices)


class AdaptiveMaxPool2d(_AdaptivePool):
    def forward(self, input: Tensor) -> Any:  # noqa: A002
        return F.adaptive_max_pool2d(input, self.output_size, self.return_indices)


class _LPPool(Module):
    def __init__(
        self, norm_type: float, kernel_size: Any, stride: Any = None, ceil_mode: bool = False
    ) -> None:
        super().__init__()
        self.norm_type = norm_type
        self.kernel_size = kernel_size
        self.stride = stride
        self.ceil_mode = ceil_mode

    def extra_repr(self) -> str:
        return (
            f"norm_type={self.norm_type}, kernel_size={self.kernel_size}, stride={self.stride}, "
            f"ceil_mode={self.ceil_mode}"
        )


class LPPool1d(_LPPool):
    def forward(self, input: Tensor) -> Tensor:  # noqa: A002
        return F.lp_pool1d(input, float(self.norm_type), self.kernel_size, self.stride,
                           self.ceil_mode)  # fmt: skip


class LPPool2d(_LPPool):
    def forward(self, input: Tensor) -> Tensor:  # noqa: A002
        return F.lp_pool2d(input, float(self.norm_type), self.kernel_size, self.stride,
                           self.ceil_mode)  # fmt: skip


class PixelShuffle(Module):
    def __init__(self, upscale_factor: int) -> None:
        super().__init__()
        self.upscale_factor = upscale_factor

    def forward(self, input: Tensor) -> Tensor:  # noqa: A002
        return F.pixel_shuffle(input, self.upscale_factor)

    def extra_repr(self) -> str:
        return f"upscale_factor={self.upscale_factor}"


class PixelUnshuffle(Module):
    def __init__(self, downscale_factor: int) -> None:
        super().__init__()
        self.downscale_factor = downscale_factor

    def forward(self, input: Tensor) -> Tensor:  # noqa: A002
        return F.pixel_unshuffle(input, self.downscale_factor)

    def extra_repr(self) -> str:
        return f"downscale_factor={self.downscale_factor}"


class ChannelShuffle(Module):
    def __init__(self, groups: int) -> None:
        super().__init__()
        self.groups = groups

    def forward(self, input: Tensor) -> Tensor:  # noqa: A002
        return F.channel_shuffle(input, self.groups)

    def extra_repr(self) -> str:
        return f"groups={self.groups}"


class Conv3d(_ConvNd):
    """3-d convolution over (N, C, D, H, W)."""

    _n = 3

    def forward(self, input: Tensor) -> Tensor:  # noqa: A002
        return F.conv3d(
            input, self.weight, self.bias, self.stride, self.padding, self.dilation, self.groups
        )


class ConvTranspose3d(ConvTranspose2d):
    """3-d transposed convolution over (N, C, D, H, W)."""

    _n = 3


class LazyLinear(LazyModuleMixin, Linear):
    """Linear whose in_features is the first input's last dimension."""

    cls_to_become = Linear

    def __init__(self, out_features: int, bias: bool = True, device: Any = None,
                 dtype: Any = None) -> None:  # fmt: skip
        super().__init__(0, 0, False, device, dtype)
        self.weight = UninitializedParameter(dtype=dtype)
        self.out_features = out_features
        if bias:
            self.bias = UninitializedParameter(dtype=dtype)

    def reset_parameters(self) -> None:
        if not self.has_uninitialized_params() and self.in_features != 0:
            super().reset_parameters()

    def initialize_parameters(self, input: Tensor) -> None:  # noqa: A002
        if self.has_uninitialized_params():
            self.in_features = input.shape[-1]
            self.weight = materialize(self.weight, (self.out_features, self.in_features))
            if self.bias is not None:
                self.bias = materialize(self.bias, (self.out_features,))
            self.reset_parameters()


def _lazy_conv(name: str, base: type, transposed: bool) -> type:
    def __init__(self: Any, out_channels: int, kernel_size: Any, *args: Any, **kwargs: Any) -> None:
        # (0 channels: the base's reset_parameters draws nothing, as PyTorch's)
        LazyModuleMixin.__init__(self, 0, 0, kernel_size, *args, **kwargs)
        self.out_channels = out_channels
        self.weight = UninitializedParameter()
        if self.bias is not None:
            self.bias = UninitializedParameter()

    def reset_parameters(self: Any) -> None:
        if not self.has_uninitialized_params() and self.in_channels != 0:
            base.reset_parameters(self)

    def initialize_parameters(self: Any, input: Tensor, *args: Any) -> None:  # noqa: A002
        if not self.has_uninitialized_params():
            return
        self.in_channels = input.shape[1 if input.dim() == self._n + 2 else 0]
        k = tuple(self.kernel_size)
        if transposed:
            shape = (self.in_channels, self.out_channels // self.groups, *k)
        else:
            shape = (self.out_channels, self.in_channels // self.groups, *k)
        self.weight = materialize(self.weight, shape)
        if self.bias is not None:
            self.bias = materialize(self.bias, (self.out_channels,))
        self.reset_parameters()

    ns = {
        "cls_to_become": base, "__init__": __init__, "reset_parameters": reset_parameters,
        "initialize_parameters": initialize_parameters, "__module__": __name__,
    }  # fmt: skip
    return type(name, (LazyModuleMixin, base), ns)


LazyConv1d = _lazy_conv("LazyConv1d", Conv1d, False)
LazyConv2d = _lazy_conv("LazyConv2d", Conv2d, False)
LazyConv3d = _lazy_conv("LazyConv3d", Conv3d, False)
LazyConvTranspose1d = _lazy_conv("LazyConvTranspose1d", ConvTranspose1d, True)
LazyConvTranspose2d = _lazy_conv("LazyConvTranspose2d", ConvTranspose2d, True)
LazyConvTranspose3d = _lazy_conv("LazyConvTranspose3d", ConvTranspose3d, True)


class DataParallel(Module):
    """Data parallelism over devices; with no GPU (PyTorch on CPU) it runs the module itself."""

    def __init__(
        self, module: Module, device_ids: Any = None, output_device: Any = None, dim: int = 0
    ) -> None:
        super().__init__()
        self.module = module
        self.device_ids: list[Any] = []
        self.dim = dim
        self.output_device = output_device

    def forward(self, *inputs: Any, **kwargs: Any) -> Any:
        return self.module(*inputs, **kwargs)


class Container(Module):
    """The deprecated Container: a Module whose keyword arguments are its children."""

    def __init__(self, **kwargs: Any) -> None:
        super().__init__()
        warnings.warn(
            "nn.Container is deprecated. All of it's functionality is now implemented in "
            "nn.Module. Subclass that instead.",
            stacklevel=2,
        )
        for key, value in kwargs.items():
            self.add_module(key, value)
