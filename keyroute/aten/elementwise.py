"""Elementwise operators: schemas, meta functions, checks and decompositions.

Every operator has its functional form here with a meta function that validates the input the
way PyTorch's CPU kernel does (dtype support, broadcasting) and describes the output (dtype by
PyTorch's promotion, TensorIterator strides). The in-place (`name_`) and out= forms are defined
from the functional one with PyTorch's checks for each kind of kernel (see `_inplace`, `_out`).
The CPU kernels (kernels/cpu/elementwise.py) reuse the checks (`check_*`) on their slow paths,
so meta tensors and CPU tensors fail with the same words.

Composite (CompositeImplicitAutograd) operators decompose into the aten calls PyTorch's do:
aliases (`absolute` -> `abs`), `square` -> `pow.Tensor_Scalar`, `isfinite`, `float_power`,
`where` with Python scalars (`scalar_tensor` + `where.self`), `__and__` -> `bitwise_and`, ...
"""

from __future__ import annotations

import math
from collections.abc import Callable
from typing import Any

from ..tensor._tensor import Tensor
from ..tensor.dtype import (
    bfloat16,
    bool_,
    can_cast,
    complex64,
    complex128,
    dtype,
    float16,
    float32,
    float64,
    get_default_dtype,
    int8,
    int16,
    int32,
    int64,
    uint8,
)
from . import _shape
from ._define import aten, aten_lib, composite, defop, register_meta
from ._meta_util import new_meta, shape_of
from ._promotion import result_type
from ._scalars import check_python_int
from ._shape import broadcast_shapes

__all__ = [
    "UNARY_FLOAT",
    "UNARY_SAME",
    "CPP_NAME",
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

# ----------------------------------------------------------------------------- error words

#: C++ type names, as PyTorch's TypeMeta prints them ("Expected out tensor to have dtype ...").
CPP_NAME = {
    bool_: "bool",
    uint8: "unsigned char",
    int8: "signed char",
    int16: "short int",
    int32: "int",
    int64: "long int",
    float16: "c10::Half",
    bfloat16: "c10::BFloat16",
    float32: "float",
    float64: "double",
    complex64: "c10::complex<float>",
    complex128: "c10::complex<double>",
}
#: The C++ type names of c10::Scalar's checked conversions ("value cannot be converted ...").
SCALAR_NAME = {
    bool_: "bool",
    uint8: "uint8_t",
    int8: "int8_t",
    int16: "int16_t",
    int32: "int",
    int64: "int64_t",
    float16: "at::Half",
    bfloat16: "at::BFloat16",
    float32: "float",
    float64: "double",
    complex64: "c10::complex<float>",
    complex128: "c10::complex<double>",
}


def not_implemented(kernel_name: str, dt: dtype) -> NotImplementedError:
    """PyTorch's AT_DISPATCH error: '"exp_vml_cpu" not implemented for 'Bool''."""
    return NotImplementedError(f"\"{kernel_name}\" not implemented for '{dt._short}'")


def shape_str(shape: tuple[int, ...]) -> str:
    return "[" + ", ".join(str(s) for s in shape) + "]"


#: Which dtype categories a kernel accepts (0 bool, 1 integral, 2 floating, 3 complex) and the
#: name its dispatch macro reports. Operators not listed accept every dtype.
SUPPORT: dict[str, tuple[str, frozenset[int]]] = {}


def _support(kernel_name: str, cats: str, *ops: str) -> None:
    allowed = frozenset(int(c) for c in cats)
    for op in ops:
        SUPPORT[op] = (kernel_name, allowed)


for _n in ("floor", "ceil", "round", "trunc"):
    _support(f"{_n}_vml_cpu", "123", _n)
_support("frac_cpu", "23", "frac")
_support("abs_cpu", "123", "abs")
_support("bitwise_not_cpu", "01", "bitwise_not")
_support("silu_cpu", "23", "silu")
_support("mish_cpu", "2", "mish")
_support("hardsigmoid_cpu", "2", "hardsigmoid")
_support("hardswish_cpu", "2", "hardswish")
_support("GeluKernelImpl", "2", "gelu")
_support("softplus_cpu", "2", "softplus")
_support("elu_cpu", "2", "elu", "celu")
_support("leaky_relu_cpu", "2", "leaky_relu")
_support("threshold_cpu", "12", "threshold")
_support("remainder_cpu", "12", "remainder")
_support("fmod_cpu", "12", "fmod")
_support("div_floor_cpu", "12", "div_floor", "floor_divide")
_support("div_trunc_cpu", "12", "div_trunc")
_support("hypot_cpu", "2", "hypot")
_support("copysign_cpu", "012", "copysign")
_support("xlogy_cpu", "012", "xlogy")
_support("atan2_cpu", "012", "atan2")
_support("pow", "123", "pow")
_support("bitwise_and_cpu", "01", "bitwise_and")
_support("bitwise_or_cpu", "01", "bitwise_or")
_support("bitwise_xor_cpu", "01", "bitwise_xor")
_support("lshift_cpu", "1", "lshift")
_support("rshift_cpu", "1", "rshift")
for _n in ("lt", "le", "gt", "ge"):
    _support(f"{_n}_cpu", "012", _n)
_support("maximum_cpu", "012", "maximum")
_support("minimum_cpu", "012", "minimum")
_support("fmax_cpu", "012", "fmax")
_support("fmin_cpu", "012", "fmin")
_support("clamp_cpu", "123", "clamp.Tensor")
_support("clamp_scalar_cpu", "123", "clamp")
_support("clamp_min_scalar_cpu", "123", "clamp_min")
_support("clamp_max_scalar_cpu", "123", "clamp_max")
_support("clamp_min_cpu", "123", "clamp_min.Tensor")
_support("clamp_max_cpu", "123", "clamp_max.Tensor")
_support("addcmul_cpu_out", "123", "addcmul")
_support("lerp_kernel_scalar", "23", "lerp.Scalar")
_support("lerp_kernel_tensor", "23", "lerp.Tensor")
_support("masked_fill", "0123", "masked_fill")


def check_support(op: str, dt: dtype) -> None:
    """Raise PyTorch's 'not implemented for' error when op's kernel lacks dtype dt."""
    spec = SUPPORT.get(op)
    if spec is not None and dt.category not in spec[1]:
        raise not_implemented(spec[0], dt)


def float_result(dt: dtype) -> dtype:
    """Integral and bool inputs of a floating op compute in the default dtype."""
    return dt if dt.category >= 2 else get_default_dtype()


def check_alpha(dt: dtype, alpha: Any) -> None:
    """add/sub's alpha checks (alpha_check in BinaryOps.cpp)."""
    if isinstance(alpha, bool) and dt is not bool_:
        raise RuntimeError("Boolean alpha only supported for Boolean results.")
    if dt.category <= 1 and isinstance(alpha, float):
        raise RuntimeError(
            "For integral input tensors, argument alpha must not be a floating point number."
        )
    if dt.category < 3 and isinstance(alpha, complex):
        raise RuntimeError(
            "For non-complex input tensors, argument alpha must not be a complex number."
        )


def _is_bool(x: Any) -> bool:
    return x._dtype is bool_ if isinstance(x, Tensor) else isinstance(x, bool)


def check_sub(self: Any, other: Any) -> None:
    """sub_check: no subtraction with bool operands."""
    a, b = _is_bool(self), _is_bool(other)
    if a and b:
        raise RuntimeError(
            "Subtraction, the `-` operator, with two bool tensors is not supported. Use the `^` "
            "or `logical_xor()` operator instead."
        )
    if a or b:
        raise RuntimeError(
            "Subtraction, the `-` operator, with a bool tensor is not supported. If you are "
            "trying to invert a mask, use the `~` or `logical_not()` operator instead."
        )


def check_inplace_shape(self: Any, shape: tuple[int, ...]) -> None:
    if tuple(shape) != tuple(shape_of(self)):
        raise RuntimeError(
            f"output with shape {shape_str(shape_of(self))} doesn't match the broadcast shape "
            f"{shape_str(shape)}"
        )


def _check_cast(result_dt: dtype, target_dt: dtype, cpp_names: bool = False) -> None:
    if not can_cast(result_dt, target_dt):
        target = CPP_NAME[target_dt] if cpp_names else target_dt._short
        raise RuntimeError(
            f"result type {result_dt._short} can't be cast to the desired output type {target}"
        )


def checked_scalar(value: Any, dt: dtype) -> Any:
    """c10::Scalar's checked conversion of a Python scalar to dtype dt (the value in Python
    form), raising "value cannot be converted to type int8_t without overflow"."""
    if isinstance(value, Tensor):
        value = value.item()
    check_python_int(value)  # the argument parser's OverflowError comes first
    bad = False
    if dt.category <= 1:
        if isinstance(value, complex):
            bad = value.imag != 0
            value = value.real
        if dt is bool_:
            return bool(value)
        if isinstance(value, float):
            if math.isnan(value) or math.isinf(value):
                bad = True
            else:
                value = int(value)
        if not bad:
            bits = dt.itemsize * 8
            if dt is uint8:
                # c10 lets negative integers wrap into unsigned types (a - b == a + 255 * b)
                lo = -255 if isinstance(value, int) else 0
                hi = 255
            else:
                lo, hi = -(2 ** (bits - 1)), 2 ** (bits - 1) - 1
            bad = not lo <= value <= hi
    elif dt.category == 2:
        if isinstance(value, complex):
            bad = value.imag != 0
            value = value.real
        value = float(value)
        fmax = {float16: 65504.0, bfloat16: 3.3895313892515355e38, float32: 3.4028234663852886e38}
        limit = fmax.get(dt)
        if limit is not None and math.isfinite(value) and abs(value) > limit:
            bad = True
    if bad:
        raise RuntimeError(f"value cannot be converted to type {SCALAR_NAME[dt]} without overflow")
    return value


# ----------------------------------------------------------------------------- layouts


def _numel(shape: tuple[int, ...]) -> int:
    n = 1
    for s in shape:
        n *= s
    return n


def _non_overlapping_and_dense(shape: tuple[int, ...], stride: tuple[int, ...]) -> bool:
    """c10's is_non_overlapping_and_dense (a tensor without elements is contiguous, so dense)."""
    if _numel(shape) == 0 or _shape.is_contiguous_strides(shape, stride):
        return True
    if len(shape) == 1:
        return shape[0] < 2 or stride[0] == 1
    dims = sorted(range(len(shape)), key=lambda d: (stride[d], shape[d]))
    expected = 1
    for d in dims:
        if shape[d] == 1:
            continue
        if stride[d] != expected:
            return False
        expected *= shape[d]
    return True


def like_strides(t: Tensor) -> tuple[int, ...]:
    """The strides of empty_like(t) (preserve_format): t's own when t is non-overlapping and
    dense, else dense strides in t's dimension order."""
    shape, stride = tuple(shape_of(t)), tuple(t.stride())
    if _non_overlapping_and_dense(shape, stride):
        return stride
    return _shape.elementwise_strides(shape, [(shape, stride)])


def _tensors(args: tuple[Any, ...], kwargs: dict[str, Any]) -> list[Tensor]:
    return [x for x in (*args, *kwargs.values()) if isinstance(x, Tensor)]


def _result(
    shape: tuple[int, ...], dt: dtype, layout: str, args: tuple[Any, ...], kwargs: dict[str, Any]
) -> Tensor:
    """A meta output: "iter" TensorIterator strides over the tensor arguments, "like"
    empty_like(first argument), "contig" contiguous."""
    if layout == "like":
        return new_meta(shape, dt, like_strides(args[0]))
    if layout == "contig":
        return new_meta(shape, dt, _shape.contiguous_strides(tuple(shape)))
    ts = _tensors(args, kwargs)
    stride = _shape.elementwise_strides(tuple(shape), [(shape_of(t), t.stride()) for t in ts])
    return new_meta(shape, dt, stride)


# ----------------------------------------------------------------------------- variants

#: A rule: (*args, **kwargs) -> (broadcast shape, result dtype), raising broadcast errors only.
Rule = Callable[..., tuple[tuple[int, ...], dtype]]


def _params_inplace(params: str) -> str:
    return params.replace("Tensor self", "Tensor(a!) self", 1)


def _params_out(params: str) -> str:
    sep = ", " if "*" in params else ", *, "
    return f"{params}{sep}Tensor(a!) out"


def _inplace(schema: str, functional: Any, rule: Rule | None, cpp_names: bool = False) -> Any:
    """Define an in-place op computed by `functional`. As TensorIterator, the broadcast shape
    must be self's and the result dtype castable to self's before the kernel runs (so its
    dtype errors come after these); self is written only once the result exists."""
    op = defop(schema)
    fn = aten(functional) if isinstance(functional, str) else functional

    def inplace(self: Any, *args: Any, **kwargs: Any) -> Any:
        if rule is not None:
            shape, dt = rule(self, *args, **kwargs)
            check_inplace_shape(self, shape)
            _check_cast(dt, self._dtype, cpp_names)
        result = fn(self, *args, **kwargs)
        check_inplace_shape(self, shape_of(result))
        _check_cast(result._dtype, self._dtype, cpp_names)
        aten("copy_")(self, result)
        return self

    inplace.__name__ = op.__name__
    aten_lib.impl(op, inplace, "CompositeExplicitAutograd")
    return op


def _resize_out(out: Tensor, shape: tuple[int, ...]) -> None:
    from ._variants import resize_output

    resize_output(out, shape)


def _out(schema: str, functional: Any, rule: Rule | None, check: str = "cast") -> Any:
    """Define an out= op computed by `functional`. `check` is PyTorch's check of out's dtype:
    "cast" (TensorIterator with promotion: the result must be castable to out), "found"
    (unary TensorIterator ops: same dtype, "Found dtype Long but expected Float"), "cpp"
    (out wrappers generated for CompositeExplicitAutograd ops: same dtype, C++ type names),
    "any" (comparisons, logical ops: any dtype), "bool" (signbit & co: bool out only),
    "nan_to_num" (its own words)."""
    op = defop(schema)
    fn = aten(functional) if isinstance(functional, str) else functional
    name = op._schema.name.split("::")[-1]

    def out_kernel(*args: Any, out: Tensor, **kwargs: Any) -> Tensor:
        if rule is not None and check in ("found", "cast", "nan_to_num"):
            _shape_, dt = rule(*args, **kwargs)
            if check == "found" and out._dtype is not dt:
                raise RuntimeError(f"Found dtype {out._dtype._short} but expected {dt._short}")
            if check == "nan_to_num" and out._dtype is not dt:
                raise RuntimeError(
                    f"nan_to_num: dtype of out: {out._dtype._short} should be same as input: "
                    f"{dt._short}"
                )
            _check_cast(dt, out._dtype)
        elif check == "bool" and out._dtype is not bool_:
            raise RuntimeError(f"{name} does not support non-boolean outputs.")
        result = fn(*args, **kwargs)
        if check == "cast":
            _check_cast(result._dtype, out._dtype)
        elif check == "cpp" and out._dtype is not result._dtype:
            raise RuntimeError(
                f"Expected out tensor to have dtype {CPP_NAME[result._dtype]}, but got "
                f"{CPP_NAME[out._dtype]} instead"
            )
        _resize_out(out, shape_of(result))
        aten("copy_")(out, result)
        return out

    out_kernel.__name__ = op.__name__
    aten_lib.impl(op, out_kernel, "CompositeExplicitAutograd")
    return op


def _family(
    qual: str,
    params: str,
    rule: Rule,
    check: Callable[..., None] | None = None,
    *,
    layout: str = "iter",
    inplace: bool | str = True,
    out: str | None = "out",
    out_check: str = "cast",
    inplace_cpp_names: bool = False,
) -> Any:
    """Define `qual(params) -> Tensor`: its meta function runs `rule` (shape and dtype),
    then `check` (dtype support, argument checks), and lays the output out as `layout`.
    Also its `_` form (`inplace` may name its overload) and out= form (`out` names it)."""
    name, _, overload = qual.partition(".")
    op = defop(f"{qual}({params}) -> Tensor")

    def meta_fn(*args: Any, **kwargs: Any) -> Tensor:
        shape, dt = rule(*args, **kwargs)
        if check is not None:
            check(*args, **kwargs)
        return _result(shape, dt, layout, args, kwargs)

    meta_fn.__name__ = qual.replace(".", "_")
    register_meta(op, meta_fn)
    if inplace:
        ov = inplace if isinstance(inplace, str) else overload
        _inplace(
            f"{name}_{'.' + ov if ov else ''}({_params_inplace(params)}) -> Tensor(a!)",
            op,
            rule,
            inplace_cpp_names,
        )
    if out:
        _out(f"{name}.{out}({_params_out(params)}) -> Tensor(a!)", op, rule, out_check)
    return op


# ----------------------------------------------------------------------------- unary

#: Unary ops computing in floating point (integers and bool -> default dtype).
UNARY_FLOAT = (
    "exp",
    "exp2",
    "expm1",
    "log",
    "log1p",
    "log2",
    "log10",
    "sqrt",
    "rsqrt",
    "reciprocal",
    "sin",
    "cos",
    "tan",
    "tanh",
    "sigmoid",
    "erf",
    "erfc",
    "asin",
    "acos",
    "atan",
    "sinh",
    "cosh",
    "asinh",
    "acosh",
    "atanh",
)
#: Unary ops keeping the input dtype (with per-op dtype support).
UNARY_SAME = (
    "abs",
    "neg",
    "sign",
    "sgn",
    "floor",
    "ceil",
    "round",
    "trunc",
    "frac",
    "bitwise_not",
)


def rule_float(self: Tensor, *args: Any, **kwargs: Any) -> tuple[tuple[int, ...], dtype]:
    return shape_of(self), float_result(self._dtype)


def rule_same(self: Tensor, *args: Any, **kwargs: Any) -> tuple[tuple[int, ...], dtype]:
    return shape_of(self), self._dtype


def rule_abs(self: Tensor) -> tuple[tuple[int, ...], dtype]:
    return shape_of(self), self._dtype.to_real()


def rule_bool(self: Tensor, *args: Any, **kwargs: Any) -> tuple[tuple[int, ...], dtype]:
    return shape_of(self), bool_


def check_unary_same(name: str, dt: dtype) -> None:
    """The dtype checks of the same-dtype unary ops."""
    if name == "neg" and dt is bool_:
        raise RuntimeError(
            "Negation, the `-` operator, on a bool tensor is not supported. If you are trying "
            "to invert a mask, use the `~` or `logical_not()` operator instead."
        )
    if name == "sign" and dt.is_complex:
        raise NotImplementedError(
            "Unlike NumPy, torch.sign is not intended to support complex numbers. Please use "
            "torch.sgn instead."
        )
    if name == "relu" and dt is bool_:
        raise RuntimeError("Boolean inputs not supported for relu")
    check_support(name, dt)


def _unary_check(name: str) -> Callable[..., None]:
    def check(self: Tensor, *args: Any, **kwargs: Any) -> None:
        check_unary_same(name, self._dtype)

    return check


for _name in UNARY_FLOAT:
    _family(_name, "Tensor self", rule_float)
for _name in UNARY_SAME:
    _family(
        _name,
        "Tensor self",
        rule_abs if _name == "abs" else rule_same,
        _unary_check(_name),
        out_check="found",
    )
_family("relu", "Tensor self", rule_same, _unary_check("relu"), out_check="cpp")


def _no_complex(name: str) -> Callable[..., None]:
    def check(self: Tensor) -> None:
        if self._dtype.is_complex:
            raise RuntimeError(f"{name} is not implemented for complex tensors.")

    return check


def _isinf_layout_rule(self: Tensor) -> tuple[tuple[int, ...], dtype]:
    return shape_of(self), bool_


_family("logical_not", "Tensor self", rule_bool, out_check="any")
_family("isnan", "Tensor self", rule_bool, inplace=False, out_check="cpp")
# isinf of an integral tensor is zeros_like(self, bool): empty_like's layout.
defop_isinf = _family("isinf", "Tensor self", rule_bool, inplace=False, out_check="cpp")
for _name in ("signbit", "isposinf", "isneginf"):
    _family(_name, "Tensor self", rule_bool, _no_complex(_name), inplace=False, out_check="bool")


def _isinf_meta(self: Tensor) -> Tensor:
    layout = "iter" if self._dtype.category >= 2 else "like"
    return _result(shape_of(self), bool_, layout, (self,), {})


register_meta(defop_isinf, _isinf_meta)


def check_activation(name: str, self: Tensor, *args: Any, **kwargs: Any) -> None:
    """Argument and dtype checks of the activation functions."""
    dt = self._dtype
    if name == "gelu":
        approximate = kwargs.get("approximate", args[0] if args else "none")
        if approximate not in ("none", "tanh"):
            raise RuntimeError("approximate argument must be either none or tanh.")
    elif name == "celu":
        alpha = kwargs.get("alpha", args[0] if args else 1.0)
        if alpha == 0:
            raise RuntimeError("ZeroDivisionError: alpha cannot be 0 for CELU")
    elif name == "hardtanh":
        if dt is bool_:
            raise RuntimeError("Bool inputs not supported for hardtanh")
        lo = kwargs.get("min_val", args[0] if args else -1)
        hi = kwargs.get("max_val", args[1] if len(args) > 1 else 1)
        if dt is uint8 and (lo < 0 or hi < 0):
            raise RuntimeError("cannot do hardtanh on an unsigned type with negative limits")
        return
    check_support(name, dt)


def _act_check(name: str) -> Callable[..., None]:
    def check(self: Tensor, *args: Any, **kwargs: Any) -> None:
        check_activation(name, self, *args, **kwargs)

    return check


for _name, _params in (
    ("silu", ""),
    ("mish", ""),
    ("hardsigmoid", ""),
    ("hardswish", ""),
    ("gelu", ', *, str approximate="none"'),
    ("leaky_relu", ", Scalar negative_slope=0.01"),
    ("elu", ", Scalar alpha=1, Scalar scale=1, Scalar input_scale=1"),
):
    _family(_name, f"Tensor self{_params}", rule_same, _act_check(_name), out_check="found")
_family(
    "hardtanh",
    "Tensor self, Scalar min_val=-1, Scalar max_val=1",
    rule_same,
    _act_check("hardtanh"),
    layout="like",
    out_check="found",
)
_family(
    "softplus",
    "Tensor self, Scalar beta=1, Scalar threshold=20",
    rule_same,
    _act_check("softplus"),
    inplace=False,
    out_check="found",
)
_family("celu", "Tensor self, Scalar alpha=1.0", rule_same, _act_check("celu"), out_check="cpp")


def _threshold_check(self: Tensor, threshold: Any, value: Any) -> None:
    check_support("threshold", self._dtype)


_family("threshold", "Tensor self, Scalar threshold, Scalar value", rule_same, _threshold_check)
_family("logit", "Tensor self, float? eps=None", rule_float)


def check_round_decimals(dt: dtype, decimals: int) -> None:
    if dt.category <= 1:
        raise not_implemented("round_cpu", dt)


def _round_decimals_check(self: Tensor, *, decimals: int) -> None:
    check_round_decimals(self._dtype, decimals)


_family(
    "round.decimals",
    "Tensor self, *, int decimals",
    rule_same,
    _round_decimals_check,
    out="decimals_out",
    out_check="found",
)
_family(
    "nan_to_num",
    "Tensor self, float? nan=None, float? posinf=None, float? neginf=None",
    rule_same,
    out_check="nan_to_num",
)


# -- clamp


def _bounds(lo: Any, hi: Any) -> list[Any]:
    bounds = [b for b in (lo, hi) if b is not None]
    if not bounds:
        raise RuntimeError("torch.clamp: At least one of 'min' or 'max' must not be None")
    return bounds


def clamp_dtype(self: Tensor, lo: Any, hi: Any, op: str) -> dtype:
    """clamp's result dtype: promotion over self and the given bounds; checks as PyTorch."""
    dt = result_type(self, *_bounds(lo, hi))
    check_support(op, dt)
    if dt.category == 1:
        for b in (lo, hi):
            if b is not None and not isinstance(b, Tensor):
                checked_scalar(b, dt)
    return dt


def _clamp_rule(self: Tensor, min: Any = None, max: Any = None) -> tuple[Any, dtype]:  # noqa: A002
    bounds = _bounds(min, max)
    shape = broadcast_shapes(*(shape_of(x) for x in (self, *bounds) if isinstance(x, Tensor)))
    return shape, result_type(self, *bounds)


def _clamp_check(op: str) -> Callable[..., None]:
    def check(self: Tensor, min: Any = None, max: Any = None) -> None:  # noqa: A002
        clamp_dtype(self, min, max, op)

    return check


def _clamp_min_rule(self: Tensor, min: Any) -> tuple[Any, dtype]:  # noqa: A002
    return _clamp_rule(self, min, None)


def _clamp_max_rule(self: Tensor, max: Any) -> tuple[Any, dtype]:  # noqa: A002
    return _clamp_rule(self, None, max)


def _clamp_min_check(op: str) -> Callable[..., None]:
    def check(self: Tensor, min: Any) -> None:  # noqa: A002
        clamp_dtype(self, min, None, op)

    return check


def _clamp_max_check(op: str) -> Callable[..., None]:
    def check(self: Tensor, max: Any) -> None:  # noqa: A002
        clamp_dtype(self, None, max, op)

    return check


_family(
    "clamp",
    "Tensor self, Scalar? min=None, Scalar? max=None",
    _clamp_rule,
    _clamp_check("clamp"),
    out_check="found",
    inplace_cpp_names=True,
)
_family(
    "clamp.Tensor",
    "Tensor self, Tensor? min=None, Tensor? max=None",
    _clamp_rule,
    _clamp_check("clamp.Tensor"),
    out="Tensor_out",
)
_family(
    "clamp_min",
    "Tensor self, Scalar min",
    _clamp_min_rule,
    _clamp_min_check("clamp_min"),
    out_check="found",
    inplace_cpp_names=True,
)
_family(
    "clamp_min.Tensor",
    "Tensor self, Tensor min",
    _clamp_min_rule,
    _clamp_min_check("clamp_min.Tensor"),
    out="Tensor_out",
)
_family(
    "clamp_max",
    "Tensor self, Scalar max",
    _clamp_max_rule,
    _clamp_max_check("clamp_max"),
    out_check="found",
    inplace_cpp_names=True,
)
_family(
    "clamp_max.Tensor",
    "Tensor self, Tensor max",
    _clamp_max_rule,
    _clamp_max_check("clamp_max.Tensor"),
    out="Tensor_out",
)


# ----------------------------------------------------------------------------- binary

#: name -> dtype rule of the binary ops: "same" (promoted dtype), "float" (integers ->
#: default float), "bool" (comparisons, logical).
BINARY_RULE = {
    "add": "same",
    "sub": "same",
    "mul": "same",
    "div": "float",
    "remainder": "same",
    "fmod": "same",
    "floor_divide": "same",
    "div_floor": "same",
    "div_trunc": "same",
    "eq": "bool",
    "ne": "bool",
    "lt": "bool",
    "le": "bool",
    "gt": "bool",
    "ge": "bool",
    "logical_and": "bool",
    "logical_or": "bool",
    "logical_xor": "bool",
    "bitwise_and": "same",
    "bitwise_or": "same",
    "bitwise_xor": "same",
    "lshift": "same",
    "rshift": "same",
    "maximum": "same",
    "minimum": "same",
    "fmax": "same",
    "fmin": "same",
    "atan2": "float",
    "hypot": "same",
    "copysign": "float",
    "xlogy": "float",
    "pow": "same",
}


def binary_result(op: str, self: Any, other: Any) -> dtype:
    """The result dtype of a binary op: PyTorch's promotion, then the op's rule."""
    dt = result_type(self, other)
    rule = BINARY_RULE[op]
    if rule == "float":
        return float_result(dt)
    if rule == "bool":
        return bool_
    return dt


def binary_dtype(op: str, self: Any, other: Any) -> dtype:
    """binary_result with the op's dtype checks (on the computation dtype)."""
    common = result_type(self, other)
    dt = float_result(common) if BINARY_RULE[op] == "float" else common
    check_support(op, dt)
    if op in ("bitwise_and", "bitwise_or", "bitwise_xor", "lshift", "rshift"):
        _check_scalar_kind(op, self, other, dt)
    return bool_ if BINARY_RULE[op] == "bool" else dt


def _binary_rule(op: str) -> Rule:
    def rule(self: Any, other: Any, *args: Any, **kwargs: Any) -> tuple[Any, dtype]:
        return broadcast_shapes(shape_of(self), shape_of(other)), binary_result(op, self, other)

    return rule


def _binary_check(op: str, alpha: bool = False) -> Callable[..., None]:
    def check(self: Any, other: Any, *args: Any, **kwargs: Any) -> None:
        dt = binary_dtype(op, self, other)
        if op == "sub":
            check_sub(self, other)
        if alpha:
            a = kwargs.get("alpha", args[0] if args else 1)
            if a is not None and (a != 1 or isinstance(a, bool)):
                check_alpha(dt, a)

    return check


def _check_scalar_kind(op: str, self: Any, other: Any, dt: dtype) -> None:
    """Bitwise ops reject a floating Python scalar even with an integral tensor."""
    for x in (self, other):
        if isinstance(x, (float, complex)) and not isinstance(x, bool):
            kind = complex64 if isinstance(x, complex) else float32
            raise not_implemented(SUPPORT[op][0], kind if dt.category <= 1 else dt)


def _bin(qual: str, params: str, op: str, **kw: Any) -> Any:
    return _family(qual, params, _binary_rule(op), _binary_check(op, "alpha" in params), **kw)


for _name in ("add", "sub", "mul", "div"):
    _a = _name in ("add", "sub")
    _bin(
        f"{_name}.Tensor", f"Tensor self, Tensor other{', *, Scalar alpha=1' if _a else ''}", _name
    )
    _bin(
        f"{_name}.Scalar",
        f"Tensor self, Scalar other{', Scalar alpha=1' if _a else ''}",
        _name,
        out="Scalar_out",
        out_check="cpp" if _name == "div" else "cast",
    )

for _name in (
    "remainder",
    "fmod",
    "eq",
    "ne",
    "lt",
    "le",
    "gt",
    "ge",
    "bitwise_and",
    "bitwise_or",
    "bitwise_xor",
):
    _oc = "any" if BINARY_RULE[_name] == "bool" else "cast"
    _bin(f"{_name}.Tensor", "Tensor self, Tensor other", _name, out="Tensor_out", out_check=_oc)
    _bin(f"{_name}.Scalar", "Tensor self, Scalar other", _name, out="Scalar_out", out_check=_oc)

for _name, _k in (("bitwise_left_shift", "lshift"), ("bitwise_right_shift", "rshift")):
    _bin(f"{_name}.Tensor", "Tensor self, Tensor other", _k, out="Tensor_out")
    _bin(f"{_name}.Tensor_Scalar", "Tensor self, Scalar other", _k, out="Tensor_Scalar_out")
    _bin(
        f"{_name}.Scalar_Tensor",
        "Scalar self, Tensor other",
        _k,
        inplace=False,
        out="Scalar_Tensor_out",
    )
for _name, _k in (("__lshift__", "lshift"), ("__rshift__", "rshift")):
    for _ov, _p in (("Tensor", "Tensor other"), ("Scalar", "Scalar other")):
        _op = _bin(
            f"{_name}.{_ov}",
            f"Tensor self, {_p}",
            _k,
            inplace=False,
            out=f"{_ov}_out",
            out_check="cpp",
        )
        _inplace(
            f"__i{_name[2:]}.{_ov}(Tensor(a!) self, {_p}) -> Tensor(a!)", _op, _binary_rule(_k)
        )

for _name in ("bitwise_and", "bitwise_or", "bitwise_xor"):
    _bin(
        f"{_name}.Scalar_Tensor",
        "Scalar self, Tensor other",
        _name,
        inplace=False,
        out="Scalar_Tensor_out",
    )
_bin(
    "remainder.Scalar_Tensor",
    "Scalar self, Tensor other",
    "remainder",
    inplace=False,
    out="Scalar_Tensor_out",
)
_bin("floor_divide", "Tensor self, Tensor other", "floor_divide", inplace="Tensor")
_bin("floor_divide.Scalar", "Tensor self, Scalar other", "floor_divide", out="Scalar_out")


def div_mode_dtype(self: Any, other: Any, rounding_mode: str | None) -> dtype:
    if rounding_mode is None:
        return binary_dtype("div", self, other)
    if rounding_mode == "trunc":
        return binary_dtype("div_trunc", self, other)
    if rounding_mode == "floor":
        return binary_dtype("div_floor", self, other)
    raise RuntimeError(
        f"div expected rounding_mode to be one of None, 'trunc', or 'floor' but found "
        f"'{rounding_mode}'"
    )


def _div_mode_rule(self: Any, other: Any, *, rounding_mode: str | None) -> tuple[Any, dtype]:
    op = "div" if rounding_mode is None else "div_floor"
    return broadcast_shapes(shape_of(self), shape_of(other)), binary_result(op, self, other)


def _div_mode_check(self: Any, other: Any, *, rounding_mode: str | None) -> None:
    div_mode_dtype(self, other, rounding_mode)


_family(
    "div.Tensor_mode",
    "Tensor self, Tensor other, *, str? rounding_mode",
    _div_mode_rule,
    _div_mode_check,
    out="out_mode",
)
_family(
    "div.Scalar_mode",
    "Tensor self, Scalar other, *, str? rounding_mode",
    _div_mode_rule,
    _div_mode_check,
    out="Scalar_mode_out",
    out_check="cpp",
)


def _rsub_check(self: Any, other: Any, alpha: Any = 1) -> None:
    dt = binary_dtype("sub", self, other)
    check_sub(self, other)
    if alpha != 1 or isinstance(alpha, bool):
        check_alpha(dt, alpha)


def _rsub_rule(self: Any, other: Any, alpha: Any = 1) -> tuple[Any, dtype]:
    return broadcast_shapes(shape_of(other), shape_of(self)), binary_result("sub", self, other)


def _rsub_meta_args(self: Any, other: Any, alpha: Any = 1) -> Tensor:
    shape, dt = _rsub_rule(self, other, alpha)
    _rsub_check(self, other, alpha)
    # computed as other - alpha * self: TensorIterator sees `other` first
    return _result(shape, dt, "iter", (other, self), {})


for _ov, _p in (
    ("Tensor", "Tensor other, *, Scalar alpha=1"),
    ("Scalar", "Scalar other, Scalar alpha=1"),
):
    _op = _family(
        f"rsub.{_ov}",
        f"Tensor self, {_p}",
        _rsub_rule,
        _rsub_check,
        inplace=False,
        out=f"{_ov}_out",
        out_check="cpp",
    )
    register_meta(_op, _rsub_meta_args)


def pow_dtype(self: Any, exponent: Any) -> dtype:
    """pow's result dtype and checks (integers to negative integer powers)."""
    dt = result_type(self, exponent)
    if isinstance(self, Tensor) and not isinstance(exponent, Tensor):
        if isinstance(exponent, (bool, int, float, complex)) and exponent in (0, 1):
            return dt  # pow(x, 0) fills ones, pow(x, 1) copies: no kernel, no dtype check
    check_support("pow", dt)
    if dt.category == 1 and not isinstance(exponent, Tensor):
        if isinstance(exponent, int) and not isinstance(exponent, bool) and exponent < 0:
            raise RuntimeError("Integers to negative integer powers are not allowed.")
        if isinstance(self, Tensor):
            checked_scalar(exponent, dt)
    return dt


def _pow_rule(self: Any, exponent: Any) -> tuple[Any, dtype]:
    return broadcast_shapes(shape_of(self), shape_of(exponent)), result_type(self, exponent)


def _pow_check(self: Any, exponent: Any) -> None:
    pow_dtype(self, exponent)


_family(
    "pow.Tensor_Tensor",
    "Tensor self, Tensor exponent",
    _pow_rule,
    _pow_check,
    inplace="Tensor",
    out="Tensor_Tensor_out",
)
_family(
    "pow.Tensor_Scalar",
    "Tensor self, Scalar exponent",
    _pow_rule,
    _pow_check,
    inplace="Scalar",
    out="Tensor_Scalar_out",
)
# pow.Scalar's output is laid out contiguously (its meta function passes no strides).
_family(
    "pow.Scalar",
    "Scalar self, Tensor exponent",
    _pow_rule,
    _pow_check,
    layout="contig",
    inplace=False,
    out="Scalar_out",
)

for _name in ("maximum", "minimum", "fmax", "fmin"):
    _bin(_name, "Tensor self, Tensor other", _name, inplace=False)
for _name in ("atan2", "hypot", "logical_and", "logical_or", "logical_xor"):
    _bin(
        _name,
        "Tensor self, Tensor other",
        _name,
        out_check="any" if _name.startswith("logical") else "cast",
    )
_bin("copysign.Tensor", "Tensor self, Tensor other", "copysign")
_bin("copysign.Scalar", "Tensor self, Scalar other", "copysign", out="Scalar_out")
_bin("xlogy.Tensor", "Tensor self, Tensor other", "xlogy", out="OutTensor")
_bin("xlogy.Scalar_Other", "Tensor self, Scalar other", "xlogy", out="OutScalar_Other")
_bin("xlogy.Scalar_Self", "Scalar self, Tensor other", "xlogy", inplace=False, out="OutScalar_Self")


# -- ternary


def lerp_check(self: Tensor, end: Tensor, weight: Any, op: str) -> dtype:
    dt = self._dtype
    if end._dtype is not dt:
        raise RuntimeError(
            f"expected dtype {CPP_NAME[dt]} for `end` but got dtype {CPP_NAME[end._dtype]}"
        )
    if isinstance(weight, Tensor) and weight._dtype is not dt:
        raise RuntimeError(
            f"expected dtype {CPP_NAME[dt]} for `weight` but got dtype {CPP_NAME[weight._dtype]}"
        )
    check_support(op, dt)
    return dt


def _lerp_rule(self: Tensor, end: Tensor, weight: Any) -> tuple[Any, dtype]:
    shapes = [shape_of(x) for x in (self, end, weight) if isinstance(x, Tensor)]
    return broadcast_shapes(*shapes), self._dtype


def _lerp_check(op: str) -> Callable[..., None]:
    def check(self: Tensor, end: Tensor, weight: Any) -> None:
        lerp_check(self, end, weight, op)

    return check


_family(
    "lerp.Scalar",
    "Tensor self, Tensor end, Scalar weight",
    _lerp_rule,
    _lerp_check("lerp.Scalar"),
    out="Scalar_out",
)
_family(
    "lerp.Tensor",
    "Tensor self, Tensor end, Tensor weight",
    _lerp_rule,
    _lerp_check("lerp.Tensor"),
    out="Tensor_out",
)


ADDCDIV_INT_ERROR = (
    "Integer division with addcdiv is no longer supported, and in a future  release addcdiv "
    "will perform a true division of tensor1 and tensor2. The historic addcdiv behavior can be "
    "implemented as (input + value * torch.trunc(tensor1 / tensor2)).to(input.dtype) for "
    "integer inputs and as (input + value * tensor1 / tensor2) for float inputs. The future "
    "addcdiv behavior is just the latter implementation: (input + value * tensor1 / tensor2), "
    "for all dtypes."
)


def addc_dtype(op: str, self: Tensor, tensor1: Tensor, tensor2: Tensor) -> dtype:
    if op == "addcdiv" and tensor1._dtype.category <= 1 and tensor2._dtype.category <= 1:
        raise RuntimeError(ADDCDIV_INT_ERROR)
    dt = result_type(self, tensor1, tensor2)
    check_support("addcmul", dt)
    return dt


def _addc_rule(self: Tensor, tensor1: Tensor, tensor2: Tensor, *, value: Any = 1) -> Any:
    shape = broadcast_shapes(shape_of(self), shape_of(tensor1), shape_of(tensor2))
    return shape, result_type(self, tensor1, tensor2)


def _addc_check(op: str) -> Callable[..., None]:
    def check(self: Tensor, tensor1: Tensor, tensor2: Tensor, *, value: Any = 1) -> None:
        addc_dtype(op, self, tensor1, tensor2)

    return check


for _name in ("addcmul", "addcdiv"):
    _family(
        _name,
        "Tensor self, Tensor tensor1, Tensor tensor2, *, Scalar value=1",
        _addc_rule,
        _addc_check(_name),
    )


# -- where, masked_fill


def check_where_condition(condition: Tensor) -> None:
    if condition._dtype is not bool_ and condition._dtype is not uint8:
        raise RuntimeError(
            f"where expected condition to be a boolean tensor, but got a tensor with dtype "
            f"{condition._dtype._short}"
        )


def _where_rule(condition: Tensor, self: Tensor, other: Tensor) -> tuple[Any, dtype]:
    shape = broadcast_shapes(shape_of(condition), shape_of(self), shape_of(other))
    return shape, result_type(self, other)


def _where_check(condition: Tensor, self: Tensor, other: Tensor) -> None:
    check_where_condition(condition)


_where = _family(
    "where.self",
    "Tensor condition, Tensor self, Tensor other",
    _where_rule,
    _where_check,
    inplace=False,
    out=None,
)


def _where_out_kernel(condition: Tensor, self: Tensor, other: Tensor, *, out: Tensor) -> Tensor:
    dt = result_type(self, other)
    if out._dtype is not dt:
        raise RuntimeError(f"Expected out type to be {dt._short} but got {out._dtype._short}")
    result = _where(condition, self, other)
    _resize_out(out, shape_of(result))
    aten("copy_")(out, result)
    return out


aten_lib.impl(
    defop(
        "where.self_out(Tensor condition, Tensor self, Tensor other, *, Tensor(a!) out) -> "
        "Tensor(a!)"
    ),
    _where_out_kernel,
    "CompositeExplicitAutograd",
)


def _scalar_tensor(value: Any, dt: dtype, like: Tensor) -> Tensor:
    from ..tensor.layout import strided

    checked_scalar(value, dt)  # scalar_tensor's fill_ converts with c10's overflow check
    return aten("scalar_tensor")(value, dtype=dt, layout=strided, device=like.device)


def _to(t: Tensor, dt: dtype) -> Tensor:
    """Tensor.to(dtype): a _to_copy only when the dtype changes."""
    return t if t._dtype is dt else aten("_to_copy")(t, dtype=dt)


@composite("where.ScalarOther(Tensor condition, Tensor self, Scalar other) -> Tensor")
def where_ScalarOther(condition, self, other):
    dt = result_type(self, other)
    other_t = _scalar_tensor(other, dt, condition)
    return _where(condition, _to(self, dt), other_t)


@composite("where.ScalarSelf(Tensor condition, Scalar self, Tensor other) -> Tensor")
def where_ScalarSelf(condition, self, other):
    dt = result_type(other, self)
    self_t = _scalar_tensor(self, dt, condition)
    return _where(condition, self_t, _to(other, dt))


@composite("where.Scalar(Tensor condition, Scalar self, Scalar other) -> Tensor")
def where_Scalar(condition, self, other):
    dt = result_type(self, other)
    other_t = _scalar_tensor(other, dt, condition)
    self_t = _scalar_tensor(self, dt, condition)
    return _where(condition, self_t, other_t)


def masked_fill_check(self: Tensor, mask: Tensor, value: Any) -> None:
    if mask._dtype is not bool_:
        raise RuntimeError(
            f"masked_fill_ only supports boolean masks, but got mask with dtype "
            f"{CPP_NAME[mask._dtype]}"
        )
    if isinstance(value, Tensor):
        if len(shape_of(value)) != 0:
            raise RuntimeError(
                f"masked_fill_ only supports a 0-dimensional value tensor, but got tensor with "
                f"{len(shape_of(value))} dimension(s)."
            )
    else:
        checked_scalar(value, self._dtype)


def _masked_fill_rule(self: Tensor, mask: Tensor, value: Any) -> tuple[Any, dtype]:
    return broadcast_shapes(shape_of(mask), shape_of(self)), self._dtype


for _ov, _p in (("Scalar", "Scalar value"), ("Tensor", "Tensor value")):
    # masked_fill is self.expand(broadcast).clone(contiguous).masked_fill_(mask, value)
    _family(
        f"masked_fill.{_ov}",
        f"Tensor self, Tensor mask, {_p}",
        _masked_fill_rule,
        masked_fill_check,
        layout="contig",
        out=f"{_ov}_out",
        out_check="cpp",
    )


# ----------------------------------------------------------------------------- composites


def _ops() -> Any:
    from .._ops import ops

    return ops.aten


def _alias(
    alias: str,
    target: str,
    params: str,
    *,
    inplace: bool = True,
    out: str | None = "out",
    overload: str = "",
) -> None:
    """A CompositeImplicitAutograd alias: each form calls the target's same form."""
    q = f"{alias}.{overload}" if overload else alias
    tq = f"{target}.{overload}" if overload else target

    def functional(*args: Any, **kwargs: Any) -> Any:
        return aten(tq)(*args, **kwargs)

    aten_lib.impl(defop(f"{q}({params}) -> Tensor"), functional, "CompositeImplicitAutograd")
    if inplace:
        iq = f"{alias}_.{overload}" if overload else f"{alias}_"
        itq = f"{target}_.{overload}" if overload else f"{target}_"

        def inplace_fn(*args: Any, **kwargs: Any) -> Any:
            return aten(itq)(*args, **kwargs)

        aten_lib.impl(
            defop(f"{iq}({_params_inplace(params)}) -> Tensor(a!)"),
            inplace_fn,
            "CompositeImplicitAutograd",
        )
    if out:

        def out_fn(*args: Any, **kwargs: Any) -> Any:
            return aten(f"{target}.{out}")(*args, **kwargs)

        aten_lib.impl(
            defop(f"{alias}.{out}({_params_out(params)}) -> Tensor(a!)"),
            out_fn,
            "CompositeImplicitAutograd",
        )


for _alias_name, _target in (
    ("absolute", "abs"),
    ("negative", "neg"),
    ("fix", "trunc"),
    ("arcsin", "asin"),
    ("arccos", "acos"),
    ("arctan", "atan"),
    ("arcsinh", "asinh"),
    ("arccosh", "acosh"),
    ("arctanh", "atanh"),
):
    _alias(_alias_name, _target, "Tensor self")
_alias("arctan2", "atan2", "Tensor self, Tensor other")
_alias("clip", "clamp", "Tensor self, Scalar? min=None, Scalar? max=None")
_alias(
    "clip",
    "clamp",
    "Tensor self, Tensor? min=None, Tensor? max=None",
    overload="Tensor",
    out="Tensor_out",
)
for _alias_name, _target, _a in (("subtract", "sub", True), ("multiply", "mul", False)):
    _alias(
        _alias_name,
        _target,
        f"Tensor self, Tensor other{', *, Scalar alpha=1' if _a else ''}",
        overload="Tensor",
    )
    _alias(
        _alias_name,
        _target,
        f"Tensor self, Scalar other{', Scalar alpha=1' if _a else ''}",
        overload="Scalar",
        out=None,
    )
for _alias_name in ("divide", "true_divide"):
    _alias(_alias_name, "div", "Tensor self, Tensor other", overload="Tensor")
    _alias(_alias_name, "div", "Tensor self, Scalar other", overload="Scalar", out=None)
_alias(
    "divide",
    "div",
    "Tensor self, Tensor other, *, str? rounding_mode",
    overload="Tensor_mode",
    out="out_mode",
)
_alias(
    "divide",
    "div",
    "Tensor self, Scalar other, *, str? rounding_mode",
    overload="Scalar_mode",
    out=None,
)
for _alias_name, _target in (
    ("greater", "gt"),
    ("greater_equal", "ge"),
    ("less", "lt"),
    ("less_equal", "le"),
    ("not_equal", "ne"),
):
    _alias(_alias_name, _target, "Tensor self, Tensor other", overload="Tensor", out="Tensor_out")
    _alias(_alias_name, _target, "Tensor self, Scalar other", overload="Scalar", out="Scalar_out")
for _dunder, _target in (
    ("__and__", "bitwise_and"),
    ("__or__", "bitwise_or"),
    ("__xor__", "bitwise_xor"),
):
    for _ov, _p in (("Tensor", "Tensor other"), ("Scalar", "Scalar other")):
        _tq = f"{_target}.{_ov}"
        aten_lib.impl(
            defop(f"{_dunder}.{_ov}(Tensor self, {_p}) -> Tensor"),
            (lambda q: lambda *a, **k: aten(q)(*a, **k))(_tq),
            "CompositeImplicitAutograd",
        )
        aten_lib.impl(
            defop(f"__i{_dunder[2:]}.{_ov}(Tensor(a!) self, {_p}) -> Tensor(a!)"),
            (lambda q: lambda *a, **k: aten(q)(*a, **k))(f"{_target}_.{_ov}"),
            "CompositeImplicitAutograd",
        )


@composite("square(Tensor self) -> Tensor")
def square(self):
    return _ops().pow.Tensor_Scalar(self, 2)


@composite("square_(Tensor(a!) self) -> Tensor(a!)")
def square_(self):
    return _ops().pow_.Scalar(self, 2)


@composite("square.out(Tensor self, *, Tensor(a!) out) -> Tensor(a!)")
def square_out(self, *, out):
    return _ops().pow.Tensor_Scalar_out(self, 2, out=out)


@composite("isfinite(Tensor self) -> Tensor")
def isfinite(self):
    a = _ops()
    if self._dtype.category <= 1:
        from ..tensor.layout import preserve_format

        return a.ones_like.default(self, dtype=bool_, memory_format=preserve_format)
    if self._dtype.is_complex and _has_op("view_as_real") and _has_op("select"):
        # isfinite(real(self)) &= isfinite(imag(self)); real/imag select the last dim
        d = len(shape_of(self))
        real = a.select.int(a.view_as_real.default(self), d, 0)
        real_ok = _isfinite_real(real)
        imag = a.select.int(a.view_as_real.default(self), d, 1)
        return a.bitwise_and_.Tensor(real_ok, _isfinite_real(imag))
    return _isfinite_real(self)


def _has_op(name: str) -> bool:
    try:
        aten(name if name != "select" else "select.int")
        return True
    except KeyError:
        return False


def _isfinite_real(self: Tensor) -> Tensor:
    a = _ops()
    finite = a.ne.Scalar(a.abs.default(self), math.inf)
    not_nan = a.eq.Tensor(self, self)
    return a.mul.Tensor(not_nan, finite)


# -- float_power: the operands go to float64 (complex128), then pow


def _float_power_dtype(*operands: Any) -> dtype:
    cplx = any(
        (isinstance(x, Tensor) and x._dtype.is_complex) or isinstance(x, complex) for x in operands
    )
    return complex128 if cplx else float64


def _as_double(v: Any, dt: dtype) -> Any:
    return complex(v) if dt is complex128 else float(v)


@composite("float_power.Tensor_Tensor(Tensor self, Tensor exponent) -> Tensor")
def float_power_Tensor_Tensor(self, exponent):
    dt = _float_power_dtype(self, exponent)
    exp_t = _to(exponent, dt)
    return _ops().pow.Tensor_Tensor(_to(self, dt), exp_t)


@composite("float_power.Tensor_Scalar(Tensor self, Scalar exponent) -> Tensor")
def float_power_Tensor_Scalar(self, exponent):
    dt = _float_power_dtype(self, exponent)
    return _ops().pow.Tensor_Scalar(_to(self, dt), _as_double(exponent, dt))


@composite("float_power.Scalar(Scalar self, Tensor exponent) -> Tensor")
def float_power_Scalar(self, exponent):
    dt = _float_power_dtype(self, exponent)
    return _ops().pow.Scalar(_as_double(self, dt), _to(exponent, dt))


def _float_power_out_check(out: Tensor, dt: dtype) -> None:
    if out._dtype is not dt:
        raise RuntimeError(
            f"the output given to float_power has dtype {out._dtype._short} but the operation's "
            f"result requires dtype {dt._short}"
        )


@composite(
    "float_power.Tensor_Tensor_out(Tensor self, Tensor exponent, *, Tensor(a!) out) -> Tensor(a!)"
)
def float_power_Tensor_Tensor_out(self, exponent, *, out):
    dt = _float_power_dtype(self, exponent)
    _float_power_out_check(out, dt)
    exp_t = _to(exponent, dt)
    return _ops().pow.Tensor_Tensor_out(_to(self, dt), exp_t, out=out)


@composite(
    "float_power.Tensor_Scalar_out(Tensor self, Scalar exponent, *, Tensor(a!) out) -> Tensor(a!)"
)
def float_power_Tensor_Scalar_out(self, exponent, *, out):
    dt = _float_power_dtype(self, exponent)
    _float_power_out_check(out, dt)
    return _ops().pow.Tensor_Scalar_out(_to(self, dt), _as_double(exponent, dt), out=out)


@composite("float_power.Scalar_out(Scalar self, Tensor exponent, *, Tensor(a!) out) -> Tensor(a!)")
def float_power_Scalar_out(self, exponent, *, out):
    dt = _float_power_dtype(self, exponent)
    _float_power_out_check(out, dt)
    return _ops().pow.Scalar_out(_as_double(self, dt), _to(exponent, dt), out=out)


def _float_power_inplace_check(self: Tensor, dt: dtype) -> None:
    if self._dtype is not dt:
        raise RuntimeError(
            f"the base given to float_power_ has dtype {self._dtype._short} but the operation's "
            f"result requires dtype {dt._short}"
        )


@composite("float_power_.Scalar(Tensor(a!) self, Scalar exponent) -> Tensor(a!)")
def float_power__Scalar(self, exponent):
    dt = _float_power_dtype(self, exponent)
    _float_power_inplace_check(self, dt)
    return _ops().pow_.Scalar(self, _as_double(exponent, dt))


@composite("float_power_.Tensor(Tensor(a!) self, Tensor exponent) -> Tensor(a!)")
def float_power__Tensor(self, exponent):
    dt = _float_power_dtype(self, exponent)
    _float_power_inplace_check(self, dt)
    return _ops().pow_.Tensor(self, _to(exponent, dt))
