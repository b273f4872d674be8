"""torch.nn.functional's feature dropouts, pixel/channel shuffles, conv3d, 1-d adaptive
average pooling and 1-d/2-d LP pooling, over public operators (PyTorch's decompositions where it has
them: feature dropout draws one Bernoulli per (sample, channel); lp_pool is avg_pool of x^p)."""

from __future__ import annotations

import math
from typing import Any

from ..._api import creation as _creation
from ...aten.linalg import op as _op
from ...tensor._tensor import Tensor

__all__ = [
    "dropout1d",
    "dropout2d",
    "dropout3d",
    "alpha_dropout",
    "feature_alpha_dropout",
    "pixel_shuffle",
    "pixel_unshuffle",
    "channel_shuffle",
    "native_channel_shuffle",
    "conv3d",
    "adaptive_avg_pool1d",
    "lp_pool1d",
    "lp_pool2d",
]

_ALPHA = 1.7580993408473766  # SELU's -alpha * scale: the value alpha dropout drops to


def _check_p(p: float) -> None:
    if p < 0.0 or p > 1.0:
        raise ValueError(f"dropout probability has to be between 0 and 1, but got {p}")


def _feature_mask(input: Tensor, p: float, batched: bool) -> Tensor:
    shape = list(input.shape[:2] if batched else input.shape[:1])
    shape += [1] * (input.dim() - len(shape))
    return _creation.empty(shape, dtype=input.dtype).bernoulli_(1 - p)


def _feature_dropout(
    input: Tensor, p: float, training: bool, inplace: bool, batched: bool
) -> Tensor:  # noqa: A002
    _check_p(p)
    if not training or p == 0:
        return input
    if p == 1:
        return input.mul_(0) if inplace else input * 0
    mask = _feature_mask(input, p, batched).div_(1 - p)
    return input.mul_(mask) if inplace else input * mask


def dropout1d(
    input: Tensor, p: float = 0.5, training: bool = True, inplace: bool = False
) -> Tensor:  # noqa: A002
    """Zero whole channels of (N, C, L) or (C, L) with probability p."""
    if input.dim() not in (2, 3):
        raise RuntimeError(
            f"dropout1d: Expected 2D or 3D input, but received a {input.dim()}D input. Note that "
            "dropout1d exists to provide channel-wise dropout on inputs with 1 spatial dimension, "
            "a channel dimension, and an optional batch dimension (i.e. 2D or 3D inputs)."
        )
    return _feature_dropout(input, p, training, inplace, input.dim() == 3)


def dropout2d(
    input: Tensor, p: float = 0.5, training: bool = True, inplace: bool = False
) -> Tensor:  # noqa: A002
    """Zero whole channels of (N, C, H, W) with probability p."""
    _check_p(p)
    return _feature_dropout(input, p, training, inplace, input.dim() != 3)


def dropout3d(
    input: Tensor, p: float = 0.5, training: bool = True, inplace: bool = False
) -> Tensor:  # noqa: A002
    """Zero whole channels of (N, C, D, H, W) with probability p."""
    _check_p(p)
    return _feature_dropout(input, p, training, inplace, input.dim() != 4)


def _alpha(input: Tensor, p: float, training: bool, inplace: bool, feature: bool) -> Tensor:  # noqa: A002
    _check_p(p)
    if not training or p == 0:
        return input
    if p == 1:
        return input.mul_(0) if inplace else input * 0
    if feature:
        keep = _feature_mask(input, p, True)
    else:
        keep = _creation.empty(tuple(input.shape), dtype=input.dtype).bernoulli_(1 - p)
    a = 1.0 / math.sqrt((_ALPHA**2 * p + 1) * (1 - p))
    b = (keep - 1) * (a * _ALPHA) + _ALPHA * a * p
    keep = keep * a
    out = input * keep + b
    return input.copy_(out) if inplace else out


def alpha_dropout(
    input: Tensor, p: float = 0.5, training: bool = False, inplace: bool = False
) -> Tensor:  # noqa: A002
    """Dropout that keeps SELU's self-normalising mean and variance."""
    return _alpha(input, p, training, inplace, False)


def feature_alpha_dropout(
    input: Tensor,  # noqa: A002
    p: float = 0.5,
    training: bool = False,
    inplace: bool = False,
) -> Tensor:
    """alpha_dropout of whole channels."""
    return _alpha(input, p, training, inplace, True)


def pixel_shuffle(input: Tensor, upscale_factor: int) -> Tensor:  # noqa: A002
    """(*, C r^2, H, W) -> (*, C, H r, W r) (aten::pixel_shuffle)."""
    return _op("pixel_shuffle")(input, upscale_factor)


def pixel_unshuffle(input: Tensor, downscale_factor: int) -> Tensor:  # noqa: A002
    """(*, C, H r, W r) -> (*, C r^2, H, W) (aten::pixel_unshuffle)."""
    return _op("pixel_unshuffle")(input, downscale_factor)


def channel_shuffle(input: Tensor, groups: int) -> Tensor:  # noqa: A002
    """Interleave the channels of `groups` groups."""
    n, c = input.shape[0], input.shape[1]
    rest = list(input.shape[2:])
    x = input.reshape(n, groups, c // groups, *rest).transpose(1, 2)
    return x.reshape(n, c, *rest)


native_channel_shuffle = channel_shuffle


def conv3d(
    input: Tensor,  # noqa: A002
    weight: Tensor,
    bias: Tensor | None = None,
    stride: Any = 1,
    padding: Any = 0,
    dilation: Any = 1,
    groups: int = 1,
) -> Tensor:
    """3-d convolution over (N, C, D, H, W)."""
    t = lambda v: [v] * 3 if isinstance(v, int) else list(v)  # noqa: E731
    if isinstance(padding, str):
        raise NotImplementedError("conv3d with string padding is not implemented in keyroute")
    return _op("convolution")(
        input, weight, bias, t(stride), t(padding), t(dilation), False, [0, 0, 0], groups
    )


def adaptive_avg_pool1d(input: Tensor, output_size: Any) -> Tensor:  # noqa: A002
    """Average pooling to output_size positions over (N, C, L)."""
    o = output_size if isinstance(output_size, int) else output_size[0]
    out = _op("adaptive_avg_pool2d")(input.unsqueeze(-2), [1, o])
    return out.squeeze(-2)


def lp_pool1d(
    input: Tensor,  # noqa: A002
    norm_type: float,
    kernel_size: int,
    stride: Any = None,
    ceil_mode: bool = False,
) -> Tensor:
    """(sum over each window of x^p)^(1/p)."""
    st = [] if stride is None else [stride if isinstance(stride, int) else stride[0]]
    out = _op("avg_pool1d")(input.pow(norm_type), [kernel_size], st, [0], ceil_mode, True)
    return (out.sign() * out.abs().relu()).mul(kernel_size).pow(1.0 / norm_type)


def lp_pool2d(
    input: Tensor,  # noqa: A002
    norm_type: float,
    kernel_size: Any,
    stride: Any = None,
    ceil_mode: bool = False,
) -> Tensor:
    """(sum over each window of x^p)^(1/p)."""
    kh, kw = (kernel_size, kernel_size) if isinstance(kernel_size, int) else kernel_size
    st = stride if stride is not None else [kh, kw]
    st = [st, st] if isinstance(st, int) else list(st)
    out = _op("avg_pool2d")(input.pow(norm_type), [kh, kw], st, [0, 0], ceil_mode)
    return (out.sign() * out.abs().relu()).mul(kw * kh).pow(1.0 / norm_type)


def bilinear(input1: Tensor, input2: Tensor, weight: Tensor, bias: Tensor | None = None) -> Tensor:
    """y = x1^T A x2 + b, A of shape (out, in1, in2): aten::bilinear (over _trilinear)."""
    return _op("bilinear")(input1, input2, weight, bias)


def assert_int_or_pair(arg: Any, arg_name: str, message: str) -> None:
    """PyTorch's helper: arg must be an int or a pair of ints."""
    if not (isinstance(arg, int) or len(arg) == 2):
        raise AssertionError(message.format(arg_name))


def boolean_dispatch(
    arg_name: str,
    arg_index: int,
    default: bool,
    if_true: Any,
    if_false: Any,
    module_name: str | None = None,
    func_name: str | None = None,
) -> Any:
    """A function that calls if_true or if_false by the boolean argument arg_name."""

    def fn(*args: Any, **kwargs: Any) -> Any:
        flag = (
            kwargs[arg_name]
            if arg_name in kwargs
            else (args[arg_index] if arg_index < len(args) else default)
        )
        return if_true(*args, **kwargs) if flag else if_false(*args, **kwargs)

    if func_name is not None:
        fn.__name__ = func_name
    if module_name is not None:
        fn.__module__ = module_name
    return fn


__all__ += [
    "bilinear", "assert_int_or_pair", "boolean_dispatch",
]  # fmt: skip
