"""torch.nn.functional's normalisation functions: batch_norm, instance_norm, group_norm,
local_response_norm. Each does the Python checks PyTorch's does, then calls the aten op."""

from __future__ import annotations

import math
from typing import Any

from ...aten.linalg import op as _op
from ...backends import cudnn as _cudnn
from ...tensor._tensor import Tensor

__all__ = ["batch_norm", "instance_norm", "group_norm", "local_response_norm"]


def _cudnn_enabled() -> bool:
    return bool(getattr(_cudnn, "enabled", True))


def _verify_batch_size(size: Any) -> None:
    if size[0] * math.prod(size[2:]) == 1:
        raise ValueError(
            f"Expected more than 1 value per channel when training, got input size {size}"
        )


def _verify_spatial_size(size: Any) -> None:
    if math.prod(size[2:]) == 1:
        raise ValueError(
            f"Expected more than 1 spatial element when training, got input size {size}"
        )


def batch_norm(
    input: Tensor,  # noqa: A002
    running_mean: Tensor | None,
    running_var: Tensor | None,
    weight: Tensor | None = None,
    bias: Tensor | None = None,
    training: bool = False,
    momentum: float = 0.1,
    eps: float = 1e-5,
) -> Tensor:
    """Batch normalisation over the channel dimension (dim 1)."""
    if training:
        _verify_batch_size(input.size())
    return _op("batch_norm")(
        input, weight, bias, running_mean, running_var, training, momentum, eps,
        _cudnn_enabled(),
    )  # fmt: skip


def instance_norm(
    input: Tensor,  # noqa: A002
    running_mean: Tensor | None = None,
    running_var: Tensor | None = None,
    weight: Tensor | None = None,
    bias: Tensor | None = None,
    use_input_stats: bool = True,
    momentum: float = 0.1,
    eps: float = 1e-5,
) -> Tensor:
    """Instance normalisation: per sample and channel."""
    if use_input_stats:
        _verify_spatial_size(input.size())
    return _op("instance_norm")(
        input, weight, bias, running_mean, running_var, use_input_stats, momentum, eps,
        _cudnn_enabled(),
    )  # fmt: skip


def group_norm(
    input: Tensor,  # noqa: A002
    num_groups: int,
    weight: Tensor | None = None,
    bias: Tensor | None = None,
    eps: float = 1e-5,
) -> Tensor:
    """Group normalisation: channels split into num_groups groups."""
    if input.dim() < 2:
        raise RuntimeError(
            f"Expected at least 2 dimensions for input tensor but received {input.dim()}"
        )
    size = list(input.size())
    _verify_batch_size([size[0] * size[1] // num_groups, num_groups, *size[2:]])
    return _op("group_norm")(input, num_groups, weight, bias, eps, _cudnn_enabled())


def local_response_norm(
    input: Tensor,  # noqa: A002
    size: int,
    alpha: float = 1e-4,
    beta: float = 0.75,
    k: float = 1.0,
) -> Tensor:
    """input / (k + alpha * mean of squares over `size` neighbouring channels) ** beta."""
    dim = input.dim()
    if dim < 3:
        raise ValueError(f"Expected 3D or higher dimensionality input (got {dim} dimensions)")
    if input.numel() == 0:
        return input
    sizes = list(input.size())
    sq = _op("mul.Tensor")(input, input)
    # The window runs over channels: size // 2 before, (size - 1) // 2 after, zero-padded.
    flat = _op("view")(sq, [sizes[0], sizes[1], -1])
    padded = _op("constant_pad_nd")(flat, [0, 0, size // 2, (size - 1) // 2], 0.0)
    acc = None
    for i in range(size):
        part = _op("slice.Tensor")(padded, 1, i, i + sizes[1], 1)
        acc = part if acc is None else _op("add.Tensor")(acc, part)
    div = _op("view")(_op("div.Scalar")(acc, size), sizes)
    div = _op("pow.Tensor_Scalar")(_op("add.Scalar")(_op("mul.Scalar")(div, alpha), k), beta)
    return _op("div.Tensor")(input, div)
