"""torch.nn.utils.fusion: fold an eval-mode BatchNorm into the preceding Conv or Linear."""

from __future__ import annotations

import copy
from typing import Any

from ... import _api  # noqa: F401
from ...autograd.grad_mode import no_grad
from ..parameter import Parameter
from ._fns import fns

__all__ = [
    "fuse_conv_bn_eval",
    "fuse_conv_bn_weights",
    "fuse_linear_bn_eval",
    "fuse_linear_bn_weights",
]

_F = fns


def fuse_conv_bn_eval(conv: Any, bn: Any, transpose: bool = False) -> Any:
    """A copy of conv whose weights absorb bn's normalisation (both must be in eval mode)."""
    if conv.training or bn.training:
        raise AssertionError("Fusion only for eval!")
    fused = copy.deepcopy(conv)
    if bn.running_mean is None or bn.running_var is None:
        raise AssertionError("running_mean and running_var must be defined")
    fused.weight, fused.bias = fuse_conv_bn_weights(
        fused.weight, fused.bias, bn.running_mean, bn.running_var, bn.eps, bn.weight, bn.bias,
        transpose,
    )  # fmt: skip
    return fused


def fuse_conv_bn_weights(
    conv_w: Any, conv_b: Any, bn_rm: Any, bn_rv: Any, bn_eps: float, bn_w: Any, bn_b: Any,
    transpose: bool = False,
) -> tuple[Parameter, Parameter]:  # fmt: skip
    """The weight and bias of conv followed by an eval-mode batch norm."""
    with no_grad():
        dt = conv_w.dtype
        bias_dt = conv_b.dtype if conv_b is not None else dt
        if conv_b is None:
            conv_b = _F.zeros_like(bn_rm)
        if bn_w is None:
            bn_w = _F.ones_like(bn_rm)
        if bn_b is None:
            bn_b = _F.zeros_like(bn_rm)
        var_rsqrt = _F.rsqrt(bn_rv + bn_eps)
        shape = [1] * conv_w.dim()
        shape[1 if transpose else 0] = -1
        w = (conv_w * (bn_w * var_rsqrt).reshape(shape)).to(dtype=dt)
        b = ((conv_b - bn_rm) * var_rsqrt * bn_w + bn_b).to(dtype=bias_dt)
    return Parameter(w, conv_w.requires_grad), Parameter(b, conv_b.requires_grad)


def fuse_linear_bn_eval(linear: Any, bn: Any) -> Any:
    """A copy of linear whose weights absorb bn's normalisation (both in eval mode)."""
    if linear.training or bn.training:
        raise AssertionError("Fusion only for eval!")
    fused = copy.deepcopy(linear)
    if not (linear.out_features == bn.num_features or bn.num_features == 1):
        raise AssertionError(
            "To fuse, linear.out_features == bn.num_features or bn.num_features == 1"
        )
    fused.weight, fused.bias = fuse_linear_bn_weights(
        fused.weight, fused.bias, bn.running_mean, bn.running_var, bn.eps, bn.weight, bn.bias
    )
    return fused


def fuse_linear_bn_weights(
    linear_w: Any, linear_b: Any, bn_rm: Any, bn_rv: Any, bn_eps: float, bn_w: Any, bn_b: Any
) -> tuple[Parameter, Parameter]:
    """The weight and bias of linear followed by an eval-mode batch norm."""
    with no_grad():
        if linear_b is None:
            linear_b = _F.zeros_like(bn_rm)
        scale = bn_w * _F.rsqrt(bn_rv + bn_eps)
        w = linear_w * scale.unsqueeze(-1)
        b = (linear_b - bn_rm) * scale + bn_b
    return Parameter(w, linear_w.requires_grad), Parameter(b, linear_b.requires_grad)
