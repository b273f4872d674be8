"""Python API of the elementwise operators: functions, methods and Python operators.

Each entry point calls the aten overload PyTorch's Python binding calls for the same arguments
(checked with a TorchDispatchMode in tests/tensor/test_elementwise_api.py):

    x + 2       -> aten.add.Tensor(x, 2)      (a Python scalar goes in as is, as the wrapped
                                               number PyTorch's binding passes)
    2 - x       -> aten.rsub.Scalar(x, 2)
    2 / x       -> aten.reciprocal(x), then aten.mul.Tensor(r, 2)
    x // 2      -> aten.floor_divide(x, 2);   2 // x -> aten.floor_divide(2, x)
    x % 2       -> aten.remainder.Scalar;     2 % x  -> aten.remainder.Scalar_Tensor
    2 ** x      -> aten.pow.Scalar(2, x)
    x << 1      -> aten.__lshift__.Scalar;    1 << x -> aten.bitwise_left_shift.Scalar_Tensor
    x += y      -> aten.add_.Tensor(x, y)     (and so on for the in-place operators)

Ops whose Python signature takes a Number choose their Scalar overload for Python scalars
(torch.eq(x, 2) -> eq.Scalar); add/sub/mul/div/floor_divide pass numbers to the Tensor one.
"""

from __future__ import annotations

import functools
from typing import Any

from .._ops import ops
from ..aten._define import aten as _aten_op
from ..aten.elementwise import UNARY_FLOAT, UNARY_SAME
from ..dispatcher.operator import fast_call
from ..tensor._tensor import Tensor
from . import FUNCTIONS, _keywords, function, method, method_as

aten = ops.aten
# The operators' plain-function forms (`fast_call`: same behaviour as calling the OpOverload,
# one slot lookup cheaper); the dunders below take the OpOverloads themselves.
_mul = fast_call(aten.mul.Tensor)
_div = fast_call(aten.div.Tensor)
_mul_ = fast_call(aten.mul_.Tensor)
_div_ = fast_call(aten.div_.Tensor)
_exp = aten.exp.default
_neg = fast_call(aten.neg.default)


def _t(x: Any) -> bool:
    return isinstance(x, Tensor)


def _number(x: Any) -> bool:
    """A value PyTorch's binding accepts as a Scalar (Python or NumPy number, 0-d tensor no)."""
    import numbers

    return isinstance(x, numbers.Number) or type(x).__name__ == "bool_"


def _type_name(x: Any) -> str:
    return "Tensor" if _t(x) else type(x).__name__


# -- Python operators ------------------------------------------------------------------------
# The hot ones (+ - * / and their in-place and reflected forms, unary -) are fast_call forms of
# their operators, attached below; these are the rest.


def __rsub__(self: Tensor, other: Any) -> Tensor:  # noqa: N807
    return aten.rsub.Scalar(self, other)


def __rtruediv__(self: Tensor, other: Any) -> Tensor:  # noqa: N807
    # torch._tensor.Tensor.__rdiv__: self.reciprocal() * other
    return _mul(aten.reciprocal.default(self), other)


def __floordiv__(self: Tensor, other: Any) -> Tensor:  # noqa: N807
    return aten.floor_divide.default(self, other)


def __rfloordiv__(self: Tensor, other: Any) -> Tensor:  # noqa: N807
    return aten.floor_divide.default(other, self)


def __mod__(self: Tensor, other: Any) -> Tensor:  # noqa: N807
    if _t(other):
        return aten.remainder.Tensor(self, other)
    return aten.remainder.Scalar(self, other)


def __rmod__(self: Tensor, other: Any) -> Tensor:  # noqa: N807
    return aten.remainder.Scalar_Tensor(other, self)


def __pow__(self: Tensor, other: Any) -> Tensor:  # noqa: N807
    if _t(other):
        return aten.pow.Tensor_Tensor(self, other)
    return aten.pow.Tensor_Scalar(self, other)


def __rpow__(self: Tensor, other: Any) -> Tensor:  # noqa: N807
    return aten.pow.Scalar(other, self)


def __pos__(self: Tensor) -> Tensor:  # noqa: N807
    if self._dtype.category == 0:
        raise RuntimeError("The `+` operator, on a bool tensor is not supported.")
    return self


def __abs__(self: Tensor) -> Tensor:  # noqa: N807
    return aten.abs.default(self)


def __invert__(self: Tensor) -> Tensor:  # noqa: N807
    return aten.bitwise_not.default(self)


def __ifloordiv__(self: Tensor, other: Any) -> Tensor:  # noqa: N807
    return aten.floor_divide_.Tensor(self, other)


def __imod__(self: Tensor, other: Any) -> Tensor:  # noqa: N807
    if _t(other):
        return aten.remainder_.Tensor(self, other)
    return aten.remainder_.Scalar(self, other)


def __ipow__(self: Tensor, other: Any) -> Tensor:  # noqa: N807
    if _t(other):
        return aten.pow_.Tensor(self, other)
    return aten.pow_.Scalar(self, other)


def _type_error_to_not_implemented(fn: Any) -> Any:
    """PyTorch's binary operators answer NotImplemented where the operator raises TypeError,
    so Python tries the other operand, then raises "unsupported operand type(s)"."""

    @functools.wraps(fn)
    def operator(self: Tensor, other: Any) -> Any:
        try:
            return fn(self, other)
        except TypeError:
            return NotImplemented

    return operator


for _fn in (__pos__, __abs__, __invert__):
    setattr(Tensor, _fn.__name__, _fn)
for _fn in (
    __rsub__,
    __rtruediv__,
    __floordiv__,
    __rfloordiv__,
    __mod__,
    __rmod__,
    __pow__,
    __rpow__,
    __ifloordiv__,
    __imod__,
    __ipow__,
):
    setattr(Tensor, _fn.__name__, _type_error_to_not_implemented(_fn))

# The hottest operators have no Python function of their own: the operator's plain-function
# form (fast_call, a TypeError answered NotImplemented) is the method itself, so `a + b` is
# one frame above the kernel. inspect.getsource(Tensor.__add__) shows its generated source.
Tensor.__neg__ = _neg  # type: ignore[method-assign]
for _dunder, _op in (
    ("__add__", aten.add.Tensor),
    ("__radd__", aten.add.Tensor),
    ("__sub__", aten.sub.Tensor),
    ("__mul__", aten.mul.Tensor),
    ("__rmul__", aten.mul.Tensor),
    ("__truediv__", aten.div.Tensor),
    ("__iadd__", aten.add_.Tensor),
    ("__isub__", aten.sub_.Tensor),
    ("__imul__", aten.mul_.Tensor),
    ("__itruediv__", aten.div_.Tensor),
):
    setattr(Tensor, _dunder, fast_call(_op, binary_operator=True))
Tensor.__div__ = Tensor.__truediv__  # type: ignore[attr-defined]
Tensor.__rdiv__ = Tensor.__rtruediv__  # type: ignore[attr-defined]
Tensor.__idiv__ = Tensor.__itruediv__  # type: ignore[attr-defined]


def _cmp(name: str) -> Any:
    tensor_op = getattr(aten, name).Tensor
    scalar_op = getattr(aten, name).Scalar

    def cmp(self: Tensor, other: Any) -> Any:
        if _t(other):
            return tensor_op(self, other)
        if _number(other):
            return scalar_op(self, other)
        if name in ("eq", "ne") and other is None:
            return name == "ne"
        return NotImplemented

    cmp.__name__ = f"__{name}__"
    return cmp


for _name in ("eq", "ne", "lt", "le", "gt", "ge"):
    setattr(Tensor, f"__{_name}__", _cmp(_name))
Tensor.__hash__ = object.__hash__  # type: ignore[method-assign]


def _bitwise_dunder(name: str) -> tuple[Any, Any]:
    packet = getattr(aten, name)

    def op(self: Tensor, other: Any) -> Tensor:
        return packet.Tensor(self, other) if _t(other) else packet.Scalar(self, other)

    def iop(self: Tensor, other: Any) -> Tensor:
        ip = getattr(aten, name + "_")
        return ip.Tensor(self, other) if _t(other) else ip.Scalar(self, other)

    return op, iop


for _dunder, _name in (("and", "bitwise_and"), ("or", "bitwise_or"), ("xor", "bitwise_xor")):
    _op, _iop = _bitwise_dunder(_name)
    setattr(Tensor, f"__{_dunder}__", _op)
    setattr(Tensor, f"__r{_dunder}__", _op)
    setattr(Tensor, f"__i{_dunder}__", _iop)


def _shift_dunders(name: str, fn_name: str) -> None:
    # ops.aten.__lshift__ is not an attribute name the namespace serves: look the ops up.
    t_op, s_op = _aten_op(f"__{name}__.Tensor"), _aten_op(f"__{name}__.Scalar")
    it_op, is_op = _aten_op(f"__i{name}__.Tensor"), _aten_op(f"__i{name}__.Scalar")
    scalar_first = getattr(aten, fn_name).Scalar_Tensor

    def op(self: Tensor, other: Any) -> Tensor:
        return t_op(self, other) if _t(other) else s_op(self, other)

    def rop(self: Tensor, other: Any) -> Tensor:
        return scalar_first(other, self)

    def iop(self: Tensor, other: Any) -> Tensor:
        return it_op(self, other) if _t(other) else is_op(self, other)

    setattr(Tensor, f"__{name}__", op)
    setattr(Tensor, f"__r{name}__", rop)
    setattr(Tensor, f"__i{name}__", iop)


_shift_dunders("lshift", "bitwise_left_shift")
_shift_dunders("rshift", "bitwise_right_shift")


# -- unary functions and methods -------------------------------------------------------------


def _unary_api(name: str, has_out: bool = True, has_inplace: bool = True) -> None:
    packet = getattr(aten, name)
    op = fast_call(packet.default)

    def fn(input: Tensor, *, out: Tensor | None = None) -> Tensor:  # noqa: A002
        if out is not None:
            return packet.out(input, out=out)
        return op(input)

    def meth(self: Tensor) -> Tensor:
        return op(self)

    fn.__name__ = meth.__name__ = name
    fn.__doc__ = f"aten::{name}, elementwise."
    if not has_out:

        def fn(input: Tensor) -> Tensor:  # type: ignore[misc]  # noqa: A002
            return op(input)

        fn.__name__ = fn.__qualname__ = name
    FUNCTIONS[name] = fn
    setattr(Tensor, name, meth)
    if has_inplace:
        ip = fast_call(getattr(aten, name + "_").default)

        def meth_(self: Tensor) -> Tensor:
            return ip(self)

        meth_.__name__ = name + "_"
        setattr(Tensor, name + "_", meth_)
        FUNCTIONS[name + "_"] = meth_


for _name in (*UNARY_FLOAT, *UNARY_SAME, "logical_not", "relu"):  # relu: no Python out=
    if _name != "round":
        _unary_api(_name, has_out=_name != "relu")
for _name in ("isnan", "isinf", "isposinf", "isneginf", "signbit"):
    _unary_api(_name, has_out=_name not in ("isnan", "isinf"), has_inplace=False)
_unary_api("isfinite", has_out=False, has_inplace=False)
_unary_api("square")


def _exp_method(self: Tensor) -> Tensor:
    return _exp(self)


Tensor.exp = _exp_method  # type: ignore[attr-defined]  # the hot method, without a closure

for _alias, _name in (
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
    _unary_api(_alias)


@function
@method
def round(input: Tensor, *, decimals: int = 0, out: Tensor | None = None) -> Tensor:  # noqa: A001, A002
    if out is not None:
        if decimals:
            return aten.round.decimals_out(input, decimals=decimals, out=out)
        return aten.round.out(input, out=out)
    if decimals:
        return aten.round.decimals(input, decimals=decimals)
    return aten.round.default(input)


@function
@method
def round_(input: Tensor, *, decimals: int = 0) -> Tensor:  # noqa: A002
    if decimals:
        return aten.round_.decimals(input, decimals=decimals)
    return aten.round_.default(input)


# -- binary functions and methods ------------------------------------------------------------


def _check_tensor_input(name: str, x: Any) -> None:
    if not _t(x):
        raise TypeError(
            f"{name}(): argument 'input' (position 1) must be Tensor, not {_type_name(x)}"
        )


def _alpha_api(name: str) -> None:
    """add/sub: (input, other, *, alpha=1, out=None); numbers go to the Tensor overload."""
    packet = getattr(aten, name)
    t_op = fast_call(packet.Tensor)
    ip = fast_call(getattr(aten, name + "_").Tensor)

    def fn(input: Any, other: Any, *, alpha: Any = 1, out: Tensor | None = None) -> Tensor:  # noqa: A002
        if input.__class__ is not Tensor:
            _check_tensor_input(name, input)
        if out is not None:
            return packet.out(input, other, alpha=alpha, out=out)
        if alpha.__class__ is int and alpha == 1:
            return t_op(input, other)
        return t_op(input, other, alpha=alpha)

    def meth(self: Tensor, other: Any, *, alpha: Any = 1) -> Tensor:
        if alpha.__class__ is int and alpha == 1:
            return t_op(self, other)
        return t_op(self, other, alpha=alpha)

    def meth_(self: Tensor, other: Any, *, alpha: Any = 1) -> Tensor:
        if alpha.__class__ is int and alpha == 1:
            return ip(self, other)
        return ip(self, other, alpha=alpha)

    fn.__name__ = meth.__name__ = name
    meth_.__name__ = name + "_"
    FUNCTIONS[name] = fn
    setattr(Tensor, name, meth)
    setattr(Tensor, name + "_", meth_)


_alpha_api("add")
_alpha_api("sub")
FUNCTIONS["subtract"] = FUNCTIONS["sub"]
method_as("subtract")(Tensor.sub)
method_as("subtract_")(Tensor.sub_)


@function
def mul(input: Any, other: Any, *, out: Tensor | None = None) -> Tensor:  # noqa: A002
    if input.__class__ is not Tensor:
        _check_tensor_input("mul", input)
    if out is not None:
        return aten.mul.out(input, other, out=out)
    return _mul(input, other)


def _mul_method(self: Tensor, other: Any) -> Tensor:
    return _mul(self, other)


def _mul_method_(self: Tensor, other: Any) -> Tensor:
    return _mul_(self, other)


method_as("mul", "multiply")(_mul_method)
method_as("mul_", "multiply_")(_mul_method_)
FUNCTIONS["multiply"] = mul


@function
def div(
    input: Any,
    other: Any,
    *,
    rounding_mode: str | None = None,  # noqa: A002
    out: Tensor | None = None,
) -> Tensor:
    if input.__class__ is not Tensor:
        _check_tensor_input("div", input)
    if out is not None:
        if rounding_mode is not None:
            return aten.div.out_mode(input, other, rounding_mode=rounding_mode, out=out)
        return aten.div.out(input, other, out=out)
    if rounding_mode is not None:
        return aten.div.Tensor_mode(input, other, rounding_mode=rounding_mode)
    return _div(input, other)


def _div_method(self: Tensor, other: Any, *, rounding_mode: str | None = None) -> Tensor:
    if rounding_mode is not None:
        return aten.div.Tensor_mode(self, other, rounding_mode=rounding_mode)
    return _div(self, other)


def _div_method_(self: Tensor, other: Any, *, rounding_mode: str | None = None) -> Tensor:
    if rounding_mode is not None:
        return aten.div_.Tensor_mode(self, other, rounding_mode=rounding_mode)
    return _div_(self, other)


method_as("div", "divide")(_div_method)
method_as("div_", "divide_")(_div_method_)
FUNCTIONS["divide"] = div


@function
def true_divide(input: Any, other: Any, *, out: Tensor | None = None) -> Tensor:  # noqa: A002
    return div(input, other, out=out)


method_as("true_divide")(lambda self, other: _div(self, other))
method_as("true_divide_")(lambda self, other: _div_(self, other))


@function
@method
def floor_divide(input: Any, other: Any, *, out: Tensor | None = None) -> Tensor:  # noqa: A002
    if input.__class__ is not Tensor:
        _check_tensor_input("floor_divide", input)
    if out is not None:
        return aten.floor_divide.out(input, other, out=out)
    return aten.floor_divide.default(input, other)


@method
def floor_divide_(self: Tensor, other: Any) -> Tensor:
    return aten.floor_divide_.Tensor(self, other)


def _scalar_overload_api(
    name: str,
    *,
    scalar: str = "Scalar",
    scalar_first: str | None = None,
    out_tensor: str = "Tensor_out",
    out_scalar: str = "Scalar_out",
    out_scalar_first: str | None = None,
    tensor: str = "Tensor",
    inplace_scalar: str | None = "Scalar",
    inplace_tensor: str = "Tensor",
) -> None:
    """Ops with Tensor/Scalar (and Scalar-first) overloads chosen from the argument types."""
    packet = getattr(aten, name)

    def fn(input: Any, other: Any, *, out: Tensor | None = None) -> Tensor:  # noqa: A002
        if not _t(input):
            if scalar_first is None or not _t(other):
                if input.__class__ is not Tensor:
                    _check_tensor_input(name, input)
            if out is not None:
                return getattr(packet, out_scalar_first)(input, other, out=out)  # type: ignore[arg-type]
            return getattr(packet, scalar_first)(input, other)
        if _t(other):
            if out is not None:
                return getattr(packet, out_tensor)(input, other, out=out)
            return getattr(packet, tensor)(input, other)
        if out is not None:
            return getattr(packet, out_scalar)(input, other, out=out)
        return getattr(packet, scalar)(input, other)

    def meth(self: Tensor, other: Any) -> Tensor:
        if _t(other):
            return getattr(packet, tensor)(self, other)
        return getattr(packet, scalar)(self, other)

    fn.__name__ = meth.__name__ = name
    FUNCTIONS[name] = fn
    setattr(Tensor, name, meth)
    if inplace_scalar is not None:
        ip = getattr(aten, name + "_")

        def meth_(self: Tensor, other: Any) -> Tensor:
            if _t(other):
                return getattr(ip, inplace_tensor)(self, other)
            return getattr(ip, inplace_scalar)(self, other)  # type: ignore[arg-type]

        meth_.__name__ = name + "_"
        setattr(Tensor, name + "_", meth_)


_scalar_overload_api(
    "remainder", scalar_first="Scalar_Tensor", out_scalar_first="Scalar_Tensor_out"
)
_scalar_overload_api("fmod")
for _name in ("eq", "ne", "lt", "le", "gt", "ge"):
    _scalar_overload_api(_name)
for _alias, _name in (
    ("greater", "gt"),
    ("greater_equal", "ge"),
    ("less", "lt"),
    ("less_equal", "le"),
    ("not_equal", "ne"),
):
    _scalar_overload_api(_alias)
for _name in ("bitwise_and", "bitwise_or", "bitwise_xor"):
    _scalar_overload_api(_name, scalar_first="Scalar_Tensor", out_scalar_first="Scalar_Tensor_out")
for _name in ("bitwise_left_shift", "bitwise_right_shift"):
    _scalar_overload_api(
        _name,
        scalar="Tensor_Scalar",
        scalar_first="Scalar_Tensor",
        out_scalar="Tensor_Scalar_out",
        out_scalar_first="Scalar_Tensor_out",
        inplace_scalar="Tensor_Scalar",
    )
_scalar_overload_api("copysign", out_tensor="out")
_scalar_overload_api(
    "xlogy",
    scalar="Scalar_Other",
    scalar_first="Scalar_Self",
    out_tensor="OutTensor",
    out_scalar="OutScalar_Other",
    out_scalar_first="OutScalar_Self",
    inplace_scalar="Scalar_Other",
)


@function
@method
def pow(input: Any, exponent: Any, *, out: Tensor | None = None) -> Tensor:  # noqa: A001, A002
    if not _t(input):
        if not _t(exponent):
            if input.__class__ is not Tensor:
                _check_tensor_input("pow", input)
        if out is not None:
            return aten.pow.Scalar_out(input, exponent, out=out)
        return aten.pow.Scalar(input, exponent)
    if _t(exponent):
        if out is not None:
            return aten.pow.Tensor_Tensor_out(input, exponent, out=out)
        return aten.pow.Tensor_Tensor(input, exponent)
    if out is not None:
        return aten.pow.Tensor_Scalar_out(input, exponent, out=out)
    return aten.pow.Tensor_Scalar(input, exponent)


@method
def pow_(self: Tensor, exponent: Any) -> Tensor:
    return aten.pow_.Tensor(self, exponent) if _t(exponent) else aten.pow_.Scalar(self, exponent)


@function
@method
def float_power(input: Any, exponent: Any, *, out: Tensor | None = None) -> Tensor:  # noqa: A002
    fp = aten.float_power
    if not _t(input):
        if out is not None:
            return fp.Scalar_out(input, exponent, out=out)
        return fp.Scalar(input, exponent)
    if _t(exponent):
        if out is not None:
            return fp.Tensor_Tensor_out(input, exponent, out=out)
        return fp.Tensor_Tensor(input, exponent)
    if out is not None:
        return fp.Tensor_Scalar_out(input, exponent, out=out)
    return fp.Tensor_Scalar(input, exponent)


@method
def float_power_(self: Tensor, exponent: Any) -> Tensor:
    if _t(exponent):
        return aten.float_power_.Tensor(self, exponent)
    return aten.float_power_.Scalar(self, exponent)


@function
@method
def rsub(input: Tensor, other: Any, *, alpha: Any = 1) -> Tensor:  # noqa: A002
    if _t(other):
        return aten.rsub.Tensor(input, other, alpha=alpha)
    return aten.rsub.Scalar(input, other, alpha)


def _tensor_binary_api(name: str, inplace: bool, out: str = "out") -> None:
    """Binary ops taking two tensors only (maximum, atan2, logical_and, ...)."""
    op = fast_call(getattr(aten, name).default)
    out_op = getattr(getattr(aten, name), out)

    def fn(input: Tensor, other: Tensor, *, out: Tensor | None = None) -> Tensor:  # noqa: A002
        for pos, (argname, x) in enumerate((("input", input), ("other", other)), 1):
            if not _t(x):
                raise TypeError(
                    f"{name}(): argument '{argname}' (position {pos}) must be Tensor, not "
                    f"{_type_name(x)}"
                )
        if out is not None:
            return out_op(input, other, out=out)
        return op(input, other)

    def meth(self: Tensor, other: Tensor) -> Tensor:
        return fn(self, other)

    fn.__name__ = meth.__name__ = name
    FUNCTIONS[name] = fn
    setattr(Tensor, name, meth)
    if inplace:
        ip = getattr(aten, name + "_").default

        def meth_(self: Tensor, other: Tensor) -> Tensor:
            return ip(self, other)

        meth_.__name__ = name + "_"
        setattr(Tensor, name + "_", meth_)


for _name in ("maximum", "minimum", "fmax", "fmin"):
    _tensor_binary_api(_name, inplace=False)
for _name in ("atan2", "arctan2", "hypot", "logical_and", "logical_or", "logical_xor"):
    _tensor_binary_api(_name, inplace=True)


# -- clamp -----------------------------------------------------------------------------------


def _clamp_api(name: str) -> None:
    packet = getattr(aten, name)
    ip = getattr(aten, name + "_")

    def fn(
        input: Tensor,
        min: Any = None,
        max: Any = None,
        *,  # noqa: A002
        out: Tensor | None = None,
    ) -> Tensor:
        tensors = _t(min) or _t(max)
        if out is not None:
            return (packet.Tensor_out if tensors else packet.out)(input, min, max, out=out)
        if tensors:
            return packet.Tensor(input, min, max) if max is not None else packet.Tensor(input, min)
        return packet.default(input, min, max) if max is not None else packet.default(input, min)

    def meth(self: Tensor, min: Any = None, max: Any = None) -> Tensor:  # noqa: A002
        return fn(self, min, max)

    def meth_(self: Tensor, min: Any = None, max: Any = None) -> Tensor:  # noqa: A002
        if _t(min) or _t(max):
            return ip.Tensor(self, min, max) if max is not None else ip.Tensor(self, min)
        return ip.default(self, min, max) if max is not None else ip.default(self, min)

    fn.__name__ = meth.__name__ = name
    meth_.__name__ = name + "_"
    FUNCTIONS[name] = fn
    setattr(Tensor, name, meth)
    setattr(Tensor, name + "_", meth_)
    FUNCTIONS[name + "_"] = meth_


_clamp_api("clamp")
_clamp_api("clip")


def _clamp_bound_api(name: str) -> None:
    packet = getattr(aten, name)
    ip = getattr(aten, name + "_")

    def fn(input: Tensor, bound: Any, *, out: Tensor | None = None) -> Tensor:  # noqa: A002
        if out is not None:
            return (packet.Tensor_out if _t(bound) else packet.out)(input, bound, out=out)
        return packet.Tensor(input, bound) if _t(bound) else packet.default(input, bound)

    def meth_(self: Tensor, bound: Any) -> Tensor:
        return ip.Tensor(self, bound) if _t(bound) else ip.default(self, bound)

    fn.__name__, meth_.__name__ = name, name + "_"
    fn, meth_, meth = (  # the bound under PyTorch's name (min=, max=); same code
        _keywords.renamed(f, {"bound": name[6:]})
        for f in (fn, meth_, lambda self, bound: fn(self, bound))
    )
    FUNCTIONS[name] = fn
    setattr(Tensor, name, meth)
    setattr(Tensor, name + "_", meth_)
    FUNCTIONS[name + "_"] = meth_


_clamp_bound_api("clamp_min")
_clamp_bound_api("clamp_max")


# -- ternary ---------------------------------------------------------------------------------


@function
@method
def lerp(input: Tensor, end: Tensor, weight: Any, *, out: Tensor | None = None) -> Tensor:  # noqa: A002
    ov = "Tensor" if _t(weight) else "Scalar"
    if out is not None:
        return getattr(aten.lerp, ov + "_out")(input, end, weight, out=out)
    return getattr(aten.lerp, ov)(input, end, weight)


@method
def lerp_(self: Tensor, end: Tensor, weight: Any) -> Tensor:
    return (aten.lerp_.Tensor if _t(weight) else aten.lerp_.Scalar)(self, end, weight)


def _addc_api(name: str) -> None:
    packet = getattr(aten, name)
    ip = getattr(aten, name + "_").default

    def fn(
        input: Tensor,
        tensor1: Tensor,
        tensor2: Tensor,
        *,
        value: Any = 1,  # noqa: A002
        out: Tensor | None = None,
    ) -> Tensor:
        if out is not None:
            return packet.out(input, tensor1, tensor2, value=value, out=out)
        return packet.default(input, tensor1, tensor2, value=value)

    def meth(self: Tensor, tensor1: Tensor, tensor2: Tensor, *, value: Any = 1) -> Tensor:
        return packet.default(self, tensor1, tensor2, value=value)

    def meth_(self: Tensor, tensor1: Tensor, tensor2: Tensor, *, value: Any = 1) -> Tensor:
        return ip(self, tensor1, tensor2, value=value)

    fn.__name__ = meth.__name__ = name
    meth_.__name__ = name + "_"
    FUNCTIONS[name] = fn
    setattr(Tensor, name, meth)
    setattr(Tensor, name + "_", meth_)


_addc_api("addcmul")
_addc_api("addcdiv")


@function
def where(
    condition: Tensor,
    input: Any = None,
    other: Any = None,
    *,  # noqa: A002
    out: Tensor | None = None,
) -> Any:
    """torch.where(condition, input, other), or torch.where(condition) (nonzero as tuple)."""
    if input is None and other is None:
        return condition.nonzero(as_tuple=True)
    if _t(input) and _t(other):
        if out is not None:
            return aten.where.self_out(condition, input, other, out=out)
        return aten.where.self(condition, input, other)
    if _t(input):
        return aten.where.ScalarOther(condition, input, other)
    if _t(other):
        return aten.where.ScalarSelf(condition, input, other)
    return aten.where.Scalar(condition, input, other)


def _where_method(self: Tensor, condition: Tensor, other: Any) -> Tensor:
    return where(condition, self, other)


Tensor.where = _where_method  # type: ignore[attr-defined]


@function
@method
def masked_fill(input: Tensor, mask: Tensor, value: Any) -> Tensor:  # noqa: A002
    if _t(value):
        return aten.masked_fill.Tensor(input, mask, value)
    return aten.masked_fill.Scalar(input, mask, value)


@method
def masked_fill_(self: Tensor, mask: Tensor, value: Any) -> Tensor:
    if _t(value):
        return aten.masked_fill_.Tensor(self, mask, value)
    return aten.masked_fill_.Scalar(self, mask, value)


# -- unary ops with parameters ---------------------------------------------------------------


@function
@method
def nan_to_num(
    input: Tensor,
    nan: float = 0.0,
    posinf: float | None = None,  # noqa: A002
    neginf: float | None = None,
    *,
    out: Tensor | None = None,
) -> Tensor:
    if out is not None:
        return aten.nan_to_num.out(input, nan, posinf, neginf, out=out)
    return aten.nan_to_num.default(input, nan, posinf, neginf)


@function
@method
def nan_to_num_(
    input: Tensor,
    nan: float = 0.0,
    posinf: float | None = None,  # noqa: A002
    neginf: float | None = None,
) -> Tensor:
    return aten.nan_to_num_.default(input, nan, posinf, neginf)


@function
@method
def logit(input: Tensor, eps: float | None = None, *, out: Tensor | None = None) -> Tensor:  # noqa: A002
    if out is not None:
        return aten.logit.out(input, eps, out=out)
    return aten.logit.default(input, eps)


@function
@method
def logit_(input: Tensor, eps: float | None = None) -> Tensor:  # noqa: A002
    return aten.logit_.default(input, eps)


@function
def celu(input: Tensor, alpha: float = 1.0) -> Tensor:  # noqa: A002
    return aten.celu.default(input, alpha)


@function
def celu_(input: Tensor, alpha: float = 1.0) -> Tensor:  # noqa: A002
    return aten.celu_.default(input, alpha)


@function
def threshold(
    input: Tensor,
    threshold: Any,
    value: Any,
    *,  # noqa: A002
    out: Tensor | None = None,
) -> Tensor:
    if out is not None:
        return aten.threshold.out(input, threshold, value, out=out)
    return aten.threshold.default(input, threshold, value)


@function
def threshold_(input: Tensor, threshold: Any, value: Any) -> Tensor:  # noqa: A002
    return aten.threshold_.default(input, threshold, value)
