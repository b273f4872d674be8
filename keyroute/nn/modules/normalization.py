"""torch.nn.modules.normalization: LayerNorm, RMSNorm (defined in layers.py, homed here as
PyTorch's are), GroupNorm, LocalResponseNorm, CrossMapLRN2d."""

from __future__ import annotations

from typing import Any

from ..._api import creation as _creation
from ..._api.assembly import stack as _stack
from ...tensor._tensor import Tensor
from .. import init
from .._functional import norms as F
from ..parameter import Parameter
from .layers import LayerNorm, RMSNorm
from .module import Module

__all__ = ["LayerNorm", "RMSNorm", "GroupNorm", "LocalResponseNorm", "CrossMapLRN2d"]


class GroupNorm(Module):
    """Group norm: the channels in num_groups groups, each normalised per sample."""

    def __init__(
        self,
        num_groups: int,
        num_channels: int,
        eps: float = 1e-5,
        affine: bool = True,
        device: Any = None,
        dtype: Any = None,
        *,
        bias: bool = True,
    ) -> None:
        super().__init__()
        if num_channels % num_groups != 0:
            raise ValueError("num_channels must be divisible by num_groups")
        self.num_groups = num_groups
        self.num_channels = num_channels
        self.eps = eps
        self.affine = affine
        kw = {"device": device, "dtype": dtype}
        if affine:
            self.weight = Parameter(_creation.empty(num_channels, **kw))
            if bias:
                self.bias = Parameter(_creation.empty(num_channels, **kw))
            else:
                self.register_parameter("bias", None)
        else:
            self.register_parameter("weight", None)
            self.register_parameter("bias", None)
        self.reset_parameters()

    def reset_parameters(self) -> None:
        if self.affine:
            init.ones_(self.weight)
            if self.bias is not None:
                init.zeros_(self.bias)

    def forward(self, input: Tensor) -> Tensor:  # noqa: A002
        return F.group_norm(input, self.num_groups, self.weight, self.bias, self.eps)

    def extra_repr(self) -> str:
        return (
            f"{self.num_groups}, {self.num_channels}, eps={self.eps}, affine={self.affine}, "
            f"bias={self.bias is not None if self.affine else False}"
        )


class LocalResponseNorm(Module):
    """Normalisation over neighbouring channels (AlexNet's LRN)."""

    def __init__(self, size: int, alpha: float = 1e-4, beta: float = 0.75, k: float = 1.0) -> None:
        super().__init__()
        self.size = size
        self.alpha = alpha
        self.beta = beta
        self.k = k

    def forward(self, input: Tensor) -> Tensor:  # noqa: A002
        return F.local_response_norm(input, self.size, self.alpha, self.beta, self.k)

    def extra_repr(self) -> str:
        return f"{self.size}, alpha={self.alpha}, beta={self.beta}, k={self.k}"


class CrossMapLRN2d(Module):
    """Lua Torch's cross-map LRN on a 4D input. Its window is Lua Torch's running sum over
    channels (which, for channel pre_pad, still holds channel 0), not LocalResponseNorm's."""

    def __init__(self, size: int, alpha: float = 1e-4, beta: float = 0.75, k: float = 1) -> None:
        super().__init__()
        self.size = size
        self.alpha = alpha
        self.beta = beta
        self.k = k

    def forward(self, input: Tensor) -> Tensor:  # noqa: A002
        if input.dim() != 4:
            raise ValueError(f"CrossMapLRN2d: Expected input to be 4D, got {input.dim()}D instead.")
        sq = input * input
        channels = input.size(1)
        pre_pad = int((self.size - 1) / 2 + 1)
        scale = sq[:, 0]
        for c in range(1, min(pre_pad, channels)):
            scale = scale + sq[:, c]
        scales = [scale]
        for c in range(1, channels):
            if c < channels - pre_pad + 1:
                scale = scale + sq[:, c + pre_pad - 1]
            if c > pre_pad:
                scale = scale - sq[:, c - pre_pad]
            scales.append(scale)
        full = _stack(scales, 1) * (self.alpha / self.size) + self.k
        return full.pow(-self.beta) * input

    def extra_repr(self) -> str:
        return f"{self.size}, alpha={self.alpha}, beta={self.beta}, k={self.k}"


for _cls in (LayerNorm, RMSNorm):
    _cls.__module__ = __name__
del _cls
