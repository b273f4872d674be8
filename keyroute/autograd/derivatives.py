"""The derivatives table: one short entry per differentiable operator (PyTorch's
derivatives.yaml). An entry names the operator, its graph node (PyTorch's name), what the
forward saves, and the formula mapping the output gradient to one gradient per differentiable
input (the schema's tensor arguments in order, unless `inputs=` says otherwise; None = no
gradient). Gradients of broadcast inputs are summed back to the input's shape by the engine.

    @derivative("mul.Tensor", "MulBackward0", save=("self", "other"))
    def _(grad, self, other):
        return grad * other, grad * self

The in-place form of an operator (`mul_.Tensor`) uses the same entry.
"""

from __future__ import annotations

import dataclasses
import math
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from typing import Any

from .._ops import ops
from ..tensor.dtype import bool_, to_dtype

__all__ = ["DERIVATIVES", "NOT_IMPLEMENTED", "Derivative", "derivative"]

A = ops.aten


@dataclass
class Derivative:
    name: str
    node_name: str
    formula: Callable[..., Any]
    save: tuple[str, ...] = ()
    inputs: tuple[str, ...] | None = None
    n_outputs: int = 1
    differentiable_outputs: frozenset[int] = frozenset({0})
    save_computed: dict[str, Callable[[dict[str, Any]], Any]] = field(default_factory=dict)
    # Tensor arguments with neither a formula nor PyTorch's `non_differentiable` mark: the
    # operator refuses them requiring grad (PyTorch's check_no_requires_grad).
    no_grad: tuple[str, ...] = ()
    # Given the bound arguments, whether the outputs are differentiable at all (PyTorch's
    # output_differentiability conditions); None: always.
    condition: Callable[[dict[str, Any]], bool] | None = None
    # The inputs whose gradient formula reads the saved `self`: the in-place form clones self
    # only when one of them needs a gradient (PyTorch's should_compute_output guard on
    # `self.clone()`); None: every input's.
    self_for: tuple[str, ...] | None = None


DERIVATIVES: dict[str, Derivative] = {}


def derivative(
    name: str,
    node_name: str,
    *,
    save: Sequence[str] = (),
    inputs: Sequence[str] | None = None,
    n_outputs: int = 1,
    outputs: Sequence[int] = (0,),
    computed: dict[str, Callable[[dict[str, Any]], Any]] | None = None,
    no_grad: Sequence[str] = (),
    condition: Callable[[dict[str, Any]], bool] | None = None,
    self_for: Sequence[str] | None = None,
) -> Callable[[Callable[..., Any]], Callable[..., Any]]:
    """Register the formula of aten `name` (as "add.Tensor" / "mm")."""

    def deco(fn: Callable[..., Any]) -> Callable[..., Any]:
        DERIVATIVES[name] = Derivative(
            name,
            node_name,
            fn,
            tuple(save),
            None if inputs is None else tuple(inputs),
            n_outputs,
            frozenset(outputs),
            dict(computed or {}),
            tuple(no_grad),
            condition,
            None if self_for is None else tuple(self_for),
        )
        return fn

    return deco


def _shape(name: str) -> Callable[[dict[str, Any]], tuple[int, ...]]:
    return lambda v: tuple(v[name]._data.shape)


def _dtype(name: str) -> Callable[[dict[str, Any]], Any]:
    return lambda v: v[name]._dtype


def _scale(grad: Any, alpha: Any) -> Any:
    return grad if alpha == 1 else A.mul.Scalar(grad, alpha)


def _zeros(shape: tuple[int, ...], like: Any) -> Any:
    return A.zeros.default(list(shape), dtype=like._dtype, device=like.device)


# ----------------------------------------------------------------------------- arithmetic


@derivative("add.Tensor", "AddBackward0", save=("alpha",))
def _add(grad, alpha):
    return grad, _scale(grad, alpha)


@derivative("add.Scalar", "AddBackward1", inputs=("self",))
def _add_scalar(grad):
    return (grad,)


@derivative("sub.Tensor", "SubBackward0", save=("alpha",))
def _sub(grad, alpha, needs):
    return grad, (A.neg.default(_scale(grad, alpha)) if needs[1] else None)


@derivative("sub.Scalar", "SubBackward1", inputs=("self",))
def _sub_scalar(grad):
    return (grad,)


@derivative("rsub.Tensor", "RsubBackward0", save=("alpha",))
def _rsub(grad, alpha):
    return A.neg.default(_scale(grad, alpha)), grad


@derivative("rsub.Scalar", "RsubBackward1", inputs=("self",), save=("alpha",))
def _rsub_scalar(grad, alpha):
    return (A.neg.default(_scale(grad, alpha)),)


@derivative("mul.Tensor", "MulBackward0", save=("self", "other"), self_for=("other",))
def _mul(grad, self, other, needs):
    # PyTorch's generated MulBackward0 computes other's gradient first.
    g_other = A.mul.Tensor(grad, self) if needs[1] else None
    return (A.mul.Tensor(grad, other) if needs[0] else None), g_other


@derivative("mul.Scalar", "MulBackward1", inputs=("self",), save=("other",))
def _mul_scalar(grad, other):
    return (A.mul.Scalar(grad, other),)


@derivative("div.Tensor", "DivBackward0", save=("self", "other"), self_for=("other",))
def _div(grad, self, other, needs):
    # As PyTorch's DivBackward0: other's gradient first, -grad * ((self / other) / other).
    g_other = None
    if needs[1]:
        ratio = A.div.Tensor(A.div.Tensor(self, other), other)
        g_other = A.mul.Tensor(A.neg.default(grad), ratio)
    return (A.div.Tensor(grad, other) if needs[0] else None), g_other


@derivative("div.Scalar", "DivBackward1", inputs=("self",), save=("other",))
def _div_scalar(grad, other):
    return (A.div.Scalar(grad, other),)


@derivative("div.Tensor_mode", "DivBackward2", computed={"s": _shape("self"), "o": _shape("other")})
def _div_mode(grad, s, o):
    return _zeros(s, grad), _zeros(o, grad)


@derivative("div.Scalar_mode", "DivBackward3", inputs=("self",), computed={"s": _shape("self")})
def _div_scalar_mode(grad, s):
    return (_zeros(s, grad),)


@derivative("neg", "NegBackward0")
def _neg(grad):
    return (A.neg.default(grad),)


@derivative("remainder.Tensor", "RemainderBackward1", save=("self", "other"))
def _remainder(grad, self, other):
    q = A.div.Tensor_mode(self, other, rounding_mode="floor")
    return grad, A.mul.Tensor(A.neg.default(grad), q)


@derivative("remainder.Scalar", "RemainderBackward0", inputs=("self",))
def _remainder_scalar(grad):
    return (grad,)


@derivative("fmod.Tensor", "FmodBackward1", save=("self", "other"))
def _fmod(grad, self, other):
    q = A.div.Tensor_mode(self, other, rounding_mode="trunc")
    return grad, A.mul.Tensor(A.neg.default(grad), q)


@derivative("fmod.Scalar", "FmodBackward0", inputs=("self",))
def _fmod_scalar(grad):
    return (grad,)


@derivative("pow.Tensor_Scalar", "PowBackward0", save=("self", "exponent"))
def _pow_scalar(grad, self, exponent):
    if exponent == 0:
        return (A.zeros_like.default(self),)
    d = A.mul.Scalar(A.pow.Tensor_Scalar(self, exponent - 1), exponent)
    return (A.mul.Tensor(grad, d),)


@derivative("pow.Tensor_Tensor", "PowBackward1", save=("self", "exponent", "result"))
def _pow_tensor(grad, self, exponent, result):
    d_self = A.mul.Tensor(exponent, A.pow.Tensor_Tensor(self, A.sub.Scalar(exponent, 1)))
    g_self = A.where.self(
        A.eq.Scalar(exponent, 0), A.zeros_like.default(grad), A.mul.Tensor(grad, d_self)
    )
    log_self = A.log.default(self)
    g_exp = A.mul.Tensor(A.mul.Tensor(grad, result), log_self)
    g_exp = A.where.self(
        A.logical_and.default(A.eq.Scalar(self, 0), A.ge.Scalar(exponent, 0)),
        A.zeros_like.default(g_exp),
        g_exp,
    )
    return g_self, g_exp


@derivative("pow.Scalar", "PowBackward2", inputs=("exponent",), save=("self", "result"))
def _pow_base_scalar(grad, self, result):
    if self == 0:
        return (
            A.where.self(
                A.ge.Scalar(result, 0),
                A.zeros_like.default(grad),
                A.mul.Tensor(grad, A.mul.Scalar(result, float("-inf"))),
            ),
        )
    if isinstance(self, complex):
        # PyTorch: grad * (result * log(self)).conj(); keyroute has no conj operator yet.
        raise NotImplementedError("keyroute: the gradient of pow(complex, Tensor) needs conj")
    log_self = math.log(self) if self > 0 else float("nan")  # real pow: NaN for a base < 0
    return (A.mul.Scalar(A.mul.Tensor(grad, result), log_self),)


@derivative("lerp.Scalar", "LerpBackward0", save=("weight",))
def _lerp_scalar(grad, weight):
    return A.mul.Scalar(grad, 1 - weight), A.mul.Scalar(grad, weight)


@derivative("lerp.Tensor", "LerpBackward1", save=("self", "end", "weight"))
def _lerp_tensor(grad, self, end, weight):
    return (
        A.mul.Tensor(grad, A.rsub.Scalar(weight, 1)),
        A.mul.Tensor(grad, weight),
        A.mul.Tensor(grad, A.sub.Tensor(end, self)),
    )


@derivative("addcmul", "AddcmulBackward0", save=("tensor1", "tensor2", "value"))
def _addcmul(grad, tensor1, tensor2, value):
    return (
        grad,
        A.mul.Tensor(_scale(grad, value), tensor2),
        A.mul.Tensor(_scale(grad, value), tensor1),
    )


@derivative("addcdiv", "AddcdivBackward0", save=("tensor1", "tensor2", "value"))
def _addcdiv(grad, tensor1, tensor2, value):
    g1 = A.div.Tensor(_scale(grad, value), tensor2)
    g2 = A.neg.default(A.div.Tensor(A.mul.Tensor(g1, tensor1), tensor2))
    return grad, g1, g2


@derivative("maximum", "MaximumBackward0", save=("self", "other"))
def _maximum(grad, self, other):
    half = A.div.Scalar(grad, 2)
    g_self = A.where.self(
        A.eq.Tensor(self, other),
        half,
        A.where.self(A.gt.Tensor(self, other), grad, A.zeros_like.default(grad)),
    )
    g_other = A.where.self(
        A.eq.Tensor(self, other),
        half,
        A.where.self(A.lt.Tensor(self, other), grad, A.zeros_like.default(grad)),
    )
    return g_self, g_other


@derivative("minimum", "MinimumBackward0", save=("self", "other"))
def _minimum(grad, self, other):
    half = A.div.Scalar(grad, 2)
    g_self = A.where.self(
        A.eq.Tensor(self, other),
        half,
        A.where.self(A.lt.Tensor(self, other), grad, A.zeros_like.default(grad)),
    )
    g_other = A.where.self(
        A.eq.Tensor(self, other),
        half,
        A.where.self(A.gt.Tensor(self, other), grad, A.zeros_like.default(grad)),
    )
    return g_self, g_other


@derivative("atan2", "Atan2Backward0", save=("self", "other"))
def _atan2(grad, self, other):
    denom = A.add.Tensor(A.mul.Tensor(self, self), A.mul.Tensor(other, other))
    return (
        A.div.Tensor(A.mul.Tensor(grad, other), denom),
        A.div.Tensor(A.mul.Tensor(A.neg.default(grad), self), denom),
    )


@derivative("where.self", "WhereBackward0", inputs=("self", "other"), save=("condition",))
def _where(grad, condition):
    if condition._dtype is not bool_:
        # where() warned about a uint8 condition in the forward (PyTorch: once per process).
        condition = A.ne.Scalar(condition, 0)
    zero = A.zeros_like.default(grad)
    return A.where.self(condition, grad, zero), A.where.self(condition, zero, grad)


@derivative("masked_fill.Scalar", "MaskedFillBackward0", inputs=("self",), save=("mask",))
def _masked_fill(grad, mask):
    return (A.masked_fill.Scalar(grad, mask, 0),)


@derivative("masked_fill.Tensor", "MaskedFillBackward1", inputs=("self", "value"), save=("mask",))
def _masked_fill_t(grad, mask):
    picked = A.where.self(mask, grad, A.zeros_like.default(grad))
    return A.masked_fill.Scalar(grad, mask, 0), A.sum.default(picked)


@derivative("clamp", "ClampBackward1", inputs=("self",), save=("self", "min", "max"))
def _clamp(grad, self, min, max):  # noqa: A002
    keep = A.ones_like.default(self, dtype=bool_)
    if min is not None:
        keep = A.logical_and.default(keep, A.ge.Scalar(self, min))
    if max is not None:
        keep = A.logical_and.default(keep, A.le.Scalar(self, max))
    return (A.where.self(keep, grad, A.zeros_like.default(grad)),)


@derivative("clamp.Tensor", "ClampBackward0", save=("self", "min", "max"))
def _clamp_tensor(grad, self, min, max):  # noqa: A002
    # PyTorch's clamp_backward_min_max: when min > max the result is max.
    zero = A.zeros_like.default(grad)
    keep = A.ones_like.default(grad, dtype=bool_)
    g_min = g_max = None
    if min is not None:
        keep = A.logical_and.default(keep, A.ge.Tensor(self, min))
    if max is not None:
        keep = A.logical_and.default(keep, A.le.Tensor(self, max))
    if min is not None:
        hit = A.lt.Tensor(self, min)
        if max is not None:
            hit = A.logical_and.default(hit, A.lt.Tensor(min, max))
        g_min = A.where.self(hit, grad, zero)
    if max is not None:
        hit = A.gt.Tensor(self, max)
        if min is not None:
            hit = A.logical_or.default(hit, A.lt.Tensor(max, min))
        g_max = A.where.self(hit, grad, zero)
    return A.where.self(keep, grad, zero), g_min, g_max


@derivative("clamp_min", "ClampMinBackward0", inputs=("self",), save=("self", "min"))
def _clamp_min(grad, self, min):  # noqa: A002
    return (A.where.self(A.ge.Scalar(self, min), grad, A.zeros_like.default(grad)),)


@derivative("clamp_max", "ClampMaxBackward0", inputs=("self",), save=("self", "max"))
def _clamp_max(grad, self, max):  # noqa: A002
    return (A.where.self(A.le.Scalar(self, max), grad, A.zeros_like.default(grad)),)


@derivative("clamp_min.Tensor", "ClampMinBackward1", save=("self", "min"))
def _clamp_min_t(grad, self, min):  # noqa: A002
    zero = A.zeros_like.default(grad)
    keep = A.ge.Tensor(self, min)
    return A.where.self(keep, grad, zero), A.where.self(keep, zero, grad)


@derivative("clamp_max.Tensor", "ClampMaxBackward1", save=("self", "max"))
def _clamp_max_t(grad, self, max):  # noqa: A002
    zero = A.zeros_like.default(grad)
    keep = A.le.Tensor(self, max)
    return A.where.self(keep, grad, zero), A.where.self(keep, zero, grad)


# ----------------------------------------------------------------------------- unary math


def _unary(name: str, node: str, save: tuple[str, ...], fn: Callable[..., Any]) -> None:
    derivative(name, node, save=save)(fn)


_unary("exp", "ExpBackward0", ("result",), lambda g, result: (A.mul.Tensor(g, result),))
_unary(
    "exp2",
    "Exp2Backward0",
    ("result",),
    lambda g, result: (A.mul.Scalar(A.mul.Tensor(g, result), math.log(2.0)),),
)
_unary(
    "expm1",
    "Expm1Backward0",
    ("result",),
    lambda g, result: (A.mul.Tensor(g, A.add.Scalar(result, 1)),),
)
_unary("log", "LogBackward0", ("self",), lambda g, self: (A.div.Tensor(g, self),))
_unary(
    "log1p", "Log1PBackward0", ("self",), lambda g, self: (A.div.Tensor(g, A.add.Scalar(self, 1)),)
)
_unary(
    "log2",
    "Log2Backward0",
    ("self",),
    lambda g, self: (A.div.Tensor(g, A.mul.Scalar(self, math.log(2.0))),),
)
_unary(
    "log10",
    "Log10Backward0",
    ("self",),
    lambda g, self: (A.div.Tensor(g, A.mul.Scalar(self, math.log(10.0))),),
)
_unary(
    "sqrt",
    "SqrtBackward0",
    ("result",),
    lambda g, result: (A.div.Tensor(g, A.mul.Scalar(result, 2)),),
)
_unary(
    "rsqrt",
    "RsqrtBackward0",
    ("result",),
    lambda g, result: (A.mul.Tensor(A.mul.Scalar(g, -0.5), A.pow.Tensor_Scalar(result, 3)),),
)
_unary(
    "reciprocal",
    "ReciprocalBackward0",
    ("result",),
    lambda g, result: (A.mul.Tensor(A.neg.default(g), A.mul.Tensor(result, result)),),
)
_unary("sin", "SinBackward0", ("self",), lambda g, self: (A.mul.Tensor(g, A.cos.default(self)),))
_unary(
    "cos",
    "CosBackward0",
    ("self",),
    lambda g, self: (A.mul.Tensor(A.neg.default(g), A.sin.default(self)),),
)
_unary(
    "tan",
    "TanBackward0",
    ("result",),
    lambda g, result: (A.mul.Tensor(g, A.add.Scalar(A.mul.Tensor(result, result), 1)),),
)
_unary(
    "tanh", "TanhBackward0", ("result",), lambda g, result: (A.tanh_backward.default(g, result),)
)
_unary(
    "sigmoid",
    "SigmoidBackward0",
    ("result",),
    lambda g, result: (A.sigmoid_backward.default(g, result),),
)
_unary(
    "erf",
    "ErfBackward0",
    ("self",),
    lambda g, self: (
        A.mul.Tensor(
            g,
            A.mul.Scalar(
                A.exp.default(A.neg.default(A.mul.Tensor(self, self))), 2.0 / math.sqrt(math.pi)
            ),
        ),
    ),
)
_unary(
    "erfc",
    "ErfcBackward0",
    ("self",),
    lambda g, self: (
        A.mul.Tensor(
            g,
            A.mul.Scalar(
                A.exp.default(A.neg.default(A.mul.Tensor(self, self))), -2.0 / math.sqrt(math.pi)
            ),
        ),
    ),
)
_unary(
    "asin",
    "AsinBackward0",
    ("self",),
    lambda g, self: (A.div.Tensor(g, A.sqrt.default(A.rsub.Scalar(A.mul.Tensor(self, self), 1))),),
)
_unary(
    "acos",
    "AcosBackward0",
    ("self",),
    lambda g, self: (
        A.neg.default(A.div.Tensor(g, A.sqrt.default(A.rsub.Scalar(A.mul.Tensor(self, self), 1)))),
    ),
)
_unary(
    "atan",
    "AtanBackward0",
    ("self",),
    lambda g, self: (A.div.Tensor(g, A.add.Scalar(A.mul.Tensor(self, self), 1)),),
)
_unary("sinh", "SinhBackward0", ("self",), lambda g, self: (A.mul.Tensor(g, A.cosh.default(self)),))
_unary("cosh", "CoshBackward0", ("self",), lambda g, self: (A.mul.Tensor(g, A.sinh.default(self)),))
_unary(
    "asinh",
    "AsinhBackward0",
    ("self",),
    lambda g, self: (A.div.Tensor(g, A.sqrt.default(A.add.Scalar(A.mul.Tensor(self, self), 1))),),
)
_unary(
    "acosh",
    "AcoshBackward0",
    ("self",),
    lambda g, self: (A.div.Tensor(g, A.sqrt.default(A.sub.Scalar(A.mul.Tensor(self, self), 1))),),
)
_unary(
    "atanh",
    "AtanhBackward0",
    ("self",),
    lambda g, self: (A.div.Tensor(g, A.rsub.Scalar(A.mul.Tensor(self, self), 1)),),
)
_unary("abs", "AbsBackward0", ("self",), lambda g, self: (A.mul.Tensor(g, A.sign.default(self)),))
_unary("frac", "FracBackward0", (), lambda g: (g,))
for _n, _node in (
    ("sign", "SignBackward0"),
    ("floor", "FloorBackward0"),
    ("ceil", "CeilBackward0"),
    ("round", "RoundBackward0"),
    ("trunc", "TruncBackward0"),
):
    _unary(_n, _node, (), lambda g: (A.zeros_like.default(g),))
derivative("round.decimals", "RoundBackward1")(lambda g: (A.zeros_like.default(g),))


@derivative("relu", "ReluBackward0", save=("result",))
def _relu(grad, result):
    return (A.threshold_backward.default(grad, result, 0),)


def _gelu_grad(x: Any, approximate: str) -> Any:
    if approximate == "tanh":
        k = math.sqrt(2.0 / math.pi)
        x2 = A.mul.Tensor(x, x)
        inner = A.mul.Scalar(A.add.Tensor(x, A.mul.Scalar(A.mul.Tensor(x2, x), 0.044715)), k)
        t = A.tanh.default(inner)
        dinner = A.mul.Scalar(A.add.Scalar(A.mul.Scalar(x2, 3 * 0.044715), 1), k)
        left = A.mul.Scalar(A.add.Scalar(t, 1), 0.5)
        right = A.mul.Tensor(
            A.mul.Scalar(x, 0.5), A.mul.Tensor(A.rsub.Scalar(A.mul.Tensor(t, t), 1), dinner)
        )
        return A.add.Tensor(left, right)
    cdf = A.mul.Scalar(A.add.Scalar(A.erf.default(A.mul.Scalar(x, 1 / math.sqrt(2.0))), 1), 0.5)
    pdf = A.mul.Scalar(
        A.exp.default(A.mul.Scalar(A.mul.Tensor(x, x), -0.5)), 1 / math.sqrt(2 * math.pi)
    )
    return A.add.Tensor(cdf, A.mul.Tensor(x, pdf))


@derivative("gelu", "GeluBackward0", save=("self", "approximate"))
def _gelu(grad, self, approximate):
    return (A.mul.Tensor(grad, _gelu_grad(self, approximate)),)


@derivative("silu", "SiluBackward0", save=("self",))
def _silu(grad, self):
    s = A.sigmoid.default(self)
    return (
        A.mul.Tensor(
            grad, A.mul.Tensor(s, A.add.Scalar(A.mul.Tensor(self, A.rsub.Scalar(s, 1)), 1))
        ),
    )


@derivative("mish", "MishBackward0", save=("self",))
def _mish(grad, self):
    sp = A.softplus.default(self)
    t = A.tanh.default(sp)
    d = A.add.Tensor(
        t,
        A.mul.Tensor(
            A.mul.Tensor(self, A.sigmoid.default(self)), A.rsub.Scalar(A.mul.Tensor(t, t), 1)
        ),
    )
    return (A.mul.Tensor(grad, d),)


@derivative("softplus", "SoftplusBackward0", save=("self", "beta", "threshold"))
def _softplus(grad, self, beta, threshold):
    bx = A.mul.Scalar(self, beta)
    s = A.sigmoid.default(bx)
    return (A.where.self(A.gt.Scalar(bx, threshold), grad, A.mul.Tensor(grad, s)),)


@derivative("leaky_relu", "LeakyReluBackward0", save=("self", "negative_slope"))
def _leaky_relu(grad, self, negative_slope):
    return (A.where.self(A.gt.Scalar(self, 0), grad, A.mul.Scalar(grad, negative_slope)),)


@derivative("hardtanh", "HardtanhBackward0", save=("self", "min_val", "max_val"))
def _hardtanh(grad, self, min_val, max_val):
    inside = A.logical_and.default(A.gt.Scalar(self, min_val), A.lt.Scalar(self, max_val))
    return (A.where.self(inside, grad, A.zeros_like.default(grad)),)


@derivative("threshold", "ThresholdBackward0", save=("self", "threshold"))
def _threshold(grad, self, threshold):
    return (A.where.self(A.le.Scalar(self, threshold), A.zeros_like.default(grad), grad),)


@derivative("elu", "EluBackward0", save=("self", "alpha", "scale", "input_scale"))
def _elu(grad, self, alpha, scale, input_scale):
    neg = A.mul.Scalar(A.exp.default(A.mul.Scalar(self, input_scale)), alpha * scale * input_scale)
    return (
        A.mul.Tensor(
            grad, A.where.self(A.gt.Scalar(self, 0), A.full_like.default(self, scale), neg)
        ),
    )


@derivative("hardsigmoid", "HardsigmoidBackward0", save=("self",))
def _hardsigmoid(grad, self):
    inside = A.logical_and.default(A.gt.Scalar(self, -3), A.lt.Scalar(self, 3))
    return (A.where.self(inside, A.div.Scalar(grad, 6), A.zeros_like.default(grad)),)


@derivative("hardswish", "HardswishBackward0", save=("self",))
def _hardswish(grad, self):
    mid = A.mul.Tensor(grad, A.add.Scalar(A.div.Scalar(self, 3), 0.5))
    out = A.where.self(
        A.lt.Scalar(self, -3),
        A.zeros_like.default(grad),
        A.where.self(A.le.Scalar(self, 3), mid, grad),
    )
    return (out,)


@derivative("logit", "LogitBackward0", save=("self", "eps"))
def _logit(grad, self, eps):
    d = A.mul.Tensor(self, A.rsub.Scalar(self, 1))
    g = A.div.Tensor(grad, d)
    if eps is not None:
        inside = A.logical_and.default(A.ge.Scalar(self, eps), A.le.Scalar(self, 1 - eps))
        g = A.where.self(inside, g, A.zeros_like.default(g))
    return (g,)


@derivative("nan_to_num", "NanToNumBackward0", save=("self",))
def _nan_to_num(grad, self):
    return (A.mul.Tensor(grad, A.isfinite.default(self)),)


# ----------------------------------------------------------------------------- copies & views


@derivative("clone", "CloneBackward0")
def _clone(grad):
    return (grad,)


@derivative("alias", "AliasBackward0")
def _alias(grad):
    return (grad,)


def _to_differentiable_dtype(v: dict[str, Any]) -> bool:
    # derivatives.yaml: output_differentiability ["!dtype || isDifferentiableType(*dtype)"]
    return v.get("dtype") is None or to_dtype(v["dtype"]).category >= 2


@derivative(
    "_to_copy",
    "ToCopyBackward0",
    computed={"dt": _dtype("self")},
    condition=_to_differentiable_dtype,
)
def _to_copy(grad, dt):
    return (A._to_copy.default(grad, dtype=dt) if grad._dtype is not dt else grad,)


@derivative(
    "copy_",
    "torch::autograd::CopyBackwards",
    inputs=("self", "src"),
    computed={"s": _shape("self"), "src_dtype": _dtype("src")},
)
def _copy(grad, s, src_dtype, needs):
    # CopyBackwards: self's zeros, then src's gradient, each only when needed.
    g_self = A.zeros_like.default(grad) if needs[0] else None
    if not needs[1]:
        return g_self, None
    return g_self, (grad if grad._dtype is src_dtype else A._to_copy.default(grad, dtype=src_dtype))


@derivative("fill_.Scalar", "FillBackward2")
def _fill(grad):
    return (A.zeros_like.default(grad),)


@derivative("fill_.Tensor", "FillBackward3")
def _fill_t(grad):
    return A.zeros_like.default(grad), A.sum.default(grad)


@derivative("zero_", "ZeroBackward0")
def _zero(grad):
    return (A.zeros_like.default(grad),)


def _reshape_to(name: str) -> Callable[..., Any]:
    def f(grad: Any, s: tuple[int, ...]) -> tuple[Any, ...]:
        return (A.reshape.default(grad, list(s)),)

    return f


derivative("view", "ViewBackward0", computed={"s": _shape("self")})(_reshape_to("view"))
derivative("_unsafe_view", "UnsafeViewBackward0", computed={"s": _shape("self")})(_reshape_to("u"))


@derivative("expand", "ExpandBackward0", computed={"s": _shape("self")})
def _expand(grad, s):
    from .engine import _sum_to

    return (_sum_to(grad, s),)


@derivative(
    "as_strided",
    "AsStridedBackward0",
    save=("size", "stride", "storage_offset"),
    computed={
        "geom": lambda v: (
            tuple(v["self"]._data.shape),
            v["self"].stride(),
            v["self"].storage_offset(),
            v["self"]._dtype,
        )
    },
)
def _as_strided(grad, size, stride, storage_offset, geom):
    shape, base_stride, base_offset, _ = geom
    from .views import _extent

    n = _extent(shape, base_stride) + base_offset
    flat = A.zeros.default([max(n, 1)], dtype=grad._dtype, device=grad.device)
    off = base_offset if storage_offset is None else storage_offset
    region = A.as_strided.default(flat, list(size), list(stride), off)
    A.add_.Tensor(region, grad)
    return (A.as_strided.default(flat, list(shape), list(base_stride), base_offset),)


@derivative("t", "TBackward0")
def _t(grad):
    return (A.t.default(grad),)


@derivative("transpose.int", "TransposeBackward0", save=("dim0", "dim1"))
def _transpose(grad, dim0, dim1):
    return (A.transpose.int(grad, dim0, dim1),)


@derivative("permute", "PermuteBackward0", save=("dims",))
def _permute(grad, dims):
    n = len(dims)
    inverse = [0] * n
    for i, d in enumerate(dims):
        inverse[d % n] = i
    return (A.permute.default(grad, inverse),)


@derivative("unsqueeze", "UnsqueezeBackward0", save=("dim",))
def _unsqueeze(grad, dim):
    return (A.squeeze.dim(grad, dim),)


derivative("squeeze", "SqueezeBackward0", computed={"s": _shape("self")})(_reshape_to("sq"))
derivative("squeeze.dim", "SqueezeBackward1", computed={"s": _shape("self")})(_reshape_to("sq"))
derivative("squeeze.dims", "SqueezeBackward2", computed={"s": _shape("self")})(_reshape_to("sq"))


@derivative("select.int", "SelectBackward0", save=("dim", "index"), computed={"s": _shape("self")})
def _select(grad, dim, index, s):
    return (A.select_backward.default(grad, list(s), dim, index),)


@derivative(
    "slice.Tensor",
    "SliceBackward0",
    save=("dim", "start", "end", "step"),
    computed={"s": _shape("self")},
)
def _slice(grad, dim, start, end, step, s):
    # PyTorch's slice_backward_wrapper: a missing start is 0, a missing end INT64_MAX (unwrapped)
    start = 0 if start is None else start
    end = _INT64_MAX if end is None else end
    return (A.slice_backward.default(grad, list(s), dim, start, end, step),)


@derivative(
    "diagonal", "DiagonalBackward0", save=("offset", "dim1", "dim2"), computed={"s": _shape("self")}
)
def _diagonal(grad, offset, dim1, dim2, s):
    return (A.diagonal_backward.default(grad, list(s), offset, dim1, dim2),)


_INT64_MAX = 9223372036854775807


def _split_backward(grads: Any, dim: int, s: tuple[int, ...], like_sizes: list[int]) -> Any:
    pieces = []
    grads = list(grads) + [None] * (len(like_sizes) - len(grads))
    for g, size in zip(grads, like_sizes):
        if g is None:
            shape = list(s)
            shape[dim] = size
            ref = next(x for x in grads if x is not None)
            g = _zeros(tuple(shape), ref)
        pieces.append(g)
    return A.cat.default(pieces, dim)


@derivative(
    "split.Tensor",
    "SplitBackward0",
    save=("split_size", "dim"),
    n_outputs=-1,
    outputs=range(1024),
    computed={"s": _shape("self")},
)
def _split(grads, split_size, dim, s):
    d = dim % len(s)
    n = s[d]
    sizes = [min(split_size, n - i) for i in range(0, n, split_size)] if n else [0]
    return (_split_backward(grads, d, s, sizes),)


@derivative(
    "split_with_sizes",
    "SplitWithSizesBackward0",
    save=("split_sizes", "dim"),
    n_outputs=-1,
    outputs=range(1024),
    computed={"s": _shape("self")},
)
def _split_with_sizes(grads, split_sizes, dim, s):
    return (_split_backward(grads, dim % len(s), s, list(split_sizes)),)


@derivative(
    "unbind.int",
    "UnbindBackward0",
    save=("dim",),
    n_outputs=-1,
    outputs=range(1 << 20),
    computed={"s": _shape("self")},
)
def _unbind(grads, dim, s):
    d = dim % len(s)
    shape = list(s)
    del shape[d]
    grads = list(grads) + [None] * (s[d] - len(grads))
    ref = next(g for g in grads if g is not None)
    pieces = [g if g is not None else _zeros(tuple(shape), ref) for g in grads]
    return (A.stack.default(pieces, d),)


# ----------------------------------------------------------------------------- reductions


def _unsqueeze_dims(grad: Any, dims: Sequence[int], ndim: int) -> Any:
    for d in sorted(x % ndim for x in dims):
        grad = A.unsqueeze.default(grad, d)
    return grad


def _norm_dims(dim: Any, ndim: int) -> list[int]:
    if dim is None or (isinstance(dim, (list, tuple)) and len(dim) == 0):
        return list(range(ndim))
    if isinstance(dim, int):
        return [dim % max(ndim, 1)]
    return [d % max(ndim, 1) for d in dim]


@derivative("sum", "SumBackward0", computed={"s": _shape("self")})
def _sum(grad, s):
    return (A.expand.default(grad, list(s)),)


@derivative(
    "sum.dim_IntList", "SumBackward1", save=("dim", "keepdim"), computed={"s": _shape("self")}
)
def _sum_dim(grad, dim, keepdim, s):
    if not keepdim and s:
        grad = _unsqueeze_dims(grad, _norm_dims(dim, len(s)), len(s))
    return (A.expand.default(grad, list(s)),)


@derivative("mean", "MeanBackward0", computed={"s": _shape("self")})
def _mean(grad, s):
    n = max(math.prod(s), 1) if s else 1
    return (A.div.Scalar(A.expand.default(grad, list(s)), math.prod(s) if s else 1) if n else grad,)


@derivative("mean.dim", "MeanBackward1", save=("dim", "keepdim"), computed={"s": _shape("self")})
def _mean_dim(grad, dim, keepdim, s):
    dims = _norm_dims(dim, len(s))
    n = math.prod(s[d] for d in dims) if s else 1
    if not keepdim and s:
        grad = _unsqueeze_dims(grad, dims, len(s))
    return (A.div.Scalar(A.expand.default(grad, list(s)), n),)


@derivative("prod", "ProdBackward0", save=("self", "result"))
def _prod(grad, self, result):
    return (A.mul.Tensor(grad, _prod_grad_factor(self, result, None, False)),)


@derivative("prod.dim_int", "ProdBackward1", save=("self", "result", "dim", "keepdim"))
def _prod_dim(grad, self, result, dim, keepdim):
    ndim = self.dim()
    if not keepdim and ndim:
        grad = A.unsqueeze.default(grad, dim % ndim)
        result = A.unsqueeze.default(result, dim % ndim)
    return (A.mul.Tensor(grad, _prod_grad_factor(self, result, dim, True)),)


def _prod_grad_factor(self: Any, result: Any, dim: Any, keep: bool) -> Any:
    # d prod / d x_i = prod of the others: result / x_i where x_i != 0, else the product of
    # the remaining elements (computed by replacing zeros with ones).
    zero = A.eq.Scalar(self, 0)
    safe = A.where.self(zero, A.ones_like.default(self), self)
    if dim is None:
        others = A.prod.default(safe)
        n_zero = A.sum.default(zero)
    else:
        others = A.prod.dim_int(safe, dim, True)
        n_zero = A.sum.dim_IntList(zero, [dim], True)
    by_div = A.div.Tensor(result, safe)
    single_zero = A.logical_and.default(zero, A.eq.Scalar(n_zero, 1))
    return A.where.self(
        single_zero,
        A.expand.default(others, list(self.shape)),
        A.where.self(zero, A.zeros_like.default(self), by_div),
    )


def _select_max_grad(grad: Any, self: Any, result: Any, dims: Any, keepdim: bool) -> Any:
    ndim = self.dim()
    if not keepdim and ndim:
        for d in sorted(dims):
            grad = A.unsqueeze.default(grad, d)
            result = A.unsqueeze.default(result, d)
    mask = A.eq.Tensor(self, result)
    count = A.sum.dim_IntList(mask, list(dims), True) if ndim else A.sum.default(mask)
    return A.div.Tensor(A.mul.Tensor(A.expand.default(grad, list(self.shape)), mask), count)


@derivative("amax", "AmaxBackward0", save=("self", "result", "dim", "keepdim"))
def _amax(grad, self, result, dim, keepdim):
    return (_select_max_grad(grad, self, result, _norm_dims(dim, self.dim()), keepdim),)


@derivative("amin", "AminBackward0", save=("self", "result", "dim", "keepdim"))
def _amin(grad, self, result, dim, keepdim):
    return (_select_max_grad(grad, self, result, _norm_dims(dim, self.dim()), keepdim),)


@derivative("max", "MaxBackward1", save=("self", "result"))
def _max_all(grad, self, result):
    return (_select_max_grad(grad, self, result, list(range(self.dim())), False),)


@derivative("min", "MinBackward1", save=("self", "result"))
def _min_all(grad, self, result):
    return (_select_max_grad(grad, self, result, list(range(self.dim())), False),)


def _indices_backward(grads: Any, dim: int, keepdim: bool, indices: Any, s: tuple[int, ...]) -> Any:
    grad = grads[0] if isinstance(grads, (list, tuple)) else grads
    d = dim % max(len(s), 1)
    if not keepdim and s:
        grad = A.unsqueeze.default(grad, d)
        indices = A.unsqueeze.default(indices, d)
    # PyTorch's value_selecting_reduction_backward starts from grad.new_zeros (after unsqueeze).
    out = A.new_zeros.default(grad, list(s))
    return A.scatter.src(out, d, indices, grad)


def _value_selecting(grads, dim, keepdim, result1, s):
    return (_indices_backward(grads, dim, keepdim, result1, s),)


# The reductions that return (values, indices): one formula, PyTorch's node names.
for _name, _node in (
    ("max.dim", "MaxBackward0"),
    ("min.dim", "MinBackward0"),
    ("median.dim", "MedianBackward1"),
    ("nanmedian.dim", "NanmedianBackward1"),
    ("mode", "ModeBackward0"),
):
    derivative(
        _name,
        _node,
        save=("dim", "keepdim", "result1"),
        n_outputs=2,
        computed={"s": _shape("self")},
    )(_value_selecting)


def _var_grad(grad: Any, self: Any, dim: Any, correction: Any, keepdim: bool) -> Any:
    ndim = self.dim()
    dims = _norm_dims(dim, ndim)
    n = math.prod(self.shape[d] for d in dims) if ndim else 1
    c = 1 if correction is None else correction
    if not keepdim and ndim:
        grad = _unsqueeze_dims(grad, dims, ndim)
    mean = A.mean.dim(self, dims, True) if ndim else self
    return A.mul.Tensor(
        A.mul.Scalar(grad, 2.0 / max(n - c, 0) if n - c > 0 else float("inf")),
        A.sub.Tensor(self, mean),
    )


@derivative("var.correction", "VarBackward0", save=("self", "dim", "correction", "keepdim"))
def _var(grad, self, dim, correction, keepdim):
    return (_var_grad(grad, self, dim, correction, keepdim),)


@derivative(
    "std.correction", "StdBackward0", save=("self", "dim", "correction", "keepdim", "result")
)
def _std(grad, self, dim, correction, keepdim, result):
    ndim = self.dim()
    r = result
    if not keepdim and ndim:
        r = _unsqueeze_dims(r, _norm_dims(dim, ndim), ndim)
    g = _var_grad(A.div.Tensor(grad, A.mul.Scalar(result, 2)), self, dim, correction, keepdim)
    del r
    return (g,)


@derivative("logsumexp", "LogsumexpBackward0", save=("self", "dim", "keepdim", "result"))
def _logsumexp(grad, self, dim, keepdim, result):
    ndim = self.dim()
    if not keepdim and ndim:
        dims = _norm_dims(dim, ndim)
        grad = _unsqueeze_dims(grad, dims, ndim)
        result = _unsqueeze_dims(result, dims, ndim)
    return (A.mul.Tensor(grad, A.exp.default(A.sub.Tensor(self, result))),)


@derivative("_softmax", "SoftmaxBackward0", save=("result", "dim"), computed={"dt": _dtype("self")})
def _softmax(grad, result, dim, dt):
    return (A._softmax_backward_data.default(grad, result, dim, dt),)


@derivative(
    "_log_softmax", "LogSoftmaxBackward0", save=("result", "dim"), computed={"dt": _dtype("self")}
)
def _log_softmax(grad, result, dim, dt):
    return (A._log_softmax_backward_data.default(grad, result, dim, dt),)


@derivative("cumsum", "CumsumBackward0", save=("dim",), computed={"dt": _dtype("self")})
def _cumsum(grad, dim, dt):
    if grad.dim() == 0:
        return (grad,)
    g = A.flip.default(A.cumsum.default(A.flip.default(grad, [dim]), dim), [dim])
    return (g if g._dtype is dt else A._to_copy.default(g, dtype=dt),)


@derivative("cumprod", "CumprodBackward0", save=("self", "dim", "result"))
def _cumprod(grad, self, dim, result):
    # For inputs without zeros: sum_{j>=i} grad_j * result_j / x_i.
    if self.dim() == 0:
        return (grad,)
    acc = A.flip.default(
        A.cumsum.default(A.flip.default(A.mul.Tensor(grad, result), [dim]), dim), [dim]
    )
    return (A.div.Tensor(acc, self),)


@derivative(
    "linalg_vector_norm",
    "LinalgVectorNormBackward0",
    save=("self", "ord", "dim", "keepdim", "result"),
)
def _vector_norm(grad, self, ord, dim, keepdim, result):  # noqa: A002
    ndim = self.dim()
    dims = _norm_dims(dim, ndim)
    if not keepdim and ndim:
        grad = _unsqueeze_dims(grad, dims, ndim)
        result = _unsqueeze_dims(result, dims, ndim)
    p = float(ord)
    if p == 0:
        return (None,)  # PyTorch's norm_backward: an undefined gradient
    if p == 2:
        safe = A.where.self(A.eq.Scalar(result, 0), A.ones_like.default(result), result)
        g = A.div.Tensor(A.mul.Tensor(self, grad), safe)
        return (A.where.self(A.eq.Scalar(result, 0), A.zeros_like.default(g), g),)
    if p == 1:
        return (A.mul.Tensor(A.sign.default(self), grad),)
    if math.isinf(p):
        return (
            _select_max_grad(grad, A.abs.default(self), result, dims, True) * A.sign.default(self),
        )
    a = A.abs.default(self)
    num = A.mul.Tensor(A.mul.Tensor(self, A.pow.Tensor_Scalar(a, p - 2)), grad)
    safe = A.where.self(A.eq.Scalar(result, 0), A.ones_like.default(result), result)
    g = A.div.Tensor(num, A.pow.Tensor_Scalar(safe, p - 1))
    return (A.where.self(A.eq.Scalar(result, 0), A.zeros_like.default(g), g),)


@derivative(
    "topk", "TopkBackward0", save=("dim", "result1"), n_outputs=2, computed={"s": _shape("self")}
)
def _topk(grads, dim, result1, s):
    grad = grads[0]
    out = _zeros(s, grad)
    return (A.scatter.src(out, dim % max(len(s), 1), result1, grad) if s else grad,)


@derivative(
    "sort", "SortBackward0", save=("dim", "result1"), n_outputs=2, computed={"s": _shape("self")}
)
def _sort(grads, dim, result1, s):
    grad = grads[0]
    out = _zeros(s, grad)
    return (A.scatter.src(out, dim % max(len(s), 1), result1, grad) if s else grad,)


# ----------------------------------------------------------------------------- linear algebra


def _column_major(t: Any) -> bool:
    """A 2-d tensor laid out column by column (a transposed contiguous matrix)."""
    st = t.stride()
    return st[0] == 1 and st[1] == t._data.shape[0]


def mm_mat1_backward(grad: Any, mat2: Any, mat1: Any) -> Any:
    # A column-major mat1 gets a column-major gradient (no copy when it is accumulated).
    if _column_major(mat1):
        return A.t.default(A.mm.default(mat2, A.t.default(grad)))
    return A.mm.default(grad, A.t.default(mat2))


def mm_mat2_backward(grad: Any, mat1: Any, mat2: Any) -> Any:
    # A linear layer's weight enters as weight.t(): column-major, so this branch keeps its
    # gradient contiguous after TBackward.
    if _column_major(mat2):
        return A.t.default(A.mm.default(A.t.default(grad), mat1))
    return A.mm.default(A.t.default(mat1), grad)


@derivative("mm", "MmBackward0", save=("self", "mat2"))
def _mm(grad, self, mat2, needs):
    # PyTorch's generated MmBackward0 computes mat2's gradient first.
    g_mat2 = mm_mat2_backward(grad, self, mat2) if needs[1] else None
    return (mm_mat1_backward(grad, mat2, self) if needs[0] else None), g_mat2


@derivative("bmm", "BmmBackward0", save=("self", "mat2"))
def _bmm(grad, self, mat2, needs):
    return (
        A.bmm.default(grad, A.transpose.int(mat2, 1, 2)) if needs[0] else None,
        A.bmm.default(A.transpose.int(self, 1, 2), grad) if needs[1] else None,
    )


@derivative("addmm", "AddmmBackward0", save=("mat1", "mat2", "beta", "alpha"))
def _addmm(grad, mat1, mat2, beta, alpha, needs):
    return (
        _scale(grad, beta) if needs[0] else None,
        _scale(mm_mat1_backward(grad, mat2, mat1), alpha) if needs[1] else None,
        _scale(mm_mat2_backward(grad, mat1, mat2), alpha) if needs[2] else None,
    )


@derivative("baddbmm", "BaddbmmBackward0", save=("batch1", "batch2", "beta", "alpha"))
def _baddbmm(grad, batch1, batch2, beta, alpha, needs):
    return (
        _scale(grad, beta) if needs[0] else None,
        _scale(A.bmm.default(grad, A.transpose.int(batch2, 1, 2)), alpha) if needs[1] else None,
        _scale(A.bmm.default(A.transpose.int(batch1, 1, 2), grad), alpha) if needs[2] else None,
    )


@derivative("dot", "DotBackward0", save=("self", "tensor"))
def _dot(grad, self, tensor):
    return A.mul.Tensor(tensor, grad), A.mul.Tensor(self, grad)


@derivative("mv", "MvBackward0", save=("self", "vec"))
def _mv(grad, self, vec):
    return (
        A.mul.Tensor(A.unsqueeze.default(grad, 1), A.unsqueeze.default(vec, 0)),
        A.mv.default(A.t.default(self), grad),
    )


@derivative("addmv", "AddmvBackward0", save=("mat", "vec", "beta", "alpha"))
def _addmv(grad, mat, vec, beta, alpha):
    return (
        _scale(grad, beta),
        _scale(A.mul.Tensor(A.unsqueeze.default(grad, 1), A.unsqueeze.default(vec, 0)), alpha),
        _scale(A.mv.default(A.t.default(mat), grad), alpha),
    )


@derivative("vdot", "VdotBackward0", save=("self", "other"))
def _vdot(grad, self, other):
    return A.mul.Tensor(other, grad), A.mul.Tensor(self, grad)


# ----------------------------------------------------------------------------- more elementwise


@derivative("hypot", "HypotBackward0", save=("self", "other", "result"))
def _hypot(grad, self, other, result):
    return (
        A.mul.Tensor(grad, A.div.Tensor(self, result)),
        A.mul.Tensor(grad, A.div.Tensor(other, result)),
    )


@derivative("xlogy.Tensor", "XlogyBackward0", save=("self", "other"))
def _xlogy(grad, self, other):
    g_self = A.xlogy.Tensor(grad, other)
    g_self = A.masked_fill.Scalar(
        g_self, A.logical_and.default(A.eq.Scalar(self, 0), A.le.Scalar(other, 0)), 0
    )
    return g_self, A.div.Tensor(A.mul.Tensor(grad, self), other)


@derivative("xlogy.Scalar_Self", "XlogyBackward1", inputs=("other",), save=("self", "other"))
def _xlogy_scalar_self(grad, self, other):
    return (A.div.Tensor(A.mul.Scalar(grad, self), other),)


@derivative("xlogy.Scalar_Other", "XlogyBackward2", inputs=("self",), save=("self", "other"))
def _xlogy_scalar_other(grad, self, other):
    g = A.xlogy.Scalar_Other(grad, other)
    return (g if other > 0 else A.masked_fill.Scalar(g, A.eq.Scalar(self, 0), 0),)


def _copysign_self(grad: Any, self: Any, result: Any) -> Any:
    ratio = A.div.Tensor(result, self)
    ratio = A.masked_fill.Scalar(ratio, A.eq.Scalar(self, 0), 0)
    return A.mul.Tensor(grad, ratio)


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
    take_self = A.logical_or.default(A.ge.Tensor(self, other), A.isnan.default(other))
    zero = A.zeros_like.default(grad)
    return A.where.self(take_self, grad, zero), A.where.self(take_self, zero, grad)


@derivative("fmin", "FminBackward0", save=("self", "other"))
def _fmin(grad, self, other):
    take_self = A.logical_or.default(A.le.Tensor(self, other), A.isnan.default(other))
    zero = A.zeros_like.default(grad)
    return A.where.self(take_self, grad, zero), A.where.self(take_self, zero, grad)


@derivative("celu", "CeluBackward0", save=("self", "alpha"))
def _celu(grad, self, alpha):
    neg = A.exp.default(A.div.Scalar(self, alpha))
    return (A.mul.Tensor(grad, A.where.self(A.gt.Scalar(self, 0), A.ones_like.default(self), neg)),)


derivative("sgn", "SgnBackward0")(lambda g: (A.zeros_like.default(g),))


# ----------------------------------------------------------------------------- more reductions


@derivative("nansum", "NansumBackward0", save=("self", "dim", "keepdim"))
def _nansum(grad, self, dim, keepdim):
    ndim = self.dim()
    if not keepdim and ndim:
        grad = _unsqueeze_dims(grad, _norm_dims(dim, ndim), ndim)
    g = A.expand.default(grad, list(self.shape))
    return (A.masked_fill.Scalar(g, A.isnan.default(self), 0),)


def _evenly_distribute(grad: Any, self: Any, result: Any) -> Any:
    """PyTorch's evenly_distribute_backward: grad shared by the elements equal to the result
    (by the NaNs when the result is NaN)."""
    if bool(A.isnan.default(result)):
        mask = A.isnan.default(self)
    else:
        mask = A.eq.Tensor(self, result)
    share = A.div.Tensor(grad, A.sum.default(mask))
    return A.masked_fill.Tensor(_zeros(tuple(self.shape), grad), mask, share)


@derivative("median", "MedianBackward0", save=("self", "result"))
def _median(grad, self, result):
    return (_evenly_distribute(grad, self, result),)


@derivative("nanmedian", "NanmedianBackward0", save=("self", "result"))
def _nanmedian(grad, self, result):
    return (_evenly_distribute(grad, self, result),)


@derivative("norm.ScalarOpt_dtype", "NormBackward2", save=("self", "p", "result"))
def _norm_dtype(grad, self, p, result):
    self = A._to_copy.default(self, dtype=grad._dtype)
    return _vector_norm(grad, self, 2 if p is None else p, None, False, result)


@derivative(
    "norm.ScalarOpt_dim_dtype", "NormBackward3", save=("self", "p", "dim", "keepdim", "result")
)
def _norm_dim_dtype(grad, self, p, dim, keepdim, result):
    self = A._to_copy.default(self, dtype=grad._dtype)
    return _vector_norm(grad, self, 2 if p is None else p, dim, keepdim, result)


@derivative("norm.Scalar", "NormBackward0", save=("self", "p", "result"))
def _norm_scalar(grad, self, p, result):
    return _vector_norm(grad, self, 2 if p is None else p, None, False, result)


@derivative("norm.ScalarOpt_dim", "NormBackward1", save=("self", "p", "dim", "keepdim", "result"))
def _norm_dim(grad, self, p, dim, keepdim, result):
    return _vector_norm(grad, self, 2 if p is None else p, dim, keepdim, result)


@derivative(
    "aminmax",
    "AminmaxBackward0",
    save=("self", "dim", "keepdim", "result0", "result1"),
    n_outputs=2,
    outputs=(0, 1),
)
def _aminmax(grads, self, dim, keepdim, result0, result1):
    dims = list(range(self.dim())) if dim is None else [dim % max(self.dim(), 1)]
    total = None
    for g, r in zip(grads, (result0, result1)):
        if g is None:
            continue
        part = _select_max_grad(g, self, r, dims, keepdim)
        total = part if total is None else A.add.Tensor(total, part)
    return (total,)


def _stat_mean_backward(grads, self, dim, correction, keepdim, result0, is_std):
    g_stat, g_mean = grads
    total = None
    if g_stat is not None:
        if is_std:
            g_stat = A.div.Tensor(g_stat, A.mul.Scalar(result0, 2))
        total = _var_grad(g_stat, self, dim, correction, keepdim)
    if g_mean is not None:
        part = (
            _mean_dim(g_mean, _norm_dims(dim, self.dim()), keepdim, tuple(self.shape))[0]
            if self.dim()
            else g_mean
        )
        total = part if total is None else A.add.Tensor(total, part)
    return (total,)


@derivative(
    "var_mean.correction",
    "VarMeanBackward0",
    save=("self", "dim", "correction", "keepdim", "result0"),
    n_outputs=2,
    outputs=(0, 1),
)
def _var_mean(grads, self, dim, correction, keepdim, result0):
    return _stat_mean_backward(grads, self, dim, correction, keepdim, result0, False)


@derivative(
    "std_mean.correction",
    "StdMeanBackward0",
    save=("self", "dim", "correction", "keepdim", "result0"),
    n_outputs=2,
    outputs=(0, 1),
)
def _std_mean(grads, self, dim, correction, keepdim, result0):
    return _stat_mean_backward(grads, self, dim, correction, keepdim, result0, True)


@derivative(
    "_safe_softmax", "SafeSoftmaxBackward0", save=("result", "dim"), computed={"dt": _dtype("self")}
)
def _safe_softmax(grad, result, dim, dt):
    return _softmax(grad, result, dim, dt)


@derivative(
    "sort.stable",
    "SortBackward1",
    save=("dim", "result1"),
    n_outputs=2,
    computed={"s": _shape("self")},
)
def _sort_stable(grads, dim, result1, s):
    return _sort(grads, dim, result1, s)


# ----------------------------------------------------------------------------- indexing


@derivative(
    "index.Tensor",
    "IndexBackward0",
    inputs=("self",),
    save=("indices",),
    computed={"s": _shape("self")},
)
def _index(grad, indices, s):
    out = _zeros(s, grad)
    return (A.index_put.default(out, list(indices), grad, True),)


@derivative(
    "index_put",
    "IndexPutBackward0",
    inputs=("self", "values"),
    save=("indices", "accumulate"),
    computed={"vs": _shape("values")},
)
def _index_put(grad, indices, accumulate, vs):
    g_self = (
        grad
        if accumulate
        else A.index_put.default(grad, list(indices), A.zeros.default([], dtype=grad._dtype), False)
    )
    return g_self, A.index.Tensor(grad, list(indices))


@derivative(
    "index_select",
    "IndexSelectBackward0",
    inputs=("self",),
    save=("dim", "index"),
    computed={"s": _shape("self")},
)
def _index_select(grad, dim, index, s):
    out = _zeros(s, grad)
    return (A.index_add.default(out, dim, index, grad),)


@derivative(
    "gather",
    "GatherBackward0",
    inputs=("self",),
    save=("dim", "index"),
    computed={"s": _shape("self")},
)
def _gather(grad, dim, index, s):
    out = _zeros(s, grad)
    return (A.scatter_add.default(out, dim, index, grad),)


@derivative("scatter.src", "ScatterBackward0", inputs=("self", "src"), save=("dim", "index"))
def _scatter_src(grad, dim, index):
    return A.scatter.value(grad, dim, index, 0), A.gather.default(grad, dim, index)


@derivative("scatter.value", "ScatterBackward1", inputs=("self",), save=("dim", "index"))
def _scatter_value(grad, dim, index):
    return (A.scatter.value(grad, dim, index, 0),)


@derivative("scatter_add", "ScatterAddBackward0", inputs=("self", "src"), save=("dim", "index"))
def _scatter_add(grad, dim, index):
    return grad, A.gather.default(grad, dim, index)


@derivative(
    "index_add",
    "IndexAddBackward0",
    inputs=("self", "source"),
    save=("dim", "index", "alpha"),
    computed={"src": _shape("source")},
)
def _index_add(grad, dim, index, alpha, src):
    g = A.index_select.default(grad, dim, index) if grad.dim() else grad
    return grad, A.reshape.default(_scale(g, alpha), list(src))


@derivative(
    "index_copy",
    "IndexCopyBackward0",
    inputs=("self", "source"),
    save=("dim", "index"),
    computed={"src": _shape("source")},
)
def _index_copy(grad, dim, index, src):
    g_self = A.index_fill.int_Scalar(grad, dim, index, 0)
    g_src = A.index_select.default(grad, dim, index) if grad.dim() else grad
    return g_self, A.reshape.default(g_src, list(src))


@derivative("index_fill.int_Scalar", "IndexFillBackward0", inputs=("self",), save=("dim", "index"))
def _index_fill(grad, dim, index):
    return (A.index_fill.int_Scalar(grad, dim, index, 0),)


@derivative(
    "index_fill.int_Tensor", "IndexFillBackward1", inputs=("self", "value"), save=("dim", "index")
)
def _index_fill_tensor(grad, dim, index, needs):
    g_self = A.index_fill.int_Scalar(grad, dim, index, 0) if needs[0] else None
    if not needs[1]:
        return g_self, None
    # Each filled position counts once, however often the index names it.
    unique = A._unique.default(index, False)[0]
    return g_self, A.sum.default(A.index_select.default(grad, dim, unique))


@derivative(
    "masked_select",
    "MaskedSelectBackward0",
    inputs=("self",),
    save=("mask",),
    computed={"s": _shape("self")},
)
def _masked_select(grad, mask, s):
    from ..aten._shape import broadcast_shapes

    shape = broadcast_shapes(s, tuple(mask.shape))
    if not shape:  # 0-d: a 0-d boolean mask cannot index a 0-d tensor
        return (A.where.self(mask, A.reshape.default(grad, []), _zeros((), grad)),)
    out = _zeros(shape, grad)
    full_mask = A.expand.default(mask, list(shape))
    return (A.index_put.default(out, [full_mask], grad, False),)


@derivative(
    "take", "TakeBackward0", inputs=("self",), save=("index",), computed={"s": _shape("self")}
)
def _take(grad, index, s):
    n = math.prod(s) if s else 1
    flat = A.zeros.default([n], dtype=grad._dtype, device=grad.device)
    flat = A.index_put.default(
        flat, [A.reshape.default(index, [-1])], A.reshape.default(grad, [-1]), True
    )
    return (A.reshape.default(flat, list(s)),)


@derivative(
    "put",
    "PutBackward0",
    inputs=("self", "source"),
    save=("index", "accumulate"),
    computed={"src": _shape("source")},
)
def _put(grad, index, accumulate, src):
    g_self = grad if accumulate else A.put.default(grad, index, _zeros(src, grad), False)
    return g_self, A.reshape.default(A.take.default(grad, index), list(src))


@derivative(
    "scatter_reduce.two",
    "ScatterReduceBackward0",
    inputs=("self", "src"),
    save=("self", "dim", "index", "src", "reduce", "include_self", "result"),
)
def _scatter_reduce(grad, self, dim, index, src, reduce, include_self, result):
    if reduce == "sum":
        g_self = grad if include_self else A.scatter.value(grad, dim, index, 0)
        return g_self, A.gather.default(grad, dim, index)
    if reduce == "mean":
        ones = A.ones_like.default(src)
        counts = A.scatter_add.default(
            A.ones_like.default(self) if include_self else A.zeros_like.default(self),
            dim,
            index,
            ones,
        )
        counts = A.masked_fill.Scalar(counts, A.eq.Scalar(counts, 0), 1)
        g = A.div.Tensor(grad, counts)
        g_self = g if include_self else A.scatter.value(g, dim, index, 0)
        return g_self, A.gather.default(g, dim, index)
    if reduce in ("amax", "amin"):
        picked = A.gather.default(result, dim, index)
        src_hit = A.eq.Tensor(src, picked)
        self_hit = (
            A.eq.Tensor(self, result) if include_self else A.zeros_like.default(self, dtype=bool_)
        )
        counts = A.scatter_add.default(
            self_hit.to(grad._dtype), dim, index, src_hit.to(grad._dtype)
        )
        g = A.div.Tensor(grad, A.masked_fill.Scalar(counts, A.eq.Scalar(counts, 0), 1))
        return A.mul.Tensor(g, self_hit), A.mul.Tensor(A.gather.default(g, dim, index), src_hit)
    if reduce == "prod":
        g_self = (
            A.div.Tensor(A.mul.Tensor(grad, result), self)
            if include_self
            else A.scatter.value(grad, dim, index, 0)
        )
        g_src = A.div.Tensor(A.gather.default(A.mul.Tensor(grad, result), dim, index), src)
        return g_self, g_src
    raise RuntimeError(
        f"reduce argument must be either sum, prod, mean, amax or amin, got {reduce}"
    )


# ----------------------------------------------------------------------------- assembly


@derivative(
    "cat",
    "CatBackward0",
    save=("dim",),
    computed={"shapes": lambda v: [tuple(t.shape) for t in v["tensors"]]},
)
def _cat(grad, dim, shapes):
    nd = grad.dim()
    d = dim % nd if nd else 0
    out = []
    start = 0
    for s in shapes:
        if len(s) == 1 and s[0] == 0 and nd != 1:  # legacy empty tensors take no part
            out.append(A.zeros.default([0], dtype=grad._dtype, device=grad.device))
            continue
        size = s[d]
        out.append(A.slice.Tensor(grad, d, start, start + size, 1))
        start += size
    return tuple(out)


@derivative("stack", "StackBackward0", save=("dim",), computed={"n": lambda v: len(v["tensors"])})
def _stack(grad, dim, n):
    return tuple(A.unbind.int(grad, dim % grad.dim()))


@derivative("flip", "FlipBackward0", save=("dims",))
def _flip(grad, dims):
    return (A.flip.default(grad, list(dims)),)


@derivative("roll", "RollBackward0", save=("shifts", "dims"))
def _roll(grad, shifts, dims):
    return (A.roll.default(grad, [-s for s in shifts], list(dims)),)


@derivative("rot90", "Rot90Backward0", save=("k", "dims"))
def _rot90(grad, k, dims):
    return (A.rot90.default(grad, -k, list(dims)),)


@derivative("tril", "TrilBackward0", save=("diagonal",))
def _tril(grad, diagonal):
    return (A.tril.default(grad, diagonal),)


@derivative("triu", "TriuBackward0", save=("diagonal",))
def _triu(grad, diagonal):
    return (A.triu.default(grad, diagonal),)


@derivative("repeat", "RepeatBackward0", save=("repeats",), computed={"s": _shape("self")})
def _repeat(grad, repeats, s):
    extra = len(repeats) - len(s)
    if extra:
        grad = A.sum.dim_IntList(grad, list(range(extra)), False)
    shape = []
    for r, size in zip(repeats[extra:], s):
        shape += [r, size]
    if not shape:
        return (grad,)
    g = A.reshape.default(grad, shape)
    g = A.sum.dim_IntList(g, list(range(0, len(shape), 2)), False)
    return (g,)


@derivative(
    "unfold", "UnfoldBackward0", save=("dimension", "size", "step"), computed={"s": _shape("self")}
)
def _unfold(grad, dimension, size, step, s):
    if not s:  # a 0-d tensor unfolds to one window of one element
        return (A.reshape.default(grad, []),)
    out = _zeros(s, grad)
    d = dimension % max(len(s), 1)
    windows = grad.shape[d] if s else 1
    for i in range(windows):
        piece = A.movedim.int(A.select.int(grad, d, i), -1, d) if s else grad
        region = A.slice.Tensor(out, d, i * step, i * step + size, 1)
        A.add_.Tensor(region, piece)
    return (out,)


@derivative(
    "constant_pad_nd", "ConstantPadNdBackward0", save=("pad",), computed={"s": _shape("self")}
)
def _constant_pad(grad, pad, s):
    g = grad
    nd = len(s)
    for i in range(len(pad) // 2):
        d = nd - 1 - i
        left, right = pad[2 * i], pad[2 * i + 1]
        start = left if left > 0 else 0
        length = s[d] + min(left, 0) + min(right, 0)
        g = A.slice.Tensor(g, d, start, start + max(length, 0), 1)
    if tuple(g.shape) != tuple(s):
        out = _zeros(s, grad)
        # Negative padding cropped the input: gradient flows to the kept region only.
        region = out
        for i in range(len(pad) // 2):
            d = nd - 1 - i
            left, right = pad[2 * i], pad[2 * i + 1]
            region = A.slice.Tensor(region, d, max(-left, 0), s[d] - max(-right, 0), 1)
        A.copy_.default(region, g)
        g = out
    return (g,)


def _pad_index(size: int, left: int, right: int, mode: str) -> list[int]:
    idx = []
    for p in range(-left, size + right):
        if mode == "reflect":
            q = abs(p)
            q = 2 * (size - 1) - q if q > size - 1 else q
        else:
            q = min(max(p, 0), size - 1)
        idx.append(q)
    return idx


def _pad_backward(grad: Any, s: tuple[int, ...], padding: Sequence[int], mode: str) -> Any:
    g = grad
    nd = len(s)
    for i in range(len(padding) // 2):
        d = nd - 1 - i
        idx = _pad_index(s[d], padding[2 * i], padding[2 * i + 1], mode)
        shape = list(g.shape)
        shape[d] = s[d]
        target = A.zeros.default(shape, dtype=grad._dtype, device=grad.device)
        from .._creation import tensor as _tensor

        index = _tensor(idx)
        g = A.index_add.default(target, d, index, g)
    return g


for _dims in (1, 2, 3):
    derivative(
        f"reflection_pad{_dims}d",
        f"ReflectionPad{_dims}DBackward0",
        save=("padding",),
        computed={"s": _shape("self")},
    )(lambda grad, padding, s: (_pad_backward(grad, s, padding, "reflect"),))
    derivative(
        f"replication_pad{_dims}d",
        f"ReplicationPad{_dims}DBackward0",
        save=("padding",),
        computed={"s": _shape("self")},
    )(lambda grad, padding, s: (_pad_backward(grad, s, padding, "replicate"),))


# ----------------------------------------------------------------------------- nn


def _reduce_factor(reduction: int, n: int) -> float:
    return 1.0 / n if reduction == 1 and n else 1.0


@derivative("mse_loss", "MseLossBackward0", save=("self", "target", "reduction"))
def _mse(grad, self, target, reduction):
    n = self.numel() if reduction == 1 else 1
    scale = 2.0 / n if n else float("nan")  # mean of nothing: the gradient is empty anyway
    g = A.mul.Tensor(A.mul.Scalar(A.sub.Tensor(self, target), scale), grad)
    return g, A.neg.default(g)


@derivative(
    "binary_cross_entropy",
    "BinaryCrossEntropyBackward0",
    save=("self", "target", "weight", "reduction"),
    no_grad=("weight",),
)
def _bce(grad, self, target, weight, reduction):
    n = self.numel() if reduction == 1 else 1
    eps = 1e-12
    denom = A.clamp_min.default(A.mul.Tensor(self, A.rsub.Scalar(self, 1)), eps)
    g_self = A.div.Tensor(A.sub.Tensor(self, target), denom)
    g_target = A.sub.Tensor(A.log.default(A.rsub.Scalar(self, 1)), A.log.default(self))
    if weight is not None:
        g_self = A.mul.Tensor(g_self, weight)
        g_target = A.mul.Tensor(g_target, weight)
    g = A.div.Scalar(grad, n)
    return A.mul.Tensor(g_self, g), A.mul.Tensor(g_target, g), None


@derivative(
    "binary_cross_entropy_with_logits",
    "BinaryCrossEntropyWithLogitsBackward0",
    save=("self", "target", "weight", "pos_weight", "reduction"),
    no_grad=("weight", "pos_weight"),
)
def _bce_logits(grad, self, target, weight, pos_weight, reduction):
    n = self.numel() if reduction == 1 else 1
    sig = A.sigmoid.default(self)
    if pos_weight is None:
        g_self = A.sub.Tensor(sig, target)
        g_target = A.neg.default(self)
    else:
        pt = A.mul.Tensor(pos_weight, target)
        g_self = A.sub.Tensor(A.mul.Tensor(sig, A.add.Tensor(A.rsub.Scalar(target, 1), pt)), pt)
        log_sig = A.log.default(sig)
        log_1m = A.log.default(A.rsub.Scalar(sig, 1))
        g_target = A.sub.Tensor(log_1m, A.mul.Tensor(pos_weight, log_sig))
    if weight is not None:
        g_self = A.mul.Tensor(g_self, weight)
        g_target = A.mul.Tensor(g_target, weight)
    g = A.div.Scalar(grad, n)
    return A.mul.Tensor(g_self, g), A.mul.Tensor(g_target, g), None, None


def _nll_backward(
    grad: Any,
    self: Any,
    target: Any,
    weight: Any,
    reduction: int,
    ignore_index: int,
    total_weight: Any,
    class_dim: int,
) -> Any:
    from .._creation import tensor as _tensor

    valid = A.ne.Scalar(target, ignore_index)
    safe_target = A.where.self(valid, target, A.zeros_like.default(target))
    if weight is not None:
        w = A.index_select.default(weight, 0, A.reshape.default(safe_target, [-1]))
        w = A.reshape.default(w, list(target.shape))
    else:
        w = A.ones_like.default(target, dtype=self._dtype)
    w = A.mul.Tensor(w, valid)
    if reduction == 0:
        g = A.mul.Tensor(A.neg.default(grad), w)
    elif reduction == 1:
        g = A.mul.Tensor(A.neg.default(A.div.Tensor(grad, total_weight)), w)
    else:
        g = A.mul.Tensor(A.neg.default(grad), w)
    del _tensor
    out = A.zeros_like.default(self)
    if self.dim() == 1:
        return A.scatter.src(out, 0, A.reshape.default(safe_target, [1]), A.reshape.default(g, [1]))
    return A.scatter.src(
        out,
        class_dim,
        A.unsqueeze.default(safe_target, class_dim),
        A.unsqueeze.default(g, class_dim),
    )


@derivative(
    "nll_loss_forward",
    "NllLossBackward0",
    inputs=("self",),
    n_outputs=2,
    save=("self", "target", "weight", "reduction", "ignore_index", "result1"),
    no_grad=("weight",),
)
def _nll(grads, self, target, weight, reduction, ignore_index, result1):
    return (
        A.nll_loss_backward.default(
            grads[0], self, target, weight, reduction, ignore_index, result1
        ),
    )


@derivative(
    "nll_loss2d_forward",
    "NllLoss2DBackward0",
    inputs=("self",),
    n_outputs=2,
    save=("self", "target", "weight", "reduction", "ignore_index", "result1"),
    no_grad=("weight",),
)
def _nll2d(grads, self, target, weight, reduction, ignore_index, result1):
    return (_nll_backward(grads[0], self, target, weight, reduction, ignore_index, result1, 1),)


@derivative(
    "native_layer_norm",
    "NativeLayerNormBackward0",
    n_outputs=3,
    save=("input", "normalized_shape", "weight", "bias", "result1", "result2"),
)
def _layer_norm(grads, input, normalized_shape, weight, bias, result1, result2):  # noqa: A002
    grad = grads[0]
    if grad is None:
        return None, None, None
    nd = len(normalized_shape)
    axes = list(range(input.dim() - nd, input.dim()))
    batch_axes = list(range(input.dim() - nd))
    n = math.prod(normalized_shape) if nd else 1
    xhat = A.mul.Tensor(A.sub.Tensor(input, result1), result2)
    dy = A.mul.Tensor(grad, weight) if weight is not None else grad
    sum_dy = A.sum.dim_IntList(dy, axes, True)
    sum_dy_xhat = A.sum.dim_IntList(A.mul.Tensor(dy, xhat), axes, True)
    dx = A.mul.Tensor(
        A.mul.Scalar(result2, 1.0 / n),
        A.sub.Tensor(A.sub.Tensor(A.mul.Scalar(dy, n), sum_dy), A.mul.Tensor(xhat, sum_dy_xhat)),
    )
    dw = db = None
    if weight is not None:
        prod_ = A.mul.Tensor(grad, xhat)
        dw = A.sum.dim_IntList(prod_, batch_axes, False) if batch_axes else prod_
    if bias is not None:
        db = A.sum.dim_IntList(grad, batch_axes, False) if batch_axes else grad
    return dx, dw, db


@derivative(
    "embedding",
    "EmbeddingBackward0",
    inputs=("weight",),
    save=("indices", "padding_idx", "scale_grad_by_freq"),
    computed={"s": _shape("weight")},
)
def _embedding(grad, indices, padding_idx, scale_grad_by_freq, s):
    num, dim = s
    flat_idx = A.reshape.default(indices, [-1])
    flat_grad = A.reshape.default(grad, [-1, dim])
    if padding_idx is not None and padding_idx >= 0:
        keep = A.unsqueeze.default(A.ne.Scalar(flat_idx, padding_idx), 1)
        flat_grad = A.mul.Tensor(flat_grad, keep)
    if scale_grad_by_freq:
        counts = A.index_add.default(
            A.zeros.default([num], dtype=grad._dtype),
            0,
            flat_idx,
            A.ones_like.default(flat_idx, dtype=grad._dtype),
        )
        scale = A.index_select.default(counts, 0, flat_idx)
        flat_grad = A.div.Tensor(flat_grad, A.unsqueeze.default(scale, 1))
    out = A.zeros.default([num, dim], dtype=grad._dtype, device=grad.device)
    return (A.index_add.default(out, 0, flat_idx, flat_grad),)


@derivative(
    "native_dropout",
    "NativeDropoutBackward0",
    inputs=("input",),
    n_outputs=2,
    save=("p", "train", "result1"),
)
def _native_dropout(grads, p, train, result1):
    grad = grads[0]
    if train is False:
        return (grad,)
    scale = 0.0 if p >= 1 else 1.0 / (1.0 - p)
    return (A.mul.Scalar(A.mul.Tensor(grad, result1), scale),)


@derivative(
    "_scaled_dot_product_flash_attention_for_cpu",
    "ScaledDotProductFlashAttentionForCpuBackward0",
    inputs=("query", "key", "value"),
    n_outputs=2,
    no_grad=("attn_mask",),
    save=(
        "query", "key", "value", "dropout_p", "is_causal", "attn_mask", "scale", "result0",
        "result1",
    ),
)  # fmt: skip
def _sdpa_flash(grads, query, key, value, dropout_p, is_causal, attn_mask, scale, result0, result1):
    # PyTorch's formula: the fused CPU backward, one operator for the three gradients (it
    # recomputes the probabilities from the saved logsumexp).
    return A._scaled_dot_product_flash_attention_for_cpu_backward.default(
        grads[0], query, key, value, result0, result1, dropout_p, is_causal,
        attn_mask=attn_mask, scale=scale,
    )  # fmt: skip


@derivative(
    "max_pool2d_with_indices",
    "MaxPool2DWithIndicesBackward0",
    inputs=("self",),
    n_outputs=2,
    save=("result1",),
    computed={"s": _shape("self")},
)
def _max_pool2d(grads, result1, s):
    grad = grads[0]
    lead = list(s[:-2])
    hw = s[-2] * s[-1]
    out = A.zeros.default([*lead, hw], dtype=grad._dtype, device=grad.device)
    g = A.reshape.default(grad, [*lead, -1])
    idx = A.reshape.default(result1, [*lead, -1])
    out = A.scatter_add.default(out, len(lead), idx, g)
    return (A.reshape.default(out, list(s)),)


def _pool_geometry(size: int, k: int, stride: int, pad: int, ceil: bool) -> int:
    num = size + 2 * pad - k
    out = (-(-num // stride) if ceil else num // stride) + 1
    if ceil and (out - 1) * stride >= size + pad:
        out -= 1
    return out


@derivative(
    "avg_pool2d",
    "AvgPool2DBackward0",
    save=("kernel_size", "stride", "padding", "ceil_mode", "count_include_pad", "divisor_override"),
    computed={"s": _shape("self")},
)
def _avg_pool2d(
    grad, kernel_size, stride, padding, ceil_mode, count_include_pad, divisor_override, s
):
    kh, kw = (kernel_size, kernel_size) if isinstance(kernel_size, int) else tuple(kernel_size)
    if not stride:
        sh, sw = kh, kw
    else:
        sh, sw = (stride, stride) if isinstance(stride, int) else tuple(stride)
    ph, pw = (padding, padding) if isinstance(padding, int) else tuple(padding)
    h, w = s[-2], s[-1]
    oh, ow = grad.shape[-2], grad.shape[-1]
    import numpy as np

    # Divisor per output cell (PyTorch's avg_pool2d rules), as a NumPy constant.
    div = np.empty((oh, ow))
    for i in range(oh):
        hs, he = i * sh - ph, min(i * sh - ph + kh, h + ph)
        for j in range(ow):
            ws, we = j * sw - pw, min(j * sw - pw + kw, w + pw)
            if divisor_override:
                div[i, j] = divisor_override
            elif count_include_pad:
                div[i, j] = (he - hs) * (we - ws)
            else:
                div[i, j] = (min(he, h) - max(hs, 0)) * (min(we, w) - max(ws, 0))
    from .._creation import from_numpy

    g = A.div.Tensor(
        grad,
        from_numpy(div.astype(grad._dtype.np if grad._dtype.name != "bfloat16" else np.float32)),
    )
    padded = A.zeros.default(
        [*s[:-2], h + 2 * ph + kh, w + 2 * pw + kw], dtype=grad._dtype, device=grad.device
    )
    for a in range(kh):
        for b in range(kw):
            region = A.slice.Tensor(
                A.slice.Tensor(padded, -2, a, a + sh * (oh - 1) + 1, sh),
                -1,
                b,
                b + sw * (ow - 1) + 1,
                sw,
            )
            A.add_.Tensor(region, g)
    out = A.slice.Tensor(A.slice.Tensor(padded, -2, ph, ph + h, 1), -1, pw, pw + w, 1)
    return (A.clone.default(out, memory_format=0),)


@derivative("_adaptive_avg_pool2d", "AdaptiveAvgPool2DBackward0", computed={"s": _shape("self")})
def _adaptive_avg_pool2d(grad, s):
    for d in range(1 if grad.dim() == 4 else 0, grad.dim()):
        if grad.shape[d] == 0:
            raise RuntimeError(
                f"adaptive_avg_pool2d_backward(): Expected grad_output to have non-zero size "
                f"for non-batch dimensions, but grad_output has sizes {list(grad.shape)} with "
                f"dimension {d} being empty"
            )
    h, w = s[-2], s[-1]
    oh, ow = grad.shape[-2], grad.shape[-1]
    out = _zeros(s, grad)
    for i in range(oh):
        hs, he = (i * h) // oh, -(-((i + 1) * h) // oh)
        for j in range(ow):
            ws, we = (j * w) // ow, -(-((j + 1) * w) // ow)
            cell = A.div.Scalar(
                A.slice.Tensor(A.slice.Tensor(grad, -2, i, i + 1, 1), -1, j, j + 1, 1),
                (he - hs) * (we - ws),
            )
            region = A.slice.Tensor(A.slice.Tensor(out, -2, hs, he, 1), -1, ws, we, 1)
            A.add_.Tensor(region, cell)
    return (out,)


@derivative(
    "convolution",
    "ConvolutionBackward0",
    save=(
        "input",
        "weight",
        "bias",
        "stride",
        "padding",
        "dilation",
        "transposed",
        "output_padding",
        "groups",
    ),
)
def _convolution(
    grad,
    input,
    weight,
    bias,
    stride,
    padding,
    dilation,
    transposed,  # noqa: A002
    output_padding,
    groups,
):
    bias_sizes = None if bias is None else list(bias.shape)
    mask = [input.requires_grad, weight.requires_grad, bias is not None and bias.requires_grad]
    g_in, g_w, g_b = A.convolution_backward.default(
        grad,
        input,
        weight,
        bias_sizes,
        list(stride),
        list(padding),
        list(dilation),
        transposed,
        list(output_padding),
        groups,
        mask,
    )
    return g_in, g_w, g_b


# ----------------------------------------------------------------------------- backward ops
# Derivatives of the backward operators themselves (double backward), as PyTorch's.


@derivative("select_backward", "SelectBackwardBackward0", save=("dim", "index"))
def _select_backward(grad, dim, index):
    return (A.select.int(grad, dim, index),)


@derivative("slice_backward", "SliceBackwardBackward0", save=("dim", "start", "end", "step"))
def _slice_backward(grad, dim, start, end, step):
    return (A.slice.Tensor(grad, dim, start, end, step),)


@derivative("diagonal_backward", "DiagonalBackwardBackward0", save=("offset", "dim1", "dim2"))
def _diagonal_backward(grad, offset, dim1, dim2):
    return (A.diagonal.default(grad, offset, dim1, dim2),)


@derivative("threshold_backward", "ThresholdBackwardBackward0", save=("self", "threshold"))
def _threshold_backward(grad, self, threshold):
    return A.threshold_backward.default(grad, self, threshold), A.zeros_like.default(grad)


@derivative("sigmoid_backward", "SigmoidBackwardBackward0", save=("grad_output", "output"))
def _sigmoid_backward(grad, grad_output, output, needs):
    # As PyTorch's SigmoidBackwardBackward0: grad_output's gradient first, each only when
    # needed; output: grad * grad_output * (-2 * output + 1), the right factor computed first.
    g_go = A.sigmoid_backward.default(grad, output) if needs[0] else None
    g_out = None
    if needs[1]:
        factor = A.add.Scalar(A.mul.Scalar(output, -2), 1)
        g_out = A.mul.Tensor(A.mul.Tensor(grad, grad_output), factor)
    return g_go, g_out


@derivative("tanh_backward", "TanhBackwardBackward0", save=("grad_output", "output"))
def _tanh_backward(grad, grad_output, output, needs):
    # As PyTorch's TanhBackwardBackward0: grad_output's gradient first, each only when needed;
    # output: grad * (-2 * output * grad_output).
    g_go = A.tanh_backward.default(grad, output) if needs[0] else None
    g_out = None
    if needs[1]:
        g_out = A.mul.Tensor(grad, A.mul.Tensor(A.mul.Scalar(output, -2), grad_output))
    return g_go, g_out


@derivative(
    "_log_softmax_backward_data",
    "LogSoftmaxBackwardDataBackward0",
    inputs=("grad_output", "output"),
    save=("grad_output", "output", "dim"),
)
def _log_softmax_backward_data(grad, grad_output, output, dim):
    # r = go - exp(out) * sum(go): linear in go; out enters through exp(out)
    e = A.exp.default(output)
    g_go = A.sub.Tensor(grad, A.sum.dim_IntList(A.mul.Tensor(grad, e), [dim], True))
    g_out = A.neg.default(
        A.mul.Tensor(A.mul.Tensor(grad, e), A.sum.dim_IntList(grad_output, [dim], True))
    )
    return g_go, g_out


@derivative(
    "_softmax_backward_data",
    "SoftmaxBackwardDataBackward0",
    inputs=("grad_output", "output"),
    save=("grad_output", "output", "dim"),
)
def _softmax_backward_data(grad, grad_output, output, dim):
    # r = out * (go - sum(go * out))
    g_go = A._softmax_backward_data.default(grad, output, dim, output.dtype)
    t = A.sum.dim_IntList(A.mul.Tensor(grad_output, output), [dim], True)
    s = A.sum.dim_IntList(A.mul.Tensor(grad, output), [dim], True)
    g_out = A.sub.Tensor(
        A.mul.Tensor(grad, A.sub.Tensor(grad_output, t)), A.mul.Tensor(grad_output, s)
    )
    return g_go, g_out


@derivative(
    "nll_loss_backward",
    "NllLossBackwardBackward0",
    inputs=("grad_output", "self"),
    save=("target", "weight", "reduction", "ignore_index"),
    computed={"s": _shape("self")},
    no_grad=("weight", "total_weight"),
)
def _nll_loss_backward(grad, target, weight, reduction, ignore_index, s):
    # linear in grad_output: its gradient is the loss itself applied to grad
    g_go = A.nll_loss_forward.default(grad, target, weight, reduction, ignore_index)[0]
    return g_go, _zeros(s, grad)


@derivative("convolution_backward", "ConvolutionBackwardBackward0", n_outputs=3, outputs=(0, 1, 2),
            inputs=("grad_output", "input", "weight"),
            save=("grad_output", "input", "weight", "stride", "padding", "dilation", "transposed",
                  "output_padding", "groups"))  # fmt: skip
def _convolution_backward(
    grads,
    grad_output,
    input,  # noqa: A002
    weight,
    stride,
    padding,
    dilation,
    transposed,
    output_padding,
    groups,
    needs,
):
    # convolution_backward is bilinear: (gI, gW) pair grad_output with weight and input, and gb
    # sums grad_output. So d<ggI, gI>/dgO = conv(ggI, W), d<ggW, gW>/dgO = conv(x, ggW),
    # d<ggb, gb>/dgO = ggb broadcast; d/dW = conv_backward(gO, ggI, W)'s weight gradient and
    # d/dx = conv_backward(gO, x, ggW)'s input gradient (PyTorch's
    # _convolution_double_backward, written with convolution and convolution_backward calls).
    gg_in, gg_w, gg_b = (list(grads) + [None, None, None])[:3]
    geometry = (list(stride), list(padding), list(dilation), transposed, list(output_padding))

    def conv(x: Any, w: Any, b: Any) -> Any:
        return A.convolution.default(x, w, b, *geometry, groups)

    g_go = None
    if needs[0]:
        if gg_in is not None:
            g_go = conv(gg_in, weight, gg_b)
            gg_b = None
        if gg_w is not None:
            term = conv(input, gg_w, gg_b)
            g_go = term if g_go is None else A.add.Tensor(g_go, term)
            gg_b = None
        if gg_b is not None:
            shape = [1] * grad_output.dim()
            shape[1] = -1
            g_go = A.expand.default(A.reshape.default(gg_b, shape), list(grad_output.shape))
    g_in = None
    if needs[1] and gg_w is not None:
        g_in = A.convolution_backward.default(
            grad_output, input, gg_w, None, *geometry, groups, [True, False, False]
        )[0]
    g_w = None
    if needs[2] and gg_in is not None:
        g_w = A.convolution_backward.default(
            grad_output, gg_in, weight, None, *geometry, groups, [False, True, False]
        )[1]
    return g_go, g_in, g_w


# ----------------------------------------------------------------------------- in-place forms
# In-place operators with their own derivatives.yaml entry (and so their own node name). The
# kernel saves self before the op writes it, so the functional operator's formula applies.


def _inplace_entry(name: str, node_name: str, functional: str) -> None:
    DERIVATIVES[name] = dataclasses.replace(DERIVATIVES[functional], name=name, node_name=node_name)


for _name, _node, _functional in (
    ("celu_", "CeluBackward1", "celu"),
    ("elu_", "EluBackward1", "elu"),
    ("leaky_relu_", "LeakyReluBackward1", "leaky_relu"),
    ("threshold_", "ThresholdBackward1", "threshold"),
    ("t_", "TBackward1", "t"),
    ("transpose_", "TransposeBackward1", "transpose.int"),
    ("squeeze_", "SqueezeBackward3", "squeeze"),
    ("squeeze_.dim", "SqueezeBackward4", "squeeze.dim"),
    ("squeeze_.dims", "SqueezeBackward5", "squeeze.dims"),
    ("unsqueeze_", "UnsqueezeBackward1", "unsqueeze"),
):
    _inplace_entry(_name, _node, _functional)


@derivative("_index_put_impl_", "IndexPutImplBackward0", inputs=("self", "values"),
            save=("indices", "accumulate"), no_grad=("indices",))  # fmt: skip
def _index_put_impl(grad, indices, accumulate):
    return _index_put(grad, indices, accumulate, None)


def _zero_self(grad: Any) -> tuple[Any, ...]:
    return (A.zeros_like.default(grad),)


# Comparisons written in place into self (the functional comparisons are not differentiable).
for _op, _node in (("eq", "Eq"), ("ne", "Ne"), ("lt", "Lt"), ("le", "Le"), ("gt", "Gt"),
                   ("ge", "Ge")):  # fmt: skip
    derivative(f"{_op}_.Scalar", f"{_node}Backward0", inputs=("self",))(_zero_self)
    derivative(f"{_op}_.Tensor", f"{_node}Backward1", computed={"o": _shape("other")})(
        lambda grad, o: (A.zeros_like.default(grad), _zeros(o, grad))
    )

# Random fills: the result does not depend on self's values.
for _name, _node in (
    ("uniform_", "UniformBackward0"),
    ("normal_", "NormalBackward0"),
    ("random_.from", "RandomBackward0"),
    ("random_.to", "RandomBackward1"),
    ("bernoulli_.float", "BernoulliBackward2"),
):
    derivative(_name, _node, inputs=("self",))(_zero_self)

derivative("lift_fresh", "LiftFreshBackward0")(lambda grad: (grad,))


# ----------------------------------------------------------------------------- not implemented
# derivatives.yaml's not_implemented("<what>") formulas: the outputs require grad and a backward
# through the node raises NotImplementedError. Kept apart from DERIVATIVES, whose entries each
# have a gradient case (tests/autograd/grad_cases.py): these have no gradient to check.

NOT_IMPLEMENTED: dict[str, Derivative] = {}


def _not_implemented(
    name: str, node_name: str, what: str, inputs: Sequence[str] = ("self",), n_outputs: int = 1
) -> None:
    def formula(grad: Any) -> Any:
        raise NotImplementedError(f"the derivative for '{what}' is not implemented.")

    NOT_IMPLEMENTED[name] = Derivative(name, node_name, formula, (), tuple(inputs), n_outputs)


for _name, _node, _n in (
    ("_unique", "UniqueBackward0", 2),
    ("_unique2", "Unique2Backward0", 3),
    ("unique_dim", "UniqueDimBackward0", 3),
    ("unique_consecutive", "UniqueConsecutiveBackward0", 3),
    ("unique_dim_consecutive", "UniqueDimConsecutiveBackward0", 3),
):
    _not_implemented(_name, _node, _name, n_outputs=_n)
for _name in ("acosh", "asinh", "atanh"):
    _not_implemented(f"{_name}_", f"{_name.capitalize()}Backward1", f"inplace version of {_name}")
_not_implemented("embedding_renorm_", "EmbeddingRenormBackward0", "embedding_renorm")
