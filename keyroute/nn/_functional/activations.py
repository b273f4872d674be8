"""torch.nn.functional's remaining activations and the in-place forms, from public operators
(PyTorch's hardshrink, softshrink, rrelu_with_noise and log_sigmoid_forward are backend
operators with their own backward; here they decompose, so a dispatch log differs)."""

from __future__ import annotations

from typing import Any

from ..._api import creation as _creation
from ...aten.linalg import op as _op
from ...tensor._tensor import Tensor

__all__ = [
    "hardshrink",
    "softshrink",
    "softsign",
    "tanhshrink",
    "softmin",
    "prelu",
    "rrelu",
    "rrelu_",
    "logsigmoid",
    "celu_",
    "elu_",
    "selu_",
    "leaky_relu_",
    "hardtanh_",
    "threshold_",
    "gumbel_softmax",
]


def hardshrink(input: Tensor, lambd: float = 0.5) -> Tensor:  # noqa: A002
    """x where |x| > lambd, else 0."""
    return _op("where.self")(input.abs() > lambd, input, _op("zeros_like")(input))


def softshrink(input: Tensor, lambd: float = 0.5) -> Tensor:  # noqa: A002
    """x - lambd above lambd, x + lambd below -lambd, 0 between."""
    if lambd < 0:
        raise RuntimeError(f"lambda must be greater or equal to 0, but found to be {lambd}.")
    zeros = _op("zeros_like")(input)
    return _op("where.self")(
        input > lambd, input - lambd, _op("where.self")(input < -lambd, input + lambd, zeros)
    )


def softsign(input: Tensor) -> Tensor:  # noqa: A002
    """x / (1 + |x|)."""
    return input / (input.abs() + 1)


def tanhshrink(input: Tensor) -> Tensor:  # noqa: A002
    """x - tanh(x)."""
    return input - input.tanh()


def softmin(
    input: Tensor,  # noqa: A002
    dim: int | None = None,
    _stacklevel: int = 3,
    dtype: Any = None,
) -> Tensor:
    """softmax(-x)."""
    if dim is None:
        import warnings

        warnings.warn(
            "Implicit dimension choice for softmin has been deprecated. Change the call to "
            "include dim=X as an argument.",
            stacklevel=_stacklevel,
        )
        dim = 0 if input.dim() in (0, 1, 3) else 1
    if dtype is None:
        return _op("softmax.int")(-input, dim)
    return _op("softmax.int")(-input, dim, dtype)


def prelu(input: Tensor, weight: Tensor) -> Tensor:  # noqa: A002
    """max(0, x) + weight * min(0, x), weight per channel (dim 1) or shared."""
    w = weight
    if weight.numel() != 1 and input.dim() >= 2:
        w = weight.reshape([1, -1] + [1] * (input.dim() - 2))
    return _op("where.self")(input > 0, input, w * input)


def rrelu(
    input: Tensor,  # noqa: A002
    lower: float = 1.0 / 8,
    upper: float = 1.0 / 3,
    training: bool = False,
    inplace: bool = False,
) -> Tensor:
    """Leaky ReLU whose slope is uniform in [lower, upper] in training, their mean in eval."""
    if not training:
        out = _op("leaky_relu")(input, (lower + upper) / 2)
    else:
        noise = _creation.empty(tuple(input.shape), dtype=input.dtype).uniform_(lower, upper)
        out = _op("where.self")(input >= 0, input, input * noise)
    if inplace:
        return input.copy_(out.detach()) if not input.requires_grad else input.copy_(out)
    return out


def rrelu_(
    input: Tensor,  # noqa: A002
    lower: float = 1.0 / 8,
    upper: float = 1.0 / 3,
    training: bool = False,
) -> Tensor:
    return rrelu(input, lower, upper, training, inplace=True)


def logsigmoid(input: Tensor) -> Tensor:  # noqa: A002
    """log(sigmoid(x)) = -softplus(-x)."""
    return -_op("softplus")(-input, 1.0, 20.0)


def celu_(input: Tensor, alpha: float = 1.0) -> Tensor:  # noqa: A002
    return _op("celu_")(input, alpha)


def elu_(input: Tensor, alpha: float = 1.0) -> Tensor:  # noqa: A002
    return _op("elu_")(input, alpha)


def selu_(input: Tensor) -> Tensor:  # noqa: A002
    return _op("elu_")(input, 1.6732632423543772, 1.0507009873554805)


def leaky_relu_(input: Tensor, negative_slope: float = 0.01) -> Tensor:  # noqa: A002
    return _op("leaky_relu_")(input, negative_slope)


def hardtanh_(input: Tensor, min_val: float = -1.0, max_val: float = 1.0) -> Tensor:  # noqa: A002
    return _op("hardtanh_")(input, min_val, max_val)


def threshold_(input: Tensor, threshold: float, value: float) -> Tensor:  # noqa: A002
    return _op("threshold_")(input, threshold, value)


def gumbel_softmax(
    logits: Tensor, tau: float = 1, hard: bool = False, eps: float = 1e-10, dim: int = -1
) -> Tensor:
    """Samples from the Gumbel-softmax distribution (straight-through one-hot with hard)."""
    gumbels = -_creation.empty(tuple(logits.shape), dtype=logits.dtype).exponential_().log()
    y = ((logits + gumbels) / tau).softmax(dim)
    if not hard:
        return y
    index = y.max(dim, keepdim=True)[1]
    y_hard = _op("zeros_like")(logits).scatter_(dim, index, 1.0)
    return y_hard - y.detach() + y
