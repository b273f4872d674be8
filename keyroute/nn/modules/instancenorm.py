"""torch.nn.modules.instancenorm: InstanceNorm1d/2d/3d and the Lazy forms."""

from __future__ import annotations

import warnings

from ...tensor._tensor import Tensor
from .._functional import norms as F
from .batchnorm import _LazyNormBase, _NormBase

__all__ = [
    "InstanceNorm1d",
    "InstanceNorm2d",
    "InstanceNorm3d",
    "LazyInstanceNorm1d",
    "LazyInstanceNorm2d",
    "LazyInstanceNorm3d",
]


class _InstanceNorm(_NormBase):
    _no_batch_dim = 2

    def __init__(
        self,
        num_features: int,
        eps: float = 1e-5,
        momentum: float = 0.1,
        affine: bool = False,
        track_running_stats: bool = False,
        device: object = None,
        dtype: object = None,
        *,
        bias: bool = True,
    ) -> None:
        super().__init__(
            num_features, eps, momentum, affine, track_running_stats, device, dtype, bias=bias
        )

    def _check_input_dim(self, input: Tensor) -> None:  # noqa: A002
        d = self._no_batch_dim
        if input.dim() not in (d, d + 1):
            raise ValueError(f"expected {d}D or {d + 1}D input (got {input.dim()}D input)")

    def _apply_norm(self, input: Tensor) -> Tensor:  # noqa: A002
        # (not `_apply`: that is Module's, used by .to() and .float())
        return F.instance_norm(
            input,
            self.running_mean,
            self.running_var,
            self.weight,
            self.bias,
            self.training or not self.track_running_stats,
            self.momentum if self.momentum is not None else 0.0,
            self.eps,
        )

    def forward(self, input: Tensor) -> Tensor:  # noqa: A002
        self._check_input_dim(input)
        feature_dim = input.dim() - self._no_batch_dim
        if input.size(feature_dim) != self.num_features:
            if self.affine:
                raise ValueError(
                    f"expected input's size at dim={feature_dim} to match num_features "
                    f"({self.num_features}), but got: {input.size(feature_dim)}."
                )
            warnings.warn(
                f"input's size at dim={feature_dim} does not match num_features. You can "
                "silence this warning by not passing in num_features, which is not used "
                "because affine=False",
                stacklevel=2,
            )
        if input.dim() == self._no_batch_dim:
            return self._apply_norm(input.unsqueeze(0)).squeeze(0)
        return self._apply_norm(input)


class InstanceNorm1d(_InstanceNorm):
    """Instance norm over (N, C, L) or (C, L)."""

    _no_batch_dim = 2


class InstanceNorm2d(_InstanceNorm):
    """Instance norm over (N, C, H, W) or (C, H, W)."""

    _no_batch_dim = 3


class InstanceNorm3d(_InstanceNorm):
    """Instance norm over (N, C, D, H, W) or (C, D, H, W)."""

    _no_batch_dim = 4


class _LazyInstanceNorm(_LazyNormBase, _InstanceNorm):
    def __init__(
        self,
        eps: float = 1e-5,
        momentum: float = 0.1,
        affine: bool = False,
        track_running_stats: bool = False,
        device: object = None,
        dtype: object = None,
        *,
        bias: bool = True,
    ) -> None:
        super().__init__(eps, momentum, affine, track_running_stats, device, dtype, bias=bias)

    def initialize_parameters(self, input: Tensor) -> None:  # noqa: A002
        if self.has_uninitialized_params():
            # The channel dim of an unbatched input is 0.
            c = input.shape[0 if input.dim() == self._no_batch_dim else 1]
            super().initialize_parameters(input.new_empty((1, c)))


class LazyInstanceNorm1d(_LazyInstanceNorm):
    """InstanceNorm1d whose num_features is the first input's channel count."""

    cls_to_become = InstanceNorm1d
    _no_batch_dim = 2


class LazyInstanceNorm2d(_LazyInstanceNorm):
    """InstanceNorm2d whose num_features is the first input's channel count."""

    cls_to_become = InstanceNorm2d
    _no_batch_dim = 3


class LazyInstanceNorm3d(_LazyInstanceNorm):
    """InstanceNorm3d whose num_features is the first input's channel count."""

    cls_to_become = InstanceNorm3d
    _no_batch_dim = 4
