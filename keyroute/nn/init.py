"""Parameter initialisation (torch.nn.init): in-place fills run without recording gradients."""

from __future__ import annotations

import math
import warnings
from typing import Any

from ..autograd.grad_mode import no_grad
from ..tensor._tensor import Tensor

__all__ = [
    "calculate_gain",
    "uniform_",
    "normal_",
    "trunc_normal_",
    "constant_",
    "ones_",
    "zeros_",
    "eye_",
    "xavier_uniform_",
    "xavier_normal_",
    "kaiming_uniform_",
    "kaiming_normal_",
    "_calculate_fan_in_and_fan_out",
]


def calculate_gain(nonlinearity: str, param: Any = None) -> float:
    linear = [
        "linear",
        "conv1d",
        "conv2d",
        "conv3d",
        "conv_transpose1d",
        "conv_transpose2d",
        "conv_transpose3d",
    ]
    if nonlinearity in linear or nonlinearity == "sigmoid":
        return 1.0
    if nonlinearity == "tanh":
        return 5.0 / 3
    if nonlinearity == "relu":
        return math.sqrt(2.0)
    if nonlinearity == "leaky_relu":
        if param is None:
            slope = 0.01
        elif isinstance(param, (int, float)) and not isinstance(param, bool):
            slope = param
        else:  # bools and strings are not slopes
            raise ValueError(f"negative_slope {param} not a valid number")
        return math.sqrt(2.0 / (1 + slope**2))
    if nonlinearity == "selu":
        return 3.0 / 4
    raise ValueError(f"Unsupported nonlinearity {nonlinearity}")


def _calculate_fan_in_and_fan_out(tensor: Tensor) -> tuple[int, int]:
    if tensor.dim() < 2:
        raise ValueError(
            "Fan in and fan out can not be computed for tensor with fewer than 2 dimensions"
        )
    receptive = 1
    for s in tensor.shape[2:]:
        receptive *= s
    return tensor.shape[1] * receptive, tensor.shape[0] * receptive


def _fan(tensor: Tensor, mode: str) -> int:
    mode = mode.lower()  # PyTorch accepts "FAN_IN"; the mode is checked before the fans
    if mode not in ("fan_in", "fan_out"):
        raise ValueError(f"Mode {mode} not supported, please use one of ['fan_in', 'fan_out']")
    fan_in, fan_out = _calculate_fan_in_and_fan_out(tensor)
    return fan_in if mode == "fan_in" else fan_out


def uniform_(tensor: Tensor, a: float = 0.0, b: float = 1.0, generator: Any = None) -> Tensor:
    with no_grad():
        return tensor.uniform_(a, b, generator=generator)


def normal_(tensor: Tensor, mean: float = 0.0, std: float = 1.0, generator: Any = None) -> Tensor:
    with no_grad():
        return tensor.normal_(mean, std, generator=generator)


def trunc_normal_(
    tensor: Tensor,
    mean: float = 0.0,
    std: float = 1.0,
    a: float = -2.0,
    b: float = 2.0,
    generator: Any = None,
) -> Tensor:
    """Normal values truncated to [a, b], drawn as PyTorch 2.13 draws them: when [a, b] holds
    more than 30% of the mass, normal_ samples with the ones outside redrawn; otherwise
    uniform candidates on [a, b] accepted with probability pdf / pdf(mode). The calls (and so
    the random stream) are PyTorch's, one by one."""
    import keyroute as torch

    if tensor.is_meta:  # no storage: nothing to sample
        return tensor

    def norm_cdf(x: float) -> float:
        return (1.0 + math.erf(x / math.sqrt(2.0))) / 2.0

    if (mean < a - 2 * std) or (mean > b + 2 * std):
        warnings.warn(
            "mean is more than 2 std from [a, b] in nn.init.trunc_normal_. "
            "The distribution of values may be incorrect.",
            stacklevel=2,
        )
    with no_grad():
        if norm_cdf((b - mean) / std) - norm_cdf((a - mean) / std) > 0.3:
            # the bounds in the tensor's dtype, so the rejection mask matches its values
            lo = tensor.new_tensor(a, device="cpu").item()
            hi = tensor.new_tensor(b, device="cpu").item()
            result = tensor.normal_(mean, std, generator=generator)
            while True:
                mask = (result < lo) | (result > hi)
                if not mask.any():
                    break
                redraw = torch.empty_like(result).normal_(mean, std, generator=generator)
                result = torch.where(mask, redraw, result)
            if tensor is not result:
                tensor.copy_(result)
            return tensor
        mode = max(a, min(mean, b))
        log_peak = -0.5 * ((mode - mean) / std) ** 2
        candidates = torch.empty_like(tensor)
        accept = torch.empty_like(tensor)
        # the first round samples into tensor itself (no where/copy when all are accepted)
        tensor.uniform_(a, b, generator=generator)
        candidates.copy_(tensor)
        candidates.sub_(mean).div_(std).pow_(2).mul_(-0.5).sub_(log_peak)  # log pdf / peak
        pending = accept.uniform_(generator=generator).log_().gt(candidates)
        if pending.any():
            result = tensor
            while True:
                candidates.uniform_(a, b, generator=generator)
                result = torch.where(pending, candidates, result)
                candidates.sub_(mean).div_(std).pow_(2).mul_(-0.5).sub_(log_peak)
                rejected = accept.uniform_(generator=generator).log_().gt(candidates)
                pending = torch.where(pending, rejected, pending)
                if not pending.any():
                    break
            tensor.copy_(result)
        return tensor


def constant_(tensor: Tensor, val: float) -> Tensor:
    with no_grad():
        return tensor.fill_(val)


def ones_(tensor: Tensor) -> Tensor:
    return constant_(tensor, 1.0)


def zeros_(tensor: Tensor) -> Tensor:
    with no_grad():
        return tensor.zero_()


def eye_(tensor: Tensor) -> Tensor:
    if tensor.dim() != 2:
        raise ValueError("Only tensors with 2 dimensions are supported")
    from .._api.creation import eye

    with no_grad():
        return tensor.copy_(eye(*tensor.shape, dtype=tensor.dtype))


def xavier_uniform_(tensor: Tensor, gain: float = 1.0, generator: Any = None) -> Tensor:
    fan_in, fan_out = _calculate_fan_in_and_fan_out(tensor)
    std = gain * math.sqrt(2.0 / float(fan_in + fan_out))
    a = math.sqrt(3.0) * std
    return uniform_(tensor, -a, a, generator)


def xavier_normal_(tensor: Tensor, gain: float = 1.0, generator: Any = None) -> Tensor:
    fan_in, fan_out = _calculate_fan_in_and_fan_out(tensor)
    std = gain * math.sqrt(2.0 / float(fan_in + fan_out))
    return normal_(tensor, 0.0, std, generator)


def kaiming_uniform_(
    tensor: Tensor,
    a: float = 0,
    mode: str = "fan_in",
    nonlinearity: str = "leaky_relu",
    generator: Any = None,
) -> Tensor:
    if 0 in tensor.shape:
        return tensor
    fan = _fan(tensor, mode)
    std = calculate_gain(nonlinearity, a) / math.sqrt(fan)
    bound = math.sqrt(3.0) * std
    return uniform_(tensor, -bound, bound, generator)


def kaiming_normal_(
    tensor: Tensor,
    a: float = 0,
    mode: str = "fan_in",
    nonlinearity: str = "leaky_relu",
    generator: Any = None,
) -> Tensor:
    if 0 in tensor.shape:
        return tensor
    fan = _fan(tensor, mode)
    std = calculate_gain(nonlinearity, a) / math.sqrt(fan)
    return normal_(tensor, 0.0, std, generator)


from ._init_more import deprecated_alias, dirac_, orthogonal_, sparse_  # noqa: E402

__all__ += ["orthogonal_", "sparse_", "dirac_"]

# PyTorch's deprecated spellings (each warns, then fills)
uniform = deprecated_alias(uniform_)
normal = deprecated_alias(normal_)
constant = deprecated_alias(constant_)
eye = deprecated_alias(eye_)
dirac = deprecated_alias(dirac_)
xavier_uniform = deprecated_alias(xavier_uniform_)
xavier_normal = deprecated_alias(xavier_normal_)
kaiming_uniform = deprecated_alias(kaiming_uniform_)
kaiming_normal = deprecated_alias(kaiming_normal_)
orthogonal = deprecated_alias(orthogonal_)
sparse = deprecated_alias(sparse_)
