"""Elementwise operators: schemas and meta functions (functional, in-place and out= forms).

Each family is one table row: the schema of the functional form, and its dtype rule
  "same"   output dtype = promoted input dtype (abs, neg, add, mul, maximum, ...)
  "float"  integers and bool compute in the default float dtype (exp, sin, div, ...)
  "bool"   output is bool (comparisons, isnan, logical ops)
The in-place (`name_`) and out= (`name.out`) forms are derived (see _variants.py).
"""

from __future__ import annotations

from typing import Any

from ..tensor._tensor import Tensor
from ..tensor.dtype import bool_, get_default_dtype
from ._define import aten_lib, composite, defop, meta, register_meta
from ._meta_util import check, elementwise, shape_of
from ._promotion import result_type
from ._variants import inplace_variant, out_variant

__all__ = ["UNARY", "BINARY"]


def _float_dtype(dt: Any) -> Any:
    return dt if dt.category >= 2 else get_default_dtype()


def _rule_meta(rule: str, *tensor_args: Any) -> Tensor:
    dt = result_type(*tensor_args)
    if rule == "float":
        dt = _float_dtype(dt)
    elif rule == "bool":
        dt = bool_
    return elementwise(*tensor_args, dt=dt)


def _family(
    functional: str,
    params: str,
    rule: str,
    tensor_params: int,
    inplace: bool = True,
    out: bool = True,
    out_name: str | None = None,
) -> None:
    """Define `name.overload(params) -> Tensor` with its meta rule, and its `_`/out= forms."""
    name, _, overload = functional.partition(".")
    qual = f"{name}.{overload}" if overload else name
    op = defop(f"{qual}({params}) -> Tensor")

    def meta_fn(*args: Any, **kwargs: Any) -> Tensor:
        return _rule_meta(rule, *args[:tensor_params])

    meta_fn.__name__ = qual
    register_meta(op, meta_fn)
    # In-place/out forms: `Tensor(a!) self` replaces `Tensor self`; out= adds a kw-only out.
    if inplace:
        ip = params.replace("Tensor self", "Tensor(a!) self", 1)
        inplace_variant(f"{name}_{'.' + overload if overload else ''}({ip}) -> Tensor(a!)", op)
    if out:
        if out_name is None:
            out_name = f"{overload}_out" if overload else "out"
        sep = ", " if "*" in params else ", *, "
        out_variant(f"{name}.{out_name}({params}{sep}Tensor(a!) out) -> Tensor(a!)", op)


# -- unary: name -> rule
UNARY = {
    "abs": "same", "neg": "same", "sign": "same", "floor": "same", "ceil": "same",
    "round": "same", "trunc": "same", "frac": "same", "relu": "same", "sgn": "same",
    "bitwise_not": "same", "square": "same",
    "exp": "float", "exp2": "float", "expm1": "float", "log": "float", "log1p": "float",
    "log2": "float", "log10": "float", "sqrt": "float", "rsqrt": "float", "reciprocal": "float",
    "sin": "float", "cos": "float", "tan": "float", "tanh": "float", "sigmoid": "float",
    "erf": "float", "erfc": "float", "asin": "float", "acos": "float", "atan": "float",
    "sinh": "float", "cosh": "float", "asinh": "float", "acosh": "float", "atanh": "float",
    "silu": "float", "mish": "float", "hardsigmoid": "float", "hardswish": "float",
    "logical_not": "bool", "isnan": "bool", "isinf": "bool", "isfinite": "bool",
    "signbit": "bool", "isposinf": "bool", "isneginf": "bool",
}  # fmt: skip
_NO_INPLACE = {"isnan", "isinf", "isfinite", "signbit", "isposinf", "isneginf", "square"}
_NO_OUT = {"isfinite", "relu", "square"}
_COMPOSITE_UNARY = {"isfinite", "square", "sgn"}

for _name, _rule in UNARY.items():
    if _name in _COMPOSITE_UNARY:
        continue
    _family(_name, "Tensor self", _rule, 1, _name not in _NO_INPLACE, _name not in _NO_OUT)


@composite("isfinite(Tensor self) -> Tensor")
def isfinite(self):
    from .._ops import ops

    if self._dtype.category <= 1:
        return ops.aten.ones_like.default(self, dtype=bool_)
    return ops.aten.abs.default(self).ne(float("inf")).logical_and(self.eq(self))


@composite("square(Tensor self) -> Tensor")
def square(self):
    from .._ops import ops

    return ops.aten.pow.Tensor_Scalar(self, 2)


@composite("sgn(Tensor self) -> Tensor")
def sgn(self):
    from .._ops import ops

    return ops.aten.sign.default(self)


# -- unary with parameters
_family("gelu", 'Tensor self, *, str approximate="none"', "float", 1)
_family("leaky_relu", "Tensor self, Scalar negative_slope=0.01", "same", 1)
_family("hardtanh", "Tensor self, Scalar min_val=-1, Scalar max_val=1", "same", 1)
_family("softplus", "Tensor self, Scalar beta=1, Scalar threshold=20", "float", 1, inplace=False)
_family("elu", "Tensor self, Scalar alpha=1, Scalar scale=1, Scalar input_scale=1", "float", 1)
_family("celu", "Tensor self, Scalar alpha=1.0", "float", 1, out=False)
_family("round.decimals", "Tensor self, *, int decimals", "same", 1)
_family(
    "nan_to_num", "Tensor self, float? nan=None, float? posinf=None, float? neginf=None", "same", 1
)
_family("logit", "Tensor self, float? eps=None", "float", 1)
_family("clamp", "Tensor self, Scalar? min=None, Scalar? max=None", "same", 1)
_family("clamp.Tensor", "Tensor self, Tensor? min=None, Tensor? max=None", "same", 3)
_family("clamp_min", "Tensor self, Scalar min", "same", 1)
_family("clamp_min.Tensor", "Tensor self, Tensor min", "same", 2)
_family("clamp_max", "Tensor self, Scalar max", "same", 1)
_family("clamp_max.Tensor", "Tensor self, Tensor max", "same", 2)
_family("threshold", "Tensor self, Scalar threshold, Scalar value", "same", 1)


# -- binary
BINARY = {
    # name: (rule, has Scalar overload, alpha)
    "add": ("same", True, True), "sub": ("same", True, True), "mul": ("same", True, False),
    "div": ("float", True, False), "remainder": ("same", True, False),
    "fmod": ("same", True, False), "eq": ("bool", True, False), "ne": ("bool", True, False),
    "lt": ("bool", True, False), "le": ("bool", True, False), "gt": ("bool", True, False),
    "ge": ("bool", True, False), "bitwise_and": ("same", True, False),
    "bitwise_or": ("same", True, False), "bitwise_xor": ("same", True, False),
    "bitwise_left_shift": ("same", True, False), "bitwise_right_shift": ("same", True, False),
}  # fmt: skip

for _name, (_rule, _scalar, _alpha) in BINARY.items():
    _a = ", *, Scalar alpha=1" if _alpha else ""
    _family(f"{_name}.Tensor", f"Tensor self, Tensor other{_a}", _rule, 2,
            out_name="out" if _name in ("add", "sub", "mul", "div") else "Tensor_out")  # fmt: skip
    if _scalar:
        _sa = ", Scalar alpha=1" if _alpha else ""
        _family(f"{_name}.Scalar", f"Tensor self, Scalar other{_sa}", _rule, 2)

_family("div.Tensor_mode", "Tensor self, Tensor other, *, str? rounding_mode", "same", 2,
        out_name="out_mode")  # fmt: skip
_family("div.Scalar_mode", "Tensor self, Scalar other, *, str? rounding_mode", "same", 2,
        out_name="Scalar_mode_out")  # fmt: skip
_family("rsub.Tensor", "Tensor self, Tensor other, *, Scalar alpha=1", "same", 2, inplace=False,
        out_name="Tensor_out")  # fmt: skip
_family("rsub.Scalar", "Tensor self, Scalar other, Scalar alpha=1", "same", 2, inplace=False)
_family("pow.Tensor_Tensor", "Tensor self, Tensor exponent", "same", 2, inplace=False)
_family("pow.Tensor_Scalar", "Tensor self, Scalar exponent", "same", 2, inplace=False)
inplace_variant("pow_.Scalar(Tensor(a!) self, Scalar exponent) -> Tensor(a!)", "pow.Tensor_Scalar")
inplace_variant("pow_.Tensor(Tensor(a!) self, Tensor exponent) -> Tensor(a!)", "pow.Tensor_Tensor")
_family("atan2", "Tensor self, Tensor other", "float", 2)
_family("maximum", "Tensor self, Tensor other", "same", 2, inplace=False)
_family("minimum", "Tensor self, Tensor other", "same", 2, inplace=False)
_family("fmax", "Tensor self, Tensor other", "same", 2, inplace=False)
_family("fmin", "Tensor self, Tensor other", "same", 2, inplace=False)
_family("logical_and", "Tensor self, Tensor other", "bool", 2)
_family("logical_or", "Tensor self, Tensor other", "bool", 2)
_family("logical_xor", "Tensor self, Tensor other", "bool", 2)
_family("hypot", "Tensor self, Tensor other", "float", 2)
_family("xlogy.Tensor", "Tensor self, Tensor other", "float", 2, out_name="OutTensor")
_family("copysign.Tensor", "Tensor self, Tensor other", "float", 2, out_name="out")
_family("lerp.Scalar", "Tensor self, Tensor end, Scalar weight", "same", 2, out_name="Scalar_out")
_family("lerp.Tensor", "Tensor self, Tensor end, Tensor weight", "same", 3, out_name="Tensor_out")
_family("addcmul", "Tensor self, Tensor tensor1, Tensor tensor2, *, Scalar value=1", "same", 3)
_family("addcdiv", "Tensor self, Tensor tensor1, Tensor tensor2, *, Scalar value=1", "same", 3)


@meta("pow.Scalar(Scalar self, Tensor exponent) -> Tensor")
def pow_Scalar(self, exponent):
    return elementwise(self, exponent, dt=result_type(self, exponent))


out_variant("pow.Scalar_out(Scalar self, Tensor exponent, *, Tensor(a!) out) -> Tensor(a!)",
            "pow.Scalar")  # fmt: skip


@meta("where.self(Tensor condition, Tensor self, Tensor other) -> Tensor")
def where_self(condition, self, other):
    check(
        condition._dtype is bool_,
        f"where expected condition to be a boolean tensor, but got a tensor with dtype "
        f"{condition._dtype._short}",
    )
    return elementwise(condition, self, other, dt=result_type(self, other))


out_variant(
    "where.self_out(Tensor condition, Tensor self, Tensor other, *, Tensor(a!) out) -> Tensor(a!)",
    "where.self",
)


def _where_scalar(condition, self, other):
    from .._ops import ops

    dt = result_type(self, other)
    t_self = (
        self
        if isinstance(self, Tensor)
        else ops.aten.scalar_tensor.default(self, dtype=dt, device=condition.device)
    )
    t_other = (
        other
        if isinstance(other, Tensor)
        else ops.aten.scalar_tensor.default(other, dtype=dt, device=condition.device)
    )
    return ops.aten.where.self(condition, t_self, t_other)


for _ov, _sig in (
    ("ScalarOther", "Tensor condition, Tensor self, Scalar other"),
    ("ScalarSelf", "Tensor condition, Scalar self, Tensor other"),
    ("Scalar", "Tensor condition, Scalar self, Scalar other"),
):
    aten_lib.impl(
        defop(f"where.{_ov}({_sig}) -> Tensor"), _where_scalar, "CompositeImplicitAutograd"
    )


@meta("masked_fill.Scalar(Tensor self, Tensor mask, Scalar value) -> Tensor")
def masked_fill_Scalar(self, mask, value):
    check(
        mask._dtype is bool_,
        f"masked_fill_ only supports boolean masks, but got mask with dtype {mask._dtype._short}",
    )
    out = elementwise(self, mask, dt=self._dtype)
    return out


@meta("masked_fill.Tensor(Tensor self, Tensor mask, Tensor value) -> Tensor")
def masked_fill_Tensor(self, mask, value):
    check(
        len(shape_of(value)) == 0,
        f"masked_fill_ only supports a 0-dimensional value tensor, but got tensor with "
        f"{len(shape_of(value))} dimension(s).",
    )
    return masked_fill_Scalar(self, mask, 0)


inplace_variant(
    "masked_fill_.Scalar(Tensor(a!) self, Tensor mask, Scalar value) -> Tensor(a!)",
    "masked_fill.Scalar",
)
inplace_variant(
    "masked_fill_.Tensor(Tensor(a!) self, Tensor mask, Tensor value) -> Tensor(a!)",
    "masked_fill.Tensor",
)
