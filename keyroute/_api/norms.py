"""Python API of the normalisation operators: torch.batch_norm, torch.native_batch_norm,
torch.group_norm, torch.native_group_norm, torch.instance_norm (aten/norms.py)."""

from __future__ import annotations

from typing import Any

from ..aten.linalg import op as _op
from ..tensor._tensor import Tensor
from . import function


@function
def batch_norm(
    input: Tensor,
    weight: Tensor | None,
    bias: Tensor | None,
    running_mean: Tensor | None,
    running_var: Tensor | None,
    training: bool,
    momentum: float,
    eps: float,
    cudnn_enabled: bool,
) -> Tensor:
    """torch.batch_norm (aten::batch_norm)."""
    return _op("batch_norm")(
        input, weight, bias, running_mean, running_var, training, momentum, eps, cudnn_enabled
    )


@function
def native_batch_norm(
    input: Tensor,
    weight: Tensor | None,
    bias: Tensor | None,
    running_mean: Tensor | None,
    running_var: Tensor | None,
    training: bool,
    momentum: float,
    eps: float,
) -> tuple[Tensor, Tensor, Tensor]:
    """torch.native_batch_norm: (output, save_mean, save_invstd)."""
    return _op("native_batch_norm")(
        input, weight, bias, running_mean, running_var, training, momentum, eps
    )


@function
def instance_norm(
    input: Tensor,
    weight: Tensor | None,
    bias: Tensor | None,
    running_mean: Tensor | None,
    running_var: Tensor | None,
    use_input_stats: bool,
    momentum: float,
    eps: float,
    cudnn_enabled: bool,
) -> Tensor:
    """torch.instance_norm (aten::instance_norm)."""
    return _op("instance_norm")(
        input, weight, bias, running_mean, running_var, use_input_stats, momentum, eps,
        cudnn_enabled,
    )  # fmt: skip


@function
def group_norm(
    input: Tensor,
    num_groups: int,
    weight: Tensor | None = None,
    bias: Tensor | None = None,
    eps: float = 1e-05,
    cudnn_enabled: bool = True,
) -> Tensor:
    """torch.group_norm (aten::group_norm)."""
    return _op("group_norm")(input, num_groups, weight, bias, eps, cudnn_enabled)


@function
def native_group_norm(
    input: Tensor, weight: Any, bias: Any, N: int, C: int, HxW: int, group: int, eps: float
) -> tuple[Tensor, Tensor, Tensor]:
    """torch.native_group_norm: (output, mean, rstd)."""
    return _op("native_group_norm")(input, weight, bias, N, C, HxW, group, eps)
