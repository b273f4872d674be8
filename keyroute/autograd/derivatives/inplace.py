"""Derivative formulas of in-place operators with an entry of their own."""

from __future__ import annotations

from typing import Any

from ..._ops import ops
from ._registry import _shape, _zeros, derivative, same_formula
from .indexing import _index_put

aten = ops.aten


# ----------------------------------------------------------------------------- in-place forms
# In-place operators with their own derivatives.yaml entry (and so their own node name). The
# kernel saves self before the op writes it, so the functional operator's formula applies.


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
    ("as_strided_", "AsStridedBackward1", "as_strided"),
):
    same_formula(_name, _node, _functional)


@derivative("_index_put_impl_", "IndexPutImplBackward0", inputs=("self", "values"),
            save=("indices", "accumulate"), no_grad=("indices",))  # fmt: skip
def _index_put_impl(grad, indices, accumulate):
    return _index_put(grad, indices, accumulate, None)


def _zero_self(grad: Any) -> tuple[Any, ...]:
    return (aten.zeros_like.default(grad),)


# Comparisons written in place into self (the functional comparisons are not differentiable).
for _op, _node in (("eq", "Eq"), ("ne", "Ne"), ("lt", "Lt"), ("le", "Le"), ("gt", "Gt"),
                   ("ge", "Ge")):  # fmt: skip
    derivative(f"{_op}_.Scalar", f"{_node}Backward0", inputs=("self",))(_zero_self)
    derivative(f"{_op}_.Tensor", f"{_node}Backward1", computed={"o": _shape("other")})(
        lambda grad, o: (aten.zeros_like.default(grad), _zeros(o, grad))
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
