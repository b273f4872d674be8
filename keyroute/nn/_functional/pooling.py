"""torch.nn.functional's 3-d pooling and adaptive max pooling, as PyTorch's Python functions
(aten operators in aten/nn/pool3d.py): max_pool3d (with indices), avg_pool3d,
adaptive_avg_pool3d, adaptive_max_pool1d/2d/3d (with indices) and lp_pool3d (avg_pool3d of
x^p, or max_pool3d for p = +-inf)."""

from __future__ import annotations

from typing import Any

from ..._ops import ops
from ...tensor._tensor import Tensor

aten = ops.aten

__all__ = [
    "max_pool3d",
    "max_pool3d_with_indices",
    "avg_pool3d",
    "adaptive_avg_pool3d",
    "adaptive_max_pool1d",
    "adaptive_max_pool1d_with_indices",
    "adaptive_max_pool2d",
    "adaptive_max_pool2d_with_indices",
    "adaptive_max_pool3d",
    "adaptive_max_pool3d_with_indices",
    "lp_pool3d",
]


def _list_with_default(out_size: Any, defaults: Any) -> Any:
    """PyTorch's helper: None entries of output_size take the input's size."""
    if isinstance(out_size, int):
        return out_size
    if len(defaults) <= len(out_size):
        raise ValueError(f"Input dimension should be at least {len(out_size) + 1}")
    return [v if v is not None else d for v, d in zip(out_size, defaults[-len(out_size) :])]


def _ints(v: Any) -> list[int]:
    return [v] if isinstance(v, int) else list(v)


def max_pool3d_with_indices(
    input: Tensor,  # noqa: A002
    kernel_size: Any,
    stride: Any = None,
    padding: Any = 0,
    dilation: Any = 1,
    ceil_mode: bool = False,
    return_indices: bool = False,
) -> tuple[Tensor, Tensor]:
    """3-d max pooling returning (values, indices)."""
    st = [] if stride is None else _ints(stride)
    return aten.max_pool3d_with_indices.default(
        input, _ints(kernel_size), st, _ints(padding), _ints(dilation), ceil_mode
    )


def max_pool3d(
    input: Tensor,  # noqa: A002
    kernel_size: Any,
    stride: Any = None,
    padding: Any = 0,
    dilation: Any = 1,
    ceil_mode: bool = False,
    return_indices: bool = False,
) -> Any:
    """3-d max pooling over (N, C, D, H, W) (PyTorch's boolean dispatch on return_indices)."""
    if return_indices:
        return max_pool3d_with_indices(input, kernel_size, stride, padding, dilation, ceil_mode)
    st = [] if stride is None else _ints(stride)
    return aten.max_pool3d.default(
        input, _ints(kernel_size), st, _ints(padding), _ints(dilation), ceil_mode
    )


def avg_pool3d(
    input: Tensor,  # noqa: A002
    kernel_size: Any,
    stride: Any = None,
    padding: Any = 0,
    ceil_mode: bool = False,
    count_include_pad: bool = True,
    divisor_override: int | None = None,
) -> Tensor:
    """3-d average pooling over (N, C, D, H, W)."""
    st = [] if stride is None else _ints(stride)
    return aten.avg_pool3d.default(
        input, _ints(kernel_size), st, _ints(padding), ceil_mode, count_include_pad,
        divisor_override,
    )  # fmt: skip


def adaptive_avg_pool3d(input: Tensor, output_size: Any) -> Tensor:  # noqa: A002
    """Average pooling to an output_size grid over (N, C, D, H, W)."""
    size = _list_with_default(output_size, input.size())
    return aten.adaptive_avg_pool3d.default(input, [size] * 3 if isinstance(size, int) else size)


def adaptive_max_pool1d_with_indices(
    input: Tensor,  # noqa: A002
    output_size: Any,
    return_indices: bool = False,
) -> tuple[Tensor, Tensor]:
    """Max pooling to output_size positions over (N, C, L), with the argmax indices."""
    return aten.adaptive_max_pool1d.default(input, _ints(output_size))


def adaptive_max_pool1d(
    input: Tensor,  # noqa: A002
    output_size: Any,
    return_indices: bool = False,
) -> Any:
    """Max pooling to output_size positions over (N, C, L)."""
    out = adaptive_max_pool1d_with_indices(input, output_size)
    return out if return_indices else out[0]


def _adaptive_max(input: Tensor, output_size: Any, nd: int) -> tuple[Tensor, Tensor]:  # noqa: A002
    size = _list_with_default(output_size, input.size())
    size = [size] * nd if isinstance(size, int) else size
    return getattr(aten, f"adaptive_max_pool{nd}d").default(input, size)


def adaptive_max_pool2d_with_indices(
    input: Tensor,  # noqa: A002
    output_size: Any,
    return_indices: bool = False,
) -> tuple[Tensor, Tensor]:
    """Max pooling to an output_size grid over (N, C, H, W), with the argmax indices."""
    return _adaptive_max(input, output_size, 2)


def adaptive_max_pool2d(
    input: Tensor,  # noqa: A002
    output_size: Any,
    return_indices: bool = False,
) -> Any:
    """Max pooling to an output_size grid over (N, C, H, W)."""
    out = _adaptive_max(input, output_size, 2)
    return out if return_indices else out[0]


def adaptive_max_pool3d_with_indices(
    input: Tensor,  # noqa: A002
    output_size: Any,
    return_indices: bool = False,
) -> tuple[Tensor, Tensor]:
    """Max pooling to an output_size grid over (N, C, D, H, W), with the argmax indices."""
    return _adaptive_max(input, output_size, 3)


def adaptive_max_pool3d(
    input: Tensor,  # noqa: A002
    output_size: Any,
    return_indices: bool = False,
) -> Any:
    """Max pooling to an output_size grid over (N, C, D, H, W)."""
    out = _adaptive_max(input, output_size, 3)
    return out if return_indices else out[0]


def lp_pool3d(
    input: Tensor,  # noqa: A002
    norm_type: float,
    kernel_size: Any,
    stride: Any = None,
    ceil_mode: bool = False,
) -> Tensor:
    """(sum over each 3-d window of x^p)^(1/p)."""
    kd, kw, kh = _ints(kernel_size) * 3 if isinstance(kernel_size, int) else kernel_size
    if isinstance(norm_type, (int, float)):
        if norm_type == float("inf"):
            return max_pool3d(input.abs(), kernel_size, stride, 0, 1, ceil_mode)
        if norm_type == -float("inf"):
            return -max_pool3d(-input.abs(), kernel_size, stride, 0, 1, ceil_mode)
    out = avg_pool3d(input.pow(norm_type), kernel_size, stride, 0, ceil_mode)
    return (out.sign() * out.abs().relu()).mul(kd * kw * kh).pow(1.0 / norm_type)
