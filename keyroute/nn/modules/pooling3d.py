"""torch.nn's 3-d pooling modules (PyTorch's torch/nn/modules/pooling.py): MaxPool3d, AvgPool3d,
AdaptiveAvgPool3d, AdaptiveMaxPool3d and LPPool3d over the F.*_pool3d functions. They share
the 1-d/2-d classes' constructors and reprs."""

from __future__ import annotations

from typing import Any

from ...tensor._tensor import Tensor
from .. import functional as F
from .layers import AdaptiveAvgPool2d, AvgPool2d, MaxPool2d
from .misc import _AdaptivePool, _LPPool

__all__ = ["MaxPool3d", "AvgPool3d", "AdaptiveAvgPool3d", "AdaptiveMaxPool3d", "LPPool3d"]


class MaxPool3d(MaxPool2d):
    """3-d max pooling over (N, C, D, H, W)."""

    def forward(self, input: Tensor) -> Any:  # noqa: A002
        return F.max_pool3d(
            input, self.kernel_size, self.stride, self.padding, self.dilation,
            ceil_mode=self.ceil_mode, return_indices=self.return_indices,
        )  # fmt: skip


class AvgPool3d(AvgPool2d):
    """3-d average pooling over (N, C, D, H, W)."""

    def forward(self, input: Tensor) -> Tensor:  # noqa: A002
        return F.avg_pool3d(
            input, self.kernel_size, self.stride, self.padding, self.ceil_mode,
            self.count_include_pad, self.divisor_override,
        )  # fmt: skip


class AdaptiveAvgPool3d(AdaptiveAvgPool2d):
    """Average pooling to an output_size grid over (N, C, D, H, W)."""

    def forward(self, input: Tensor) -> Tensor:  # noqa: A002
        return F.adaptive_avg_pool3d(input, self.output_size)


class AdaptiveMaxPool3d(_AdaptivePool):
    """Max pooling to an output_size grid over (N, C, D, H, W)."""

    def forward(self, input: Tensor) -> Any:  # noqa: A002
        return F.adaptive_max_pool3d(input, self.output_size, self.return_indices)


class LPPool3d(_LPPool):
    """Power-average pooling over 3-d windows."""

    def forward(self, input: Tensor) -> Tensor:  # noqa: A002
        return F.lp_pool3d(
            input, float(self.norm_type), self.kernel_size, self.stride, self.ceil_mode
        )
