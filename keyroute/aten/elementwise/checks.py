"""The elementwise family's shared rules: PyTorch's error words (C++ type names, the dtype support
table), the argument checks the CPU kernels reuse on their slow paths, and the TensorIterator
layout of a result."""

from __future__ import annotations

import math
from typing import Any

from ...tensor._tensor import Tensor
from ...tensor.dtype import (
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
from .. import _shape
from .._meta_util import new_meta, shape_of
from .._scalars import check_python_int

# ----------------------------------------------------------------------------- error words

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
        target = target_dt._cpp if cpp_names else target_dt._short
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
