"""Elementwise operators: schemas, meta functions, checks and decompositions.

Every operator has its functional form here with a meta function that validates the input the
way PyTorch's CPU kernel does (dtype support, broadcasting) and describes the output (dtype by
PyTorch's promotion, TensorIterator strides). The in-place (`name_`) and out= forms are defined
from the functional one with PyTorch's checks for each kind of kernel (see `family.py`).
The CPU kernels (kernels/cpu/elementwise.py) reuse the checks (`check_*`) on their slow paths,
so meta tensors and CPU tensors fail with the same words.

Composite (CompositeImplicitAutograd) operators decompose into the aten calls PyTorch's do:
aliases (`absolute` -> `abs`), `square` -> `pow.Tensor_Scalar`, `isfinite`, `float_power`,
`where` with Python scalars (`scalar_tensor` + `where.self`), `__and__` -> `bitwise_and`, ...

The package, in definition order: `checks.py` (error words, support table, checks, result
layout), `family.py` (the functional/in-place/out= builder), `unary.py`, `binary.py`,
`ternary.py` (lerp, addcmul/addcdiv, where, masked_fill) and `composites.py`. The names below
are re-exported because the CPU kernels and the API read them as `aten.elementwise.<name>`.
"""

# ruff: noqa: F401  (the imports below are the re-exports)
from __future__ import annotations

# The families define their operators in this order (isort would sort it).
# isort: off
from . import checks, family, unary, binary, ternary, composites

# isort: on
from .binary import (
    BINARY_RULE,
    _check_scalar_kind,
    binary_dtype,
    binary_result,
    div_mode_dtype,
    pow_dtype,
)
from .checks import (
    SCALAR_NAME,
    SUPPORT,
    _check_cast,
    check_alpha,
    check_inplace_shape,
    check_sub,
    check_support,
    checked_scalar,
    float_result,
    like_strides,
    not_implemented,
    shape_str,
)
from .ternary import addc_dtype, check_where_condition, lerp_check, masked_fill_check
from .unary import (
    UNARY_FLOAT,
    UNARY_SAME,
    check_activation,
    check_round_decimals,
    check_unary_same,
    clamp_dtype,
)

__all__ = [
    "UNARY_FLOAT",
    "UNARY_SAME",
    "SCALAR_NAME",
    "not_implemented",
    "check_support",
    "check_alpha",
    "check_sub",
    "check_inplace_shape",
    "float_result",
    "checked_scalar",
    "shape_str",
]
