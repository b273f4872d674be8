"""Python API (functions, Tensor methods) of the nn operators: the `torch.<name>` entry points
(torch.layer_norm, torch.embedding, torch.dropout, torch.conv2d, ...). torch.nn.functional's
functions are in keyroute/nn/functional.py."""

from __future__ import annotations

from typing import Any

from .._ops import ops
from ..aten.linalg import op as _op
from ..tensor._tensor import Tensor
from . import function

aten = ops.aten


def _int_list(v: Any, n: int) -> list[int]:
    if isinstance(v, int):
        return [v] * n
    return [int(x) for x in v]


@function
def native_layer_norm(
    input: Tensor, normalized_shape: Any, weight: Tensor | None, bias: Tensor | None, eps: float
) -> tuple[Tensor, Tensor, Tensor]:
    """Layer norm returning (output, mean, rstd) (aten::native_layer_norm)."""
    return _op("native_layer_norm")(input, _int_list(normalized_shape, 1), weight, bias, eps)


@function
def layer_norm(
    input: Tensor,
    normalized_shape: Any,
    weight: Tensor | None = None,
    bias: Tensor | None = None,
    eps: float = 1e-05,
    cudnn_enable: bool = True,
) -> Tensor:
    """torch.layer_norm (aten::layer_norm)."""
    return _op("layer_norm")(input, _int_list(normalized_shape, 1), weight, bias, eps, cudnn_enable)


@function
def rms_norm(
    input: Tensor, normalized_shape: Any, weight: Tensor | None = None, eps: float | None = None
) -> Tensor:
    """torch.rms_norm (aten::rms_norm)."""
    return _op("rms_norm")(input, _int_list(normalized_shape, 1), weight, eps)


@function
def embedding(
    weight: Tensor,
    indices: Tensor,
    padding_idx: int = -1,
    scale_grad_by_freq: bool = False,
    sparse: bool = False,
) -> Tensor:
    """Rows of weight at indices (aten::embedding)."""
    return _op("embedding")(weight, indices, padding_idx, scale_grad_by_freq, sparse)


@function
def dropout(input: Tensor, p: float, train: bool) -> Tensor:
    """torch.dropout (aten::dropout)."""
    return _op("dropout")(input, p, train)


@function
def dropout_(input: Tensor, p: float, train: bool) -> Tensor:
    """torch.dropout_ (aten::dropout_)."""
    return _op("dropout_")(input, p, train)


@function
def native_dropout(input: Tensor, p: float, train: bool | None) -> tuple[Tensor, Tensor]:
    """Dropout returning (output, mask) (aten::native_dropout)."""
    return _op("native_dropout")(input, p, train)


def _conv(name: str, nsp: int) -> None:
    by_ints, by_str = getattr(aten, name).default, getattr(aten, name).padding

    def fn(
        input: Tensor,
        weight: Tensor,
        bias: Tensor | None = None,
        stride: Any = 1,
        padding: Any = 0,
        dilation: Any = 1,
        groups: int = 1,
    ) -> Tensor:
        st, dl = _int_list(stride, nsp), _int_list(dilation, nsp)
        if isinstance(padding, str):
            return by_str(input, weight, bias, st, padding, dl, groups)
        return by_ints(input, weight, bias, st, _int_list(padding, nsp), dl, groups)

    fn.__name__ = name
    fn.__doc__ = f"torch.{name} (aten::{name})."
    function(fn)


_conv("conv1d", 1)
_conv("conv2d", 2)


def _conv_transpose(name: str, nsp: int) -> None:
    target = aten.conv_transpose1d.default if nsp == 1 else getattr(aten, name).input

    def fn(
        input: Tensor,
        weight: Tensor,
        bias: Tensor | None = None,
        stride: Any = 1,
        padding: Any = 0,
        output_padding: Any = 0,
        groups: int = 1,
        dilation: Any = 1,
    ) -> Tensor:
        if isinstance(padding, str):
            raise TypeError(f"{name}(): argument 'padding' must be tuple of ints, not str")
        return target(
            input,
            weight,
            bias,
            _int_list(stride, nsp),
            _int_list(padding, nsp),
            _int_list(output_padding, nsp),
            groups,
            _int_list(dilation, nsp),
        )

    fn.__name__ = name
    fn.__doc__ = f"torch.{name} (aten::{name}{'' if nsp == 1 else '.input'})."
    function(fn)


_conv_transpose("conv_transpose1d", 1)
_conv_transpose("conv_transpose2d", 2)
_conv_transpose("conv_transpose3d", 3)


@function
def convolution(
    input: Tensor,
    weight: Tensor,
    bias: Tensor | None,
    stride: Any,
    padding: Any,
    dilation: Any,
    transposed: bool,
    output_padding: Any,
    groups: int,
) -> Tensor:
    """The general convolution (aten::convolution)."""
    return _op("convolution")(
        input,
        weight,
        bias,
        list(stride),
        list(padding),
        list(dilation),
        transposed,
        list(output_padding),
        groups,
    )


@function
def max_pool2d(
    input: Tensor,
    kernel_size: Any,
    stride: Any = (),
    padding: Any = 0,
    dilation: Any = 1,
    ceil_mode: bool = False,
) -> Tensor:
    """torch.max_pool2d (aten::max_pool2d)."""
    return _op("max_pool2d")(
        input,
        _int_list(kernel_size, 2),
        _int_list(stride, 2) if stride else [],
        _int_list(padding, 2),
        _int_list(dilation, 2),
        ceil_mode,
    )


@function
def max_pool1d(
    input: Tensor,
    kernel_size: Any,
    stride: Any = (),
    padding: Any = 0,
    dilation: Any = 1,
    ceil_mode: bool = False,
) -> Tensor:
    """torch.max_pool1d (aten::max_pool1d)."""
    return _op("max_pool1d")(
        input,
        _int_list(kernel_size, 1),
        _int_list(stride, 1) if stride else [],
        _int_list(padding, 1),
        _int_list(dilation, 1),
        ceil_mode,
    )


@function
def avg_pool1d(
    input: Tensor,
    kernel_size: Any,
    stride: Any = (),
    padding: Any = 0,
    ceil_mode: bool = False,
    count_include_pad: bool = True,
) -> Tensor:
    """torch.avg_pool1d (aten::avg_pool1d)."""
    return _op("avg_pool1d")(
        input,
        _int_list(kernel_size, 1),
        _int_list(stride, 1) if stride else [],
        _int_list(padding, 1),
        ceil_mode,
        count_include_pad,
    )


@function
def constant_pad_nd(input: Tensor, pad: Any, value: Any = 0) -> Tensor:
    """Pad with a constant, last dimension first (aten::constant_pad_nd)."""
    return _op("constant_pad_nd")(input, [int(p) for p in pad], value)


@function
def ctc_loss(
    log_probs: Tensor,
    targets: Tensor,
    input_lengths: Any,
    target_lengths: Any,
    blank: int = 0,
    reduction: int = 1,
    zero_infinity: bool = False,
) -> Tensor:
    """torch.ctc_loss: aten::ctc_loss.Tensor for tensor lengths, .IntList for int sequences
    (reduction as an enum: 0 none, 1 mean, 2 sum)."""
    if isinstance(input_lengths, Tensor) and isinstance(target_lengths, Tensor):
        packet = ops.aten.ctc_loss.Tensor
    else:
        packet = ops.aten.ctc_loss.IntList
        input_lengths = [int(v) for v in input_lengths]
        target_lengths = [int(v) for v in target_lengths]
    return packet(
        log_probs, targets, input_lengths, target_lengths, int(blank), int(reduction),
        bool(zero_infinity),
    )  # fmt: skip
