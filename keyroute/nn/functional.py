"""torch.nn.functional: functions over the aten nn operators.

Each function does what torch.nn.functional's does before it reaches C++ (argument defaults,
legacy reduction flags, warnings, broadcasting of loss operands), then calls the same aten
operator, so a TorchDispatchMode logs the same calls. Activations and softmax are other
families' operators, reached by name (`aten.linalg.op`, resolved once).
"""

from __future__ import annotations

import warnings
from typing import Any

from .._api import FUNCTIONS as _FUNCTIONS
from ..aten.linalg import op as _op
from ..tensor._tensor import Tensor
from . import _reduction as _red

__all__ = [
    "linear",
    "relu",
    "relu_",
    "relu6",
    "gelu",
    "silu",
    "mish",
    "tanh",
    "sigmoid",
    "softmax",
    "log_softmax",
    "leaky_relu",
    "hardtanh",
    "elu",
    "celu",
    "selu",
    "softplus",
    "hardswish",
    "hardsigmoid",
    "threshold",
    "glu",
    "logsigmoid",
    "layer_norm",
    "rms_norm",
    "embedding",
    "dropout",
    "scaled_dot_product_attention",
    "cross_entropy",
    "nll_loss",
    "mse_loss",
    "l1_loss",
    "binary_cross_entropy",
    "binary_cross_entropy_with_logits",
    "conv1d",
    "conv2d",
    "conv_transpose1d",
    "conv_transpose2d",
    "conv_transpose3d",
    "max_pool1d",
    "max_pool2d",
    "avg_pool1d",
    "avg_pool2d",
    "adaptive_avg_pool2d",
    "pad",
    "one_hot",
    "normalize",
]


def _pair_list(v: Any, n: int) -> list[int]:
    if isinstance(v, int):
        return [v] * n
    return [int(x) for x in v]


# ----------------------------------------------------------------------------- linear


def linear(input: Tensor, weight: Tensor, bias: Tensor | None = None) -> Tensor:
    """y = x W^T + b (aten::linear)."""
    return _op("linear")(input, weight, bias)


# ----------------------------------------------------------------------------- activations


def relu(input: Tensor, inplace: bool = False) -> Tensor:
    return _op("relu_")(input) if inplace else _op("relu")(input)


def relu_(input: Tensor) -> Tensor:
    return _op("relu_")(input)


def relu6(input: Tensor, inplace: bool = False) -> Tensor:
    return hardtanh(input, 0.0, 6.0, inplace)


def gelu(input: Tensor, approximate: str = "none") -> Tensor:
    return _op("gelu")(input, approximate=approximate)


def silu(input: Tensor, inplace: bool = False) -> Tensor:
    return _op("silu_")(input) if inplace else _op("silu")(input)


def mish(input: Tensor, inplace: bool = False) -> Tensor:
    return _op("mish_")(input) if inplace else _op("mish")(input)


def hardswish(input: Tensor, inplace: bool = False) -> Tensor:
    return _op("hardswish_")(input) if inplace else _op("hardswish")(input)


def hardsigmoid(input: Tensor, inplace: bool = False) -> Tensor:
    return _op("hardsigmoid_")(input) if inplace else _op("hardsigmoid")(input)


def tanh(input: Tensor) -> Tensor:
    return _op("tanh")(input)


def sigmoid(input: Tensor) -> Tensor:
    return _op("sigmoid")(input)


def leaky_relu(input: Tensor, negative_slope: float = 0.01, inplace: bool = False) -> Tensor:
    if inplace:
        return _op("leaky_relu_")(input, negative_slope)
    return _op("leaky_relu")(input, negative_slope)


def hardtanh(
    input: Tensor, min_val: float = -1.0, max_val: float = 1.0, inplace: bool = False
) -> Tensor:
    if min_val > max_val:
        raise ValueError("min_val cannot be greater than max_val")
    if inplace:
        return _op("hardtanh_")(input, min_val, max_val)
    return _op("hardtanh")(input, min_val, max_val)


def elu(input: Tensor, alpha: float = 1.0, inplace: bool = False) -> Tensor:
    return _op("elu_")(input, alpha) if inplace else _op("elu")(input, alpha)


def celu(input: Tensor, alpha: float = 1.0, inplace: bool = False) -> Tensor:
    return _op("celu_")(input, alpha) if inplace else _op("celu")(input, alpha)


_SELU_ALPHA = 1.6732632423543772848170429916717
_SELU_SCALE = 1.0507009873554804934193349852946


def selu(input: Tensor, inplace: bool = False) -> Tensor:
    # aten::selu is CompositeImplicitAutograd: elu(x, alpha, scale).
    if inplace:
        return _op("elu_")(input, _SELU_ALPHA, _SELU_SCALE)
    return _op("elu")(input, _SELU_ALPHA, _SELU_SCALE)


def softplus(input: Tensor, beta: float = 1.0, threshold: float = 20.0) -> Tensor:
    return _op("softplus")(input, beta, threshold)


def threshold(input: Tensor, threshold: float, value: float, inplace: bool = False) -> Tensor:
    if inplace:
        return _op("threshold_")(input, threshold, value)
    return _op("threshold")(input, threshold, value)


def glu(input: Tensor, dim: int = -1) -> Tensor:
    if input.dim() == 0:
        raise RuntimeError("glu does not support scalars because halving size must be even")
    # keyroute has no aten::glu kernel: the composite a * sigmoid(b) of the two halves.
    ndim = input.dim()
    if not -ndim <= dim < ndim:
        raise IndexError(
            f"Dimension out of range (expected to be in range of [{-ndim}, {ndim - 1}], but got "
            f"{dim})"
        )
    d = dim % ndim
    n = input.shape[d]
    if n % 2:
        raise RuntimeError(f"Halving dimension must be even, but dimension {d} is size {n}")
    a, b = input.chunk(2, d)
    return a * b.sigmoid()


def logsigmoid(input: Tensor) -> Tensor:
    return _op("log_sigmoid_forward")(input)[0]


def _softmax_dim(name: str, ndim: int, stacklevel: int) -> int:
    warnings.warn(
        f"Implicit dimension choice for {name} has been deprecated. Change the call to include "
        f"dim=X as an argument.",
        stacklevel=stacklevel,
    )
    return 0 if ndim in (0, 1, 3) else 1


def softmax(
    input: Tensor, dim: int | None = None, _stacklevel: int = 3, dtype: Any = None
) -> Tensor:
    if dim is None:
        dim = _softmax_dim("softmax", input.dim(), _stacklevel)
    if dtype is None:
        return _op("softmax.int")(input, dim)
    return _op("softmax.int")(input, dim, dtype)


def log_softmax(
    input: Tensor, dim: int | None = None, _stacklevel: int = 3, dtype: Any = None
) -> Tensor:
    if dim is None:
        dim = _softmax_dim("log_softmax", input.dim(), _stacklevel)
    if dtype is None:
        return _op("log_softmax.int")(input, dim)
    return _op("log_softmax.int")(input, dim, dtype)


# ----------------------------------------------------------------------------- normalization


def layer_norm(
    input: Tensor,
    normalized_shape: Any,
    weight: Tensor | None = None,
    bias: Tensor | None = None,
    eps: float = 1e-5,
) -> Tensor:
    return _op("layer_norm")(input, _pair_list(normalized_shape, 1), weight, bias, eps, True)


def rms_norm(
    input: Tensor, normalized_shape: Any, weight: Tensor | None = None, eps: float | None = None
) -> Tensor:
    return _op("rms_norm")(input, _pair_list(normalized_shape, 1), weight, eps)


def normalize(
    input: Tensor, p: float = 2.0, dim: int = 1, eps: float = 1e-12, out: Tensor | None = None
) -> Tensor:
    """input / max(||input||_p over dim, eps), as torch.nn.functional.normalize."""
    norm = _op("linalg_vector_norm")(input, p, [dim], True)
    if out is None:
        denom = _op("expand_as")(_op("clamp_min")(norm, eps), input)
        return _op("div.Tensor")(input, denom)
    denom = _op("expand_as")(_op("clamp_min_")(norm, eps), input)
    return _op("div.out")(input, denom, out=out)


# ----------------------------------------------------------------------------- embedding


def embedding(
    input: Tensor,
    weight: Tensor,
    padding_idx: int | None = None,
    max_norm: float | None = None,
    norm_type: float = 2.0,
    scale_grad_by_freq: bool = False,
    sparse: bool = False,
) -> Tensor:
    if padding_idx is not None:
        if padding_idx > 0:
            if padding_idx >= weight.size(0):
                raise AssertionError("Padding_idx must be within num_embeddings")
        elif padding_idx < 0:
            if padding_idx < -weight.size(0):
                raise AssertionError("Padding_idx must be within num_embeddings")
            padding_idx = weight.size(0) + padding_idx
    else:
        padding_idx = -1
    if max_norm is not None:
        input = _op("contiguous")(input)
        from ..autograd.grad_mode import no_grad

        with no_grad():
            _op("embedding_renorm_")(_op("detach")(weight), input, max_norm, norm_type)
    return _op("embedding")(weight, input, padding_idx, scale_grad_by_freq, sparse)


# ----------------------------------------------------------------------------- dropout


def dropout(input: Tensor, p: float = 0.5, training: bool = True, inplace: bool = False) -> Tensor:
    if p < 0.0 or p > 1.0:
        raise ValueError(f"dropout probability has to be between 0 and 1, but got {p}")
    if inplace:
        return _op("dropout_")(input, p, training)
    return _op("dropout")(input, p, training)


# ----------------------------------------------------------------------------- attention


def scaled_dot_product_attention(
    query: Tensor,
    key: Tensor,
    value: Tensor,
    attn_mask: Tensor | None = None,
    dropout_p: float = 0.0,
    is_causal: bool = False,
    scale: float | None = None,
    enable_gqa: bool = False,
) -> Tensor:
    return _op("scaled_dot_product_attention")(
        query, key, value, attn_mask, dropout_p, is_causal, scale=scale, enable_gqa=enable_gqa
    )


# ----------------------------------------------------------------------------- losses


def _reduction(size_average: Any, reduce: Any, reduction: str) -> int:
    """The enum of a loss's reduction (the deprecated flags warned)."""
    return _red.get_enum(_red.resolve(size_average, reduce, reduction))


def cross_entropy(
    input: Tensor,
    target: Tensor,
    weight: Tensor | None = None,
    size_average: bool | None = None,
    ignore_index: int = -100,
    reduce: bool | None = None,
    reduction: str = "mean",
    label_smoothing: float = 0.0,
) -> Tensor:
    return _op("cross_entropy_loss")(
        input,
        target,
        weight,
        _reduction(size_average, reduce, reduction),
        ignore_index,
        label_smoothing,
    )


def nll_loss(
    input: Tensor,
    target: Tensor,
    weight: Tensor | None = None,
    size_average: bool | None = None,
    ignore_index: int = -100,
    reduce: bool | None = None,
    reduction: str = "mean",
) -> Tensor:
    return _op("nll_loss_nd")(
        input, target, weight, _reduction(size_average, reduce, reduction), ignore_index
    )


def _size_warning(input: Tensor, target: Tensor) -> None:
    if target.size() != input.size():
        warnings.warn(
            f"Using a target size ({target.size()}) that is different to the input size "
            f"({input.size()}). This will likely lead to incorrect results due to broadcasting. "
            f"Please ensure they have the same size.",
            stacklevel=3,
        )


def _broadcast_tensors(a: Tensor, b: Tensor) -> tuple[Tensor, Tensor]:
    """torch.broadcast_tensors(a, b): an operand is expanded only when its shape differs."""
    from ..aten._shape import broadcast_shapes

    shape = broadcast_shapes(tuple(a.shape), tuple(b.shape))
    ea = a if tuple(a.shape) == shape else _op("expand")(a, list(shape))
    eb = b if tuple(b.shape) == shape else _op("expand")(b, list(shape))
    return ea, eb


def mse_loss(
    input: Tensor,
    target: Tensor,
    size_average: bool | None = None,
    reduce: bool | None = None,
    reduction: str = "mean",
    weight: Tensor | None = None,
) -> Tensor:
    _size_warning(input, target)
    if size_average is not None or reduce is not None:
        reduction = _red.legacy_get_string(size_average, reduce)
    # PyTorch's mse_loss broadcasts with torch.broadcast_tensors (an operator call).
    ei, et = _op("broadcast_tensors")([input, target])
    if weight is not None:
        return _weighted_loss(
            input, lambda: _op("pow.Tensor_Scalar")(_op("sub.Tensor")(ei, et), 2), weight, reduction
        )
    return _op("mse_loss")(ei, et, _red.get_enum(reduction))


def _weighted_loss(input: Tensor, loss: Any, weight: Tensor, reduction: str) -> Tensor:
    """mse_loss/l1_loss with `weight` (PyTorch's Python path): the elementwise loss (`loss()`,
    computed after the weight check) times the weight, reduced; "mean" divides by the
    weights' sum."""
    if weight.size() != input.size():
        raise ValueError("Weights and input must have the same size.")
    weighted = _op("mul.Tensor")(loss(), weight)
    if reduction == "mean":  # the weighted mean: by the weights' sum
        return _op("div.Tensor")(_op("sum")(weighted), _op("sum")(weight))
    if reduction not in ("none", "sum"):
        raise ValueError(
            f"Invalid reduction mode: {reduction}. Expected one of 'none', 'mean', 'sum'."
        )
    return _red.apply(weighted, reduction)


def l1_loss(
    input: Tensor,
    target: Tensor,
    size_average: bool | None = None,
    reduce: bool | None = None,
    reduction: str = "mean",
    weight: Tensor | None = None,
) -> Tensor:
    _size_warning(input, target)
    if size_average is not None or reduce is not None:
        reduction = _red.legacy_get_string(size_average, reduce)
    ei, et = _broadcast_tensors(input, target)
    if weight is not None:
        return _weighted_loss(
            input, lambda: _op("abs")(_op("sub.Tensor")(ei, et)), weight, reduction
        )
    return _op("l1_loss")(ei, et, _red.get_enum(reduction))


def binary_cross_entropy(
    input: Tensor,
    target: Tensor,
    weight: Tensor | None = None,
    size_average: bool | None = None,
    reduce: bool | None = None,
    reduction: str = "mean",
) -> Tensor:
    enum = _reduction(size_average, reduce, reduction)
    if target.size() != input.size():
        raise ValueError(
            f"Using a target size ({target.size()}) that is different to the input size "
            f"({input.size()}) is deprecated. Please ensure they have the same size."
        )
    if weight is not None:
        from ..aten._shape import broadcast_shapes

        weight = _op("expand")(
            weight, list(broadcast_shapes(tuple(target.shape), tuple(weight.shape)))
        )
    return _op("binary_cross_entropy")(input, target, weight, enum)


def binary_cross_entropy_with_logits(
    input: Tensor,
    target: Tensor,
    weight: Tensor | None = None,
    size_average: bool | None = None,
    reduce: bool | None = None,
    reduction: str = "mean",
    pos_weight: Tensor | None = None,
) -> Tensor:
    enum = _reduction(size_average, reduce, reduction)
    if target.size() != input.size():
        raise ValueError(
            f"Target size ({target.size()}) must be the same as input size ({input.size()})"
        )
    return _op("binary_cross_entropy_with_logits")(input, target, weight, pos_weight, enum)


# ----------------------------------------------------------------------------- convolution


# F.conv1d and friends are torch.conv1d and friends in PyTorch: the same functions here.
conv1d = _FUNCTIONS["conv1d"]
conv2d = _FUNCTIONS["conv2d"]
conv_transpose1d = _FUNCTIONS["conv_transpose1d"]
conv_transpose2d = _FUNCTIONS["conv_transpose2d"]
conv_transpose3d = _FUNCTIONS["conv_transpose3d"]


# ----------------------------------------------------------------------------- pooling


def max_pool2d(
    input: Tensor,
    kernel_size: Any,
    stride: Any = None,
    padding: Any = 0,
    dilation: Any = 1,
    ceil_mode: bool = False,
    return_indices: bool = False,
) -> Any:
    st = [] if stride is None else _pair_list(stride, 2)
    args = (
        input,
        _pair_list(kernel_size, 2),
        st,
        _pair_list(padding, 2),
        _pair_list(dilation, 2),
        ceil_mode,
    )
    if return_indices:
        return _op("max_pool2d_with_indices")(*args)
    return _op("max_pool2d")(*args)


def max_pool1d(
    input: Tensor,
    kernel_size: Any,
    stride: Any = None,
    padding: Any = 0,
    dilation: Any = 1,
    ceil_mode: bool = False,
    return_indices: bool = False,
) -> Any:
    st = [] if stride is None else _pair_list(stride, 1)
    return _op("max_pool1d_with_indices" if return_indices else "max_pool1d")(
        input,
        _pair_list(kernel_size, 1),
        st,
        _pair_list(padding, 1),
        _pair_list(dilation, 1),
        ceil_mode,
    )


def avg_pool2d(
    input: Tensor,
    kernel_size: Any,
    stride: Any = None,
    padding: Any = 0,
    ceil_mode: bool = False,
    count_include_pad: bool = True,
    divisor_override: int | None = None,
) -> Tensor:
    st = [] if stride is None else _pair_list(stride, 2)
    return _op("avg_pool2d")(
        input,
        _pair_list(kernel_size, 2),
        st,
        _pair_list(padding, 2),
        ceil_mode,
        count_include_pad,
        divisor_override,
    )


def avg_pool1d(
    input: Tensor,
    kernel_size: Any,
    stride: Any = None,
    padding: Any = 0,
    ceil_mode: bool = False,
    count_include_pad: bool = True,
) -> Tensor:
    st = [] if stride is None else _pair_list(stride, 1)
    return _op("avg_pool1d")(
        input, _pair_list(kernel_size, 1), st, _pair_list(padding, 1), ceil_mode, count_include_pad
    )


def adaptive_avg_pool2d(input: Tensor, output_size: Any) -> Tensor:
    if isinstance(output_size, int):
        size = [output_size, output_size]
    else:
        defaults = list(input.shape)
        if len(defaults) <= len(output_size):
            raise ValueError(f"Input dimension should be at least {len(output_size) + 1}")
        size = [
            d if v is None else int(v) for v, d in zip(output_size, defaults[-len(output_size) :])
        ]
    return _op("adaptive_avg_pool2d")(input, size)


# ----------------------------------------------------------------------------- misc


def pad(input: Tensor, pad: Any, mode: str = "constant", value: float | None = None) -> Tensor:
    return _op("pad")(input, [int(p) for p in pad], mode, value)


def one_hot(tensor: Tensor, num_classes: int = -1) -> Tensor:
    return _op("one_hot")(tensor, num_classes)


# The families defined in keyroute/nn/_functional/ (one module each): their names are
# torch.nn.functional's too.
from ._functional import activations as _activations  # noqa: E402
from ._functional import attention as _attention  # noqa: E402
from ._functional import losses as _losses  # noqa: E402
from ._functional import misc as _misc  # noqa: E402
from ._functional import norms as _norms  # noqa: E402
from ._functional import pooling as _pooling  # noqa: E402
from ._functional import sampling as _sampling  # noqa: E402
from ._functional import sparse as _sparse  # noqa: E402

_FAMILIES = (_norms, _attention, _activations, _losses, _misc, _sampling, _sparse, _pooling)
for _family in _FAMILIES:
    for _name in _family.__all__:
        globals()[_name] = getattr(_family, _name)
        if _name not in __all__:
            __all__.append(_name)
del _family, _name
_canonical_mask = _attention._canonical_mask
_none_or_dtype = _attention._none_or_dtype


def max_pool1d_with_indices(input: Tensor, *args: Any, **kwargs: Any) -> Any:
    """max_pool1d returning (values, indices)."""
    kwargs["return_indices"] = True
    return max_pool1d(input, *args[:5], **kwargs)


def max_pool2d_with_indices(input: Tensor, *args: Any, **kwargs: Any) -> Any:
    """max_pool2d returning (values, indices)."""
    kwargs["return_indices"] = True
    return max_pool2d(input, *args[:5], **kwargs)


def __getattr__(name: str) -> object:
    # A PyTorch name keyroute lacks: a NotImplementedError naming it (keyroute/_missing.py).
    from .._missing import missing

    raise missing("nn.functional", name, "module 'keyroute.nn.functional'")
