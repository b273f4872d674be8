"""Operators without a formula: derivatives.yaml's not_implemented() entries, the
non-differentiable operators, and the generated out= forms."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from ..._ops import ops
from ._registry import Derivative, derivative

aten = ops.aten


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

    derivative(name, node_name, inputs=inputs, n_outputs=n_outputs, table=NOT_IMPLEMENTED)(formula)


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
_not_implemented(
    "_embedding_bag_backward",
    "EmbeddingBagBackwardBackward0",
    "_embedding_bag_backward",
    ("grad", "per_sample_weights"),
)
_not_implemented(
    "_embedding_bag_dense_backward",
    "EmbeddingBagDenseBackwardBackward0",
    "_embedding_bag_dense_backward",
    ("grad", "per_sample_weights"),
)
_not_implemented("special_zeta.other_scalar", "SpecialZetaBackward2", "zeta")
_not_implemented(
    "_cdist_backward", "CdistBackwardBackward0", "_cdist_backward", ("grad", "x1", "x2", "cdist")
)


#: Operators whose outputs never require grad: PyTorch's DONT_REQUIRE_DERIVATIVE list (by base
#: name, so every overload and in-place form without an entry of its own) and the
#: derivatives.yaml entries whose outputs are all `output_differentiability: [False]` (base
#: name, or "name.overload" where only that overload is). Their autograd kernel only
#: redispatches. (Operators PyTorch has neither a formula nor such a mark for get the
#: NotImplemented kernel, even those whose outputs are never floating point.)
NON_DIFFERENTIABLE = {
    "detach",
    "_embedding_bag_forward_only",
    "_amp_foreach_non_finite_check_and_unscale",
    "_local_scalar_dense",
    "empty_like",
    "zeros_like",
    "ones_like",
    "full_like",
    "rand_like",
    "randn_like",
    "new_empty",
    "new_empty_strided",
    "new_zeros",
    "new_ones",
    "new_full",
    "nonzero",
    "argmax",
    "argmin",
    "multinomial",
    "argsort",
    "isnan",
    "isinf",
    "isfinite",
    "isposinf",
    "isneginf",
    "signbit",
    "isin",
    "eq",
    "ne",
    "lt",
    "le",
    "gt",
    "ge",
    "logical_and",
    "logical_or",
    "logical_xor",
    "logical_not",
    "count_nonzero",
    "all",
    "any",
    "resize_",
    "bucketize",
    "searchsorted",
    "histc",
    "one_hot",
    "equal",
    "view.dtype",
    "_efficientzerotensor",
    "_linalg_check_errors",
}


#: Out= operators PyTorch's codegen generates from the functional one (native_functions.yaml
#: `autogen:`, tag `generated`): derivatives.yaml never applies to them, so they get the
#: NotImplemented kernel even when the functional operator has a formula or is not
#: differentiable (isinf.out and isnan.out, generated too, are DONT_REQUIRE_DERIVATIVE).
GENERATED_OUT = {
    "pixel_shuffle.out",
    "pixel_unshuffle.out",
    "select_backward.out",
    "slice_backward.out",
    "diagonal_backward.out",
    "unfold_backward.out",
    "_ctc_loss.out",
    "_ctc_loss.Tensor_out",
    "__lshift__.Scalar_out",
    "__lshift__.Tensor_out",
    "__rshift__.Scalar_out",
    "__rshift__.Tensor_out",
    "_to_copy.out",
    "_unique.out",
    "_unique2.out",
    "add.Scalar_out",
    "bincount.out",
    "bitwise_and.Scalar_Tensor_out",
    "bitwise_left_shift.Scalar_Tensor_out",
    "bitwise_or.Scalar_Tensor_out",
    "bitwise_right_shift.Scalar_Tensor_out",
    "bitwise_xor.Scalar_Tensor_out",
    "celu.out",
    "clone.out",
    "constant_pad_nd.out",
    "convolution.out",
    "trace.out",
    "count_nonzero.dim_IntList_out",
    "count_nonzero.out",
    "div.Scalar_mode_out",
    "div.Scalar_out",
    "embedding.out",
    "flip.out",
    "floor_divide.Scalar_out",
    "index_fill.int_Scalar_out",
    "index_fill.int_Tensor_out",
    "index_put.out",
    "masked_fill.Scalar_out",
    "masked_fill.Tensor_out",
    "median.out",
    "mul.Scalar_out",
    "nanmedian.out",
    "native_dropout.out",
    "native_layer_norm.out",
    "norm.ScalarOpt_dtype_out",
    "norm.Scalar_out",
    "prod.out",
    "put.out",
    "relu.out",
    "remainder.Scalar_Tensor_out",
    "repeat.out",
    "repeat_interleave.Tensor_out",
    "roll.out",
    "rot90.out",
    "rsub.Scalar_out",
    "rsub.Tensor_out",
    "std_mean.correction_out",
    "sub.Scalar_out",
    "sum.out",
    "unique_consecutive.out",
    "unique_dim.out",
    "unique_dim_consecutive.out",
    "var_mean.correction_out",
}


#: CompositeImplicitAutograd operators that PyTorch's derivatives.yaml lists anyway.
COMPOSITE_WITH_FORMULA = frozenset({"chunk", "linear", "matmul", "max_pool2d", "one_hot"})
