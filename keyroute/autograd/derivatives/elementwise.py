"""Derivative formulas of the elementwise operators (aten/elementwise/): arithmetic, unary
math, activations."""

from __future__ import annotations

import math
from typing import Any

from ..._ops import ops
from ...tensor.dtype import bool_
from ..grad_mode import is_grad_enabled
from ._registry import _scale, _shape, _zeros, derivative

aten = ops.aten


# ----------------------------------------------------------------------------- arithmetic


@derivative("add.Tensor", "AddBackward0", save=("alpha",))
def _add(grad, alpha):
    return grad, _scale(grad, alpha)


@derivative("add.Scalar", "AddBackward1", inputs=("self",))
def _add_scalar(grad):
    return (grad,)


@derivative("sub.Tensor", "SubBackward0", save=("alpha",))
def _sub(grad, alpha, needs):
    return grad, (aten.neg.default(_scale(grad, alpha)) if needs[1] else None)


@derivative("sub.Scalar", "SubBackward1", inputs=("self",))
def _sub_scalar(grad):
    return (grad,)


@derivative("rsub.Tensor", "RsubBackward0", save=("alpha",))
def _rsub(grad, alpha):
    return aten.neg.default(_scale(grad, alpha)), grad


@derivative("rsub.Scalar", "RsubBackward1", inputs=("self",), save=("alpha",))
def _rsub_scalar(grad, alpha):
    return (aten.neg.default(_scale(grad, alpha)),)


@derivative(
    "mul.Tensor",
    "MulBackward0",
    save=("self", "other"),
    self_for=("other",),
    saved_for={"other": ("self",)},
)
def _mul(grad, self, other, needs):
    # PyTorch's generated MulBackward0 computes other's gradient first; with complex factors
    # each gradient is grad times the other factor's conjugate (mul_tensor_backward).
    g_other = aten.mul.Tensor(grad, _conj(self)) if needs[1] else None
    return (aten.mul.Tensor(grad, _conj(other)) if needs[0] else None), g_other


def _conj(t):
    # Tensor.conj(): the tensor itself unless complex (no call a mode would see); a wrapped
    # Python number is saved as the number.
    if isinstance(t, complex):
        return t.conjugate()
    dt = getattr(t, "_dtype", None)
    return aten.conj.default(t) if dt is not None and dt.is_complex else t


@derivative("mul.Scalar", "MulBackward1", inputs=("self",), save=("other",))
def _mul_scalar(grad, other):
    return (aten.mul.Scalar(grad, other),)


@derivative("div.Tensor", "DivBackward0", save=("self", "other"), self_for=("other",))
def _div(grad, self, other, needs):
    # As PyTorch's DivBackward0: other's gradient first, -grad * ((self / other) / other).
    g_other = None
    if needs[1]:
        ratio = aten.div.Tensor(aten.div.Tensor(self, other), other)
        g_other = aten.mul.Tensor(aten.neg.default(grad), ratio)
    return (aten.div.Tensor(grad, other) if needs[0] else None), g_other


@derivative("div.Scalar", "DivBackward1", inputs=("self",), save=("other",))
def _div_scalar(grad, other):
    return (aten.div.Scalar(grad, other),)


@derivative("div.Tensor_mode", "DivBackward2", computed={"s": _shape("self"), "o": _shape("other")})
def _div_mode(grad, s, o):
    return _zeros(s, grad), _zeros(o, grad)


@derivative("div.Scalar_mode", "DivBackward3", inputs=("self",), computed={"s": _shape("self")})
def _div_scalar_mode(grad, s):
    return (_zeros(s, grad),)


@derivative("neg", "NegBackward0")
def _neg(grad):
    return (aten.neg.default(grad),)


@derivative("remainder.Tensor", "RemainderBackward1", save=("self", "other"))
def _remainder(grad, self, other):
    q = aten.div.Tensor_mode(self, other, rounding_mode="floor")
    return grad, aten.mul.Tensor(aten.neg.default(grad), q)


@derivative("remainder.Scalar", "RemainderBackward0", inputs=("self",))
def _remainder_scalar(grad):
    return (grad,)


@derivative("fmod.Tensor", "FmodBackward1", save=("self", "other"))
def _fmod(grad, self, other):
    q = aten.div.Tensor_mode(self, other, rounding_mode="trunc")
    return grad, aten.mul.Tensor(aten.neg.default(grad), q)


@derivative("fmod.Scalar", "FmodBackward0", inputs=("self",))
def _fmod_scalar(grad):
    return (grad,)


@derivative("pow.Tensor_Scalar", "PowBackward0", save=("self", "exponent"))
def _pow_scalar(grad, self, exponent):
    if exponent == 0:
        return (aten.zeros_like.default(self),)
    d = aten.mul.Scalar(aten.pow.Tensor_Scalar(self, exponent - 1), exponent)
    return (aten.mul.Tensor(grad, d),)


@derivative("pow.Tensor_Tensor", "PowBackward1", save=("self", "exponent", "result"))
def _pow_tensor(grad, self, exponent, result):
    d_self = aten.mul.Tensor(exponent, aten.pow.Tensor_Tensor(self, aten.sub.Scalar(exponent, 1)))
    g_self = aten.where.self(
        aten.eq.Scalar(exponent, 0), aten.zeros_like.default(grad), aten.mul.Tensor(grad, d_self)
    )
    log_self = aten.log.default(self)
    g_exp = aten.mul.Tensor(aten.mul.Tensor(grad, result), log_self)
    g_exp = aten.where.self(
        aten.logical_and.default(aten.eq.Scalar(self, 0), aten.ge.Scalar(exponent, 0)),
        aten.zeros_like.default(g_exp),
        g_exp,
    )
    return g_self, g_exp


@derivative("pow.Scalar", "PowBackward2", inputs=("exponent",), save=("self", "result"))
def _pow_base_scalar(grad, self, result):
    if self == 0:
        return (
            aten.where.self(
                aten.ge.Scalar(result, 0),
                aten.zeros_like.default(grad),
                aten.mul.Tensor(grad, aten.mul.Scalar(result, float("-inf"))),
            ),
        )
    if isinstance(self, complex):
        # PyTorch: grad * (result * log(self)).conj(); keyroute has no conj operator yet.
        raise NotImplementedError("keyroute: the gradient of pow(complex, Tensor) needs conj")
    log_self = math.log(self) if self > 0 else float("nan")  # real pow: NaN for a base < 0
    return (aten.mul.Scalar(aten.mul.Tensor(grad, result), log_self),)


@derivative("lerp.Scalar", "LerpBackward0", save=("weight",))
def _lerp_scalar(grad, weight):
    return aten.mul.Scalar(grad, 1 - weight), aten.mul.Scalar(grad, weight)


@derivative("lerp.Tensor", "LerpBackward1", save=("self", "end", "weight"))
def _lerp_tensor(grad, self, end, weight):
    return (
        aten.mul.Tensor(grad, aten.rsub.Scalar(weight, 1)),
        aten.mul.Tensor(grad, weight),
        aten.mul.Tensor(grad, aten.sub.Tensor(end, self)),
    )


@derivative("addcmul", "AddcmulBackward0", save=("tensor1", "tensor2", "value"))
def _addcmul(grad, tensor1, tensor2, value):
    return (
        grad,
        aten.mul.Tensor(_scale(grad, value), tensor2),
        aten.mul.Tensor(_scale(grad, value), tensor1),
    )


@derivative("addcdiv", "AddcdivBackward0", save=("tensor1", "tensor2", "value"))
def _addcdiv(grad, tensor1, tensor2, value):
    g1 = aten.div.Tensor(_scale(grad, value), tensor2)
    g2 = aten.neg.default(aten.div.Tensor(aten.mul.Tensor(g1, tensor1), tensor2))
    return grad, g1, g2


@derivative("maximum", "MaximumBackward0", save=("self", "other"))
def _maximum(grad, self, other):
    half = aten.div.Scalar(grad, 2)
    g_self = aten.where.self(
        aten.eq.Tensor(self, other),
        half,
        aten.where.self(aten.gt.Tensor(self, other), grad, aten.zeros_like.default(grad)),
    )
    g_other = aten.where.self(
        aten.eq.Tensor(self, other),
        half,
        aten.where.self(aten.lt.Tensor(self, other), grad, aten.zeros_like.default(grad)),
    )
    return g_self, g_other


@derivative("minimum", "MinimumBackward0", save=("self", "other"))
def _minimum(grad, self, other):
    half = aten.div.Scalar(grad, 2)
    g_self = aten.where.self(
        aten.eq.Tensor(self, other),
        half,
        aten.where.self(aten.lt.Tensor(self, other), grad, aten.zeros_like.default(grad)),
    )
    g_other = aten.where.self(
        aten.eq.Tensor(self, other),
        half,
        aten.where.self(aten.gt.Tensor(self, other), grad, aten.zeros_like.default(grad)),
    )
    return g_self, g_other


@derivative("atan2", "Atan2Backward0", save=("self", "other"))
def _atan2(grad, self, other):
    denom = aten.add.Tensor(aten.mul.Tensor(self, self), aten.mul.Tensor(other, other))
    return (
        aten.div.Tensor(aten.mul.Tensor(grad, other), denom),
        aten.div.Tensor(aten.mul.Tensor(aten.neg.default(grad), self), denom),
    )


@derivative("where.self", "WhereBackward0", inputs=("self", "other"), save=("condition",))
def _where(grad, condition):
    if condition._dtype is not bool_:
        # where() warned about a uint8 condition in the forward (PyTorch: once per process).
        condition = aten.ne.Scalar(condition, 0)
    zero = aten.zeros_like.default(grad)
    return aten.where.self(condition, grad, zero), aten.where.self(condition, zero, grad)


@derivative("masked_fill.Scalar", "MaskedFillBackward0", inputs=("self",), save=("mask",))
def _masked_fill(grad, mask):
    return (aten.masked_fill.Scalar(grad, mask, 0),)


@derivative("masked_fill.Tensor", "MaskedFillBackward1", inputs=("self", "value"), save=("mask",))
def _masked_fill_t(grad, mask):
    picked = aten.where.self(mask, grad, aten.zeros_like.default(grad))
    return aten.masked_fill.Scalar(grad, mask, 0), aten.sum.default(picked)


@derivative("clamp", "ClampBackward1", inputs=("self",), save=("self", "min", "max"))
def _clamp(grad, self, min, max):  # noqa: A002
    # PyTorch's clamp_backward: where(self >= min & self <= max, grad, scalar_tensor(0.)); its
    # logical_and_ on the fresh mask shows functionalized (logical_and) in its AOT graphs
    if min is None and max is None:
        return (grad,)
    zero = aten.scalar_tensor.default(0.0, dtype=grad._dtype, device=grad.device)
    if min is not None and max is not None:
        keep = aten.logical_and.default(aten.ge.Scalar(self, min), aten.le.Scalar(self, max))
    elif min is not None:
        keep = aten.ge.Scalar(self, min)
    else:
        keep = aten.le.Scalar(self, max)
    return (aten.where.self(keep, grad, zero),)


@derivative("clamp.Tensor", "ClampBackward0", save=("self", "min", "max"))
def _clamp_tensor(grad, self, min, max):  # noqa: A002
    # PyTorch's clamp_backward_min_max: when min > max the result is max.
    zero = aten.zeros_like.default(grad)
    keep = aten.ones_like.default(grad, dtype=bool_)
    g_min = g_max = None
    if min is not None:
        keep = aten.logical_and.default(keep, aten.ge.Tensor(self, min))
    if max is not None:
        keep = aten.logical_and.default(keep, aten.le.Tensor(self, max))
    if min is not None:
        hit = aten.lt.Tensor(self, min)
        if max is not None:
            hit = aten.logical_and.default(hit, aten.lt.Tensor(min, max))
        g_min = aten.where.self(hit, grad, zero)
    if max is not None:
        hit = aten.gt.Tensor(self, max)
        if min is not None:
            hit = aten.logical_or.default(hit, aten.lt.Tensor(max, min))
        g_max = aten.where.self(hit, grad, zero)
    return aten.where.self(keep, grad, zero), g_min, g_max


@derivative("clamp_min", "ClampMinBackward0", inputs=("self",), save=("self", "min"))
def _clamp_min(grad, self, min):  # noqa: A002
    return (aten.where.self(aten.ge.Scalar(self, min), grad, aten.zeros_like.default(grad)),)


@derivative("clamp_max", "ClampMaxBackward0", inputs=("self",), save=("self", "max"))
def _clamp_max(grad, self, max):  # noqa: A002
    return (aten.where.self(aten.le.Scalar(self, max), grad, aten.zeros_like.default(grad)),)


@derivative("clamp_min.Tensor", "ClampMinBackward1", save=("self", "min"))
def _clamp_min_t(grad, self, min):  # noqa: A002
    zero = aten.zeros_like.default(grad)
    keep = aten.ge.Tensor(self, min)
    return aten.where.self(keep, grad, zero), aten.where.self(keep, zero, grad)


@derivative("clamp_max.Tensor", "ClampMaxBackward1", save=("self", "max"))
def _clamp_max_t(grad, self, max):  # noqa: A002
    zero = aten.zeros_like.default(grad)
    keep = aten.le.Tensor(self, max)
    return aten.where.self(keep, grad, zero), aten.where.self(keep, zero, grad)


# ----------------------------------------------------------------------------- unary math


derivative("exp", "ExpBackward0", save=("result",))(lambda g, result: (aten.mul.Tensor(g, result),))
derivative("exp2", "Exp2Backward0", save=("result",))(
    lambda g, result: (aten.mul.Scalar(aten.mul.Tensor(g, result), math.log(2.0)),)
)
derivative("expm1", "Expm1Backward0", save=("result",))(
    lambda g, result: (aten.mul.Tensor(g, aten.add.Scalar(result, 1)),)
)
derivative("log", "LogBackward0", save=("self",))(lambda g, self: (aten.div.Tensor(g, self),))
derivative("log1p", "Log1PBackward0", save=("self",))(
    lambda g, self: (aten.div.Tensor(g, aten.add.Scalar(self, 1)),)
)
derivative("log2", "Log2Backward0", save=("self",))(
    lambda g, self: (aten.div.Tensor(g, aten.mul.Scalar(self, math.log(2.0))),)
)
derivative("log10", "Log10Backward0", save=("self",))(
    lambda g, self: (aten.div.Tensor(g, aten.mul.Scalar(self, math.log(10.0))),)
)
derivative("sqrt", "SqrtBackward0", save=("result",))(
    lambda g, result: (aten.div.Tensor(g, aten.mul.Scalar(result, 2)),)
)


def _rsqrt_backward(g: Any, result: Any) -> tuple[Any]:
    # -0.5 * grad * result.pow(3): PyTorch's generated code computes pow first (its recorded
    # AOT backward graphs show pow, then mul.Scalar, then mul.Tensor).
    p = aten.pow.Tensor_Scalar(result, 3)
    return (aten.mul.Tensor(aten.mul.Scalar(g, -0.5), p),)


derivative("rsqrt", "RsqrtBackward0", save=("result",))(_rsqrt_backward)
derivative("reciprocal", "ReciprocalBackward0", save=("result",))(
    lambda g, result: (aten.mul.Tensor(aten.neg.default(g), aten.mul.Tensor(result, result)),)
)
derivative("sin", "SinBackward0", save=("self",))(
    lambda g, self: (aten.mul.Tensor(g, aten.cos.default(self)),)
)
derivative("cos", "CosBackward0", save=("self",))(
    lambda g, self: (aten.mul.Tensor(aten.neg.default(g), aten.sin.default(self)),)
)
derivative("tan", "TanBackward0", save=("result",))(
    lambda g, result: (aten.mul.Tensor(g, aten.add.Scalar(aten.mul.Tensor(result, result), 1)),)
)
derivative("tanh", "TanhBackward0", save=("result",))(
    lambda g, result: (aten.tanh_backward.default(g, result),)
)
derivative("sigmoid", "SigmoidBackward0", save=("result",))(
    lambda g, result: (aten.sigmoid_backward.default(g, result),)
)
derivative("erf", "ErfBackward0", save=("self",))(
    lambda g, self: (
        aten.mul.Tensor(
            g,
            aten.mul.Scalar(
                aten.exp.default(aten.neg.default(aten.mul.Tensor(self, self))),
                2.0 / math.sqrt(math.pi),
            ),
        ),
    )
)
derivative("erfc", "ErfcBackward0", save=("self",))(
    lambda g, self: (
        aten.mul.Tensor(
            g,
            aten.mul.Scalar(
                aten.exp.default(aten.neg.default(aten.mul.Tensor(self, self))),
                -2.0 / math.sqrt(math.pi),
            ),
        ),
    )
)
derivative("asin", "AsinBackward0", save=("self",))(
    lambda g, self: (
        aten.div.Tensor(g, aten.sqrt.default(aten.rsub.Scalar(aten.mul.Tensor(self, self), 1))),
    )
)
derivative("acos", "AcosBackward0", save=("self",))(
    lambda g, self: (
        aten.neg.default(
            aten.div.Tensor(g, aten.sqrt.default(aten.rsub.Scalar(aten.mul.Tensor(self, self), 1)))
        ),
    )
)
derivative("atan", "AtanBackward0", save=("self",))(
    lambda g, self: (aten.div.Tensor(g, aten.add.Scalar(aten.mul.Tensor(self, self), 1)),)
)
derivative("sinh", "SinhBackward0", save=("self",))(
    lambda g, self: (aten.mul.Tensor(g, aten.cosh.default(self)),)
)
derivative("cosh", "CoshBackward0", save=("self",))(
    lambda g, self: (aten.mul.Tensor(g, aten.sinh.default(self)),)
)
derivative("asinh", "AsinhBackward0", save=("self",))(
    lambda g, self: (
        aten.div.Tensor(g, aten.sqrt.default(aten.add.Scalar(aten.mul.Tensor(self, self), 1))),
    )
)
derivative("acosh", "AcoshBackward0", save=("self",))(
    lambda g, self: (
        aten.div.Tensor(g, aten.sqrt.default(aten.sub.Scalar(aten.mul.Tensor(self, self), 1))),
    )
)
derivative("atanh", "AtanhBackward0", save=("self",))(
    lambda g, self: (aten.div.Tensor(g, aten.rsub.Scalar(aten.mul.Tensor(self, self), 1)),)
)
derivative("abs", "AbsBackward0", save=("self",))(
    lambda g, self: (aten.mul.Tensor(g, aten.sgn.default(self)),)
)
derivative("frac", "FracBackward0", save=())(lambda g: (g,))
for _n, _node in (
    ("sign", "SignBackward0"),
    ("floor", "FloorBackward0"),
    ("ceil", "CeilBackward0"),
    ("round", "RoundBackward0"),
    ("trunc", "TruncBackward0"),
):
    derivative(_n, _node, save=())(lambda g: (aten.zeros_like.default(g),))
derivative("round.decimals", "RoundBackward1")(lambda g: (aten.zeros_like.default(g),))


@derivative("relu", "ReluBackward0", save=("result",))
def _relu(grad, result):
    return (aten.threshold_backward.default(grad, result, 0),)


@derivative("gelu", "GeluBackward0", save=("self", "approximate"))
def _gelu(grad, self, approximate):
    return (aten.gelu_backward.default(grad, self, approximate=approximate),)


@derivative("silu", "SiluBackward0", save=("self",))
def _silu(grad, self):
    # As PyTorch's: under grad mode (create_graph) the composite formula, whose own graph
    # gives the double backward; otherwise the one silu_backward call.
    if not is_grad_enabled():
        return (aten.silu_backward.default(grad, self),)
    s = aten.sigmoid.default(self)
    return (
        aten.mul.Tensor(
            grad,
            aten.mul.Tensor(s, aten.add.Scalar(aten.mul.Tensor(self, aten.rsub.Scalar(s, 1)), 1)),
        ),
    )


@derivative("mish", "MishBackward0", save=("self",))
def _mish(grad, self):
    if not is_grad_enabled():  # as silu's
        return (aten.mish_backward.default(grad, self),)
    sp = aten.softplus.default(self)
    t = aten.tanh.default(sp)
    d = aten.add.Tensor(
        t,
        aten.mul.Tensor(
            aten.mul.Tensor(self, aten.sigmoid.default(self)),
            aten.rsub.Scalar(aten.mul.Tensor(t, t), 1),
        ),
    )
    return (aten.mul.Tensor(grad, d),)


@derivative("softplus", "SoftplusBackward0", save=("self", "beta", "threshold"))
def _softplus(grad, self, beta, threshold):
    return (aten.softplus_backward.default(grad, self, beta, threshold),)


@derivative("leaky_relu", "LeakyReluBackward0", save=("self", "negative_slope"))
def _leaky_relu(grad, self, negative_slope):
    return (aten.leaky_relu_backward.default(grad, self, negative_slope, False),)


@derivative("hardtanh", "HardtanhBackward0", save=("self", "min_val", "max_val"))
def _hardtanh(grad, self, min_val, max_val):
    return (aten.hardtanh_backward.default(grad, self, min_val, max_val),)


@derivative("threshold", "ThresholdBackward0", save=("self", "threshold"))
def _threshold(grad, self, threshold):
    return (aten.threshold_backward.default(grad, self, threshold),)


@derivative("elu", "EluBackward0", save=("self", "alpha", "scale", "input_scale"))
def _elu(grad, self, alpha, scale, input_scale):
    return (aten.elu_backward.default(grad, alpha, scale, input_scale, False, self),)


@derivative("hardsigmoid", "HardsigmoidBackward0", save=("self",))
def _hardsigmoid(grad, self):
    return (aten.hardsigmoid_backward.default(grad, self),)


@derivative("hardswish", "HardswishBackward0", save=("self",))
def _hardswish(grad, self):
    return (aten.hardswish_backward.default(grad, self),)


@derivative("logit", "LogitBackward0", save=("self", "eps"))
def _logit(grad, self, eps):
    if not is_grad_enabled():  # as silu's
        return (aten.logit_backward.default(grad, self, eps),)
    d = aten.mul.Tensor(self, aten.rsub.Scalar(self, 1))
    g = aten.div.Tensor(grad, d)
    if eps is not None:
        inside = aten.logical_and.default(aten.ge.Scalar(self, eps), aten.le.Scalar(self, 1 - eps))
        g = aten.where.self(inside, g, aten.zeros_like.default(g))
    return (g,)


@derivative("nan_to_num", "NanToNumBackward0", save=("self",))
def _nan_to_num(grad, self):
    return (aten.mul.Tensor(grad, aten.isfinite.default(self)),)


# ----------------------------------------------------------------------------- more elementwise


@derivative("hypot", "HypotBackward0", save=("self", "other", "result"))
def _hypot(grad, self, other, result):
    return (
        aten.mul.Tensor(grad, aten.div.Tensor(self, result)),
        aten.mul.Tensor(grad, aten.div.Tensor(other, result)),
    )


@derivative("xlogy.Tensor", "XlogyBackward0", save=("self", "other"))
def _xlogy(grad, self, other):
    g_self = aten.xlogy.Tensor(grad, other)
    g_self = aten.masked_fill.Scalar(
        g_self, aten.logical_and.default(aten.eq.Scalar(self, 0), aten.le.Scalar(other, 0)), 0
    )
    return g_self, aten.div.Tensor(aten.mul.Tensor(grad, self), other)


@derivative("xlogy.Scalar_Self", "XlogyBackward1", inputs=("other",), save=("self", "other"))
def _xlogy_scalar_self(grad, self, other):
    return (aten.div.Tensor(aten.mul.Scalar(grad, self), other),)


@derivative("xlogy.Scalar_Other", "XlogyBackward2", inputs=("self",), save=("self", "other"))
def _xlogy_scalar_other(grad, self, other):
    g = aten.xlogy.Scalar_Other(grad, other)
    return (g if other > 0 else aten.masked_fill.Scalar(g, aten.eq.Scalar(self, 0), 0),)


def _copysign_self(grad: Any, self: Any, result: Any) -> Any:
    ratio = aten.div.Tensor(result, self)
    ratio = aten.masked_fill.Scalar(ratio, aten.eq.Scalar(self, 0), 0)
    return aten.mul.Tensor(grad, ratio)


@derivative(
    "copysign.Tensor", "CopysignBackward0", save=("self", "result"), computed={"o": _shape("other")}
)
def _copysign(grad, self, result, o):
    return _copysign_self(grad, self, result), _zeros(o, grad)


@derivative("copysign.Scalar", "CopysignBackward1", inputs=("self",), save=("self", "result"))
def _copysign_scalar(grad, self, result):
    return (_copysign_self(grad, self, result),)


@derivative("fmax", "FmaxBackward0", save=("self", "other"))
def _fmax(grad, self, other):
    take_self = aten.logical_or.default(aten.ge.Tensor(self, other), aten.isnan.default(other))
    zero = aten.zeros_like.default(grad)
    return aten.where.self(take_self, grad, zero), aten.where.self(take_self, zero, grad)


@derivative("fmin", "FminBackward0", save=("self", "other"))
def _fmin(grad, self, other):
    take_self = aten.logical_or.default(aten.le.Tensor(self, other), aten.isnan.default(other))
    zero = aten.zeros_like.default(grad)
    return aten.where.self(take_self, grad, zero), aten.where.self(take_self, zero, grad)


@derivative("celu", "CeluBackward0", save=("self", "alpha"))
def _celu(grad, self, alpha):
    return (aten.elu_backward.default(grad, alpha, 1, 1.0 / alpha, False, self),)


@derivative("sgn", "SgnBackward0", save=("self", "result"))
def _sgn(grad, self, result):
    # PyTorch's sgn_backward: a real sgn is locally constant, and its gradient is an efficient
    # zero tensor (the ZeroTensor key: `_is_zerotensor()` is True, multiplying by it stays
    # zero, adding materializes). For complex z: (g - sgn(z)^2 conj(g)) / (2 |z|), 0 at z = 0.
    if not self.is_complex():
        return (
            aten._efficientzerotensor.default(
                list(self.shape), dtype=self.dtype, device=self.device
            ),
        )
    a = aten.abs.default(self)
    num = aten.sub.Tensor(
        grad, aten.mul.Tensor(aten.mul.Tensor(result, result), aten.conj_physical.default(grad))
    )
    val = aten.div.Tensor(num, aten.mul.Scalar(a, 2))
    return (aten.where.self(aten.eq.Scalar(a, 0), aten.zeros_like.default(val), val),)
