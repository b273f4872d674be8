"""torch.* functions over the bag and pooling operators of aten/nn/ (embedding_bag.py,
pool3d.py): torch.embedding_bag and the pooling functions PyTorch exports at top level."""

from __future__ import annotations

from typing import Any

from .._ops import ops
from ..tensor._tensor import Tensor
from . import function

aten = ops.aten

__all__: list[str] = []


@function
def embedding_bag(
    weight: Tensor,
    indices: Tensor,
    offsets: Tensor,
    scale_grad_by_freq: bool = False,
    mode: int = 0,
    sparse: bool = False,
    per_sample_weights: Tensor | None = None,
    include_last_offset: bool = False,
    padding_idx: int | None = None,
) -> tuple[Tensor, Tensor, Tensor, Tensor]:
    """aten::embedding_bag (the padding_idx overload): output, offset2bag, bag_size,
    max_indices."""
    return aten.embedding_bag.padding_idx(
        weight, indices, offsets, scale_grad_by_freq, mode, sparse, per_sample_weights,
        include_last_offset, padding_idx,
    )  # fmt: skip


@function
def max_pool3d(
    input: Tensor,  # noqa: A002
    kernel_size: Any,
    stride: Any = (),
    padding: Any = 0,
    dilation: Any = 1,
    ceil_mode: bool = False,
) -> Tensor:
    """torch.max_pool3d (aten::max_pool3d)."""
    ints = lambda v: [v] if isinstance(v, int) else list(v)  # noqa: E731
    return aten.max_pool3d.default(
        input, ints(kernel_size), ints(stride) if stride else [], ints(padding), ints(dilation),
        ceil_mode,
    )  # fmt: skip


@function
def max_pool1d_with_indices(
    input: Tensor,  # noqa: A002
    kernel_size: Any,
    stride: Any = (),
    padding: Any = 0,
    dilation: Any = 1,
    ceil_mode: bool = False,
) -> tuple[Tensor, Tensor]:
    """torch.max_pool1d_with_indices (aten::max_pool1d_with_indices): (values, indices)."""
    ints = lambda v: [v] if isinstance(v, int) else list(v)  # noqa: E731
    return aten.max_pool1d_with_indices.default(
        input, ints(kernel_size), ints(stride) if stride else [], ints(padding), ints(dilation),
        ceil_mode,
    )  # fmt: skip


@function
def adaptive_max_pool1d(input: Tensor, output_size: Any) -> tuple[Tensor, Tensor]:  # noqa: A002
    """torch.adaptive_max_pool1d (aten::adaptive_max_pool1d): (values, indices)."""
    return aten.adaptive_max_pool1d.default(
        input, [output_size] if isinstance(output_size, int) else list(output_size)
    )


@function
def adaptive_avg_pool1d(input: Tensor, output_size: Any) -> Tensor:  # noqa: A002
    """torch.adaptive_avg_pool1d (aten::adaptive_avg_pool1d)."""
    return aten.adaptive_avg_pool1d.default(
        input, [output_size] if isinstance(output_size, int) else list(output_size)
    )
