"""Python API of the elementwise operators: functions, methods and Python operators.

`a + b` calls `aten.add.Tensor(a, b)` (a Python scalar goes in as is, as PyTorch's binding
passes a wrapped number), `a += b` calls `aten.add_.Tensor`, and so on.
"""

from __future__ import annotations

from typing import Any

from .._ops import ops
from ..aten.elementwise import UNARY
from ..tensor._tensor import Tensor
from . import FUNCTIONS, function, method, method_as

aten = ops.aten
_add = aten.add.Tensor
_sub = aten.sub.Tensor
_mul = aten.mul.Tensor
_div = aten.div.Tensor
_add_ = aten.add_.Tensor
_sub_ = aten.sub_.Tensor
_mul_ = aten.mul_.Tensor
_div_ = aten.div_.Tensor


def _t(x: Any) -> bool:
    return isinstance(x, Tensor)


# -- Python operators ------------------------------------------------------------------------


def __add__(self: Tensor, other: Any) -> Tensor:  # noqa: N807
    return _add(self, other)


def __radd__(self: Tensor, other: Any) -> Tensor:  # noqa: N807
    return _add(self, other)


def __sub__(self: Tensor, other: Any) -> Tensor:  # noqa: N807
    return _sub(self, other)


def __rsub__(self: Tensor, other: Any) -> Tensor:  # noqa: N807
    return aten.rsub.Scalar(self, other) if not _t(other) else _sub(other, self)


def __mul__(self: Tensor, other: Any) -> Tensor:  # noqa: N807
    return _mul(self, other)


def __rmul__(self: Tensor, other: Any) -> Tensor:  # noqa: N807
    return _mul(self, other)


def __truediv__(self: Tensor, other: Any) -> Tensor:  # noqa: N807
    return _div(self, other)


def __rtruediv__(self: Tensor, other: Any) -> Tensor:  # noqa: N807
    return _mul(aten.reciprocal.default(self), other)


def __floordiv__(self: Tensor, other: Any) -> Tensor:  # noqa: N807
    return aten.div.Tensor_mode(self, other, rounding_mode="floor")


def __rfloordiv__(self: Tensor, other: Any) -> Tensor:  # noqa: N807
    return aten.div.Tensor_mode(aten.full_like.default(self, other), self, rounding_mode="floor")


def __mod__(self: Tensor, other: Any) -> Tensor:  # noqa: N807
    return aten.remainder.Tensor(self, other)


def __rmod__(self: Tensor, other: Any) -> Tensor:  # noqa: N807
    return aten.remainder.Scalar_Tensor(other, self)


def __pow__(self: Tensor, other: Any) -> Tensor:  # noqa: N807
    if _t(other):
        return aten.pow.Tensor_Tensor(self, other)
    return aten.pow.Tensor_Scalar(self, other)


def __rpow__(self: Tensor, other: Any) -> Tensor:  # noqa: N807
    return aten.pow.Scalar(other, self)


def __neg__(self: Tensor) -> Tensor:  # noqa: N807
    return aten.neg.default(self)


def __pos__(self: Tensor) -> Tensor:  # noqa: N807
    return self


def __abs__(self: Tensor) -> Tensor:  # noqa: N807
    return aten.abs.default(self)


def __invert__(self: Tensor) -> Tensor:  # noqa: N807
    return aten.bitwise_not.default(self)


def _cmp(name: str) -> Any:
    tensor_op = getattr(aten, name).Tensor
    scalar_op = getattr(aten, name).Scalar

    def cmp(self: Tensor, other: Any) -> Any:
        if _t(other):
            return tensor_op(self, other)
        if other is None or not isinstance(other, (int, float, complex)):
            if hasattr(other, "__index__") or hasattr(other, "__float__"):
                return scalar_op(self, other)
            return NotImplemented
        return scalar_op(self, other)

    return cmp


def _bitwise(name: str) -> Any:
    tensor_op = getattr(aten, name).Tensor
    scalar_op = getattr(aten, name).Scalar

    def op(self: Tensor, other: Any) -> Tensor:
        return tensor_op(self, other) if _t(other) else scalar_op(self, other)

    return op


def __iadd__(self: Tensor, other: Any) -> Tensor:  # noqa: N807
    return _add_(self, other)


def __isub__(self: Tensor, other: Any) -> Tensor:  # noqa: N807
    return _sub_(self, other)


def __imul__(self: Tensor, other: Any) -> Tensor:  # noqa: N807
    return _mul_(self, other)


def __itruediv__(self: Tensor, other: Any) -> Tensor:  # noqa: N807
    return _div_(self, other)


for _fn in (
    __add__, __radd__, __sub__, __rsub__, __mul__, __rmul__, __truediv__, __rtruediv__,
    __floordiv__, __rfloordiv__, __mod__, __rmod__, __pow__, __rpow__, __neg__, __pos__,
    __abs__, __invert__, __iadd__, __isub__, __imul__, __itruediv__,
):  # fmt: skip
    setattr(Tensor, _fn.__name__, _fn)
Tensor.__div__ = __truediv__  # type: ignore[attr-defined]
for _dunder, _name in (("__eq__", "eq"), ("__ne__", "ne"), ("__lt__", "lt"), ("__le__", "le"),
                       ("__gt__", "gt"), ("__ge__", "ge")):  # fmt: skip
    setattr(Tensor, _dunder, _cmp(_name))
for _dunder, _name in (("__and__", "bitwise_and"), ("__or__", "bitwise_or"),
                       ("__xor__", "bitwise_xor"), ("__lshift__", "bitwise_left_shift"),
                       ("__rshift__", "bitwise_right_shift")):  # fmt: skip
    _f = _bitwise(_name)
    setattr(Tensor, _dunder, _f)
    setattr(Tensor, "__r" + _dunder[2:], _f)
Tensor.__hash__ = object.__hash__  # type: ignore[method-assign]


def _iop(name: str) -> Any:
    tensor_op = getattr(aten, name + "_").Tensor
    scalar_op = getattr(aten, name + "_").Scalar

    def op(self: Tensor, other: Any) -> Tensor:
        return tensor_op(self, other) if _t(other) else scalar_op(self, other)

    return op


Tensor.__iand__ = _iop("bitwise_and")  # type: ignore[attr-defined]
Tensor.__ior__ = _iop("bitwise_or")  # type: ignore[attr-defined]
Tensor.__ixor__ = _iop("bitwise_xor")  # type: ignore[attr-defined]

# -- unary functions and methods -------------------------------------------------------------


def _unary_api(name: str) -> None:
    op = getattr(aten, name).default

    def fn(self: Tensor, *, out: Tensor | None = None) -> Tensor:
        if out is not None:
            return getattr(aten, name).out(self, out=out)
        return op(self)

    fn.__name__ = name
    fn.__doc__ = f"aten::{name} elementwise."
    FUNCTIONS[name] = fn
    setattr(Tensor, name, lambda self: op(self))
    inplace = getattr(aten, name + "_", None) if _has(name + "_") else None
    if inplace is not None:
        ip = inplace.default
        setattr(Tensor, name + "_", lambda self: ip(self))
        FUNCTIONS[name + "_"] = lambda self: ip(self)


def _has(name: str) -> bool:
    try:
        getattr(aten, name)
        return True
    except AttributeError:
        return False


for _name in UNARY:
    _unary_api(_name)
FUNCTIONS["negative"] = FUNCTIONS["neg"]
method_as("negative")(Tensor.neg)
FUNCTIONS["absolute"] = FUNCTIONS["abs"]
method_as("absolute")(Tensor.abs)
FUNCTIONS["arcsin"], FUNCTIONS["arccos"], FUNCTIONS["arctan"] = (
    FUNCTIONS["asin"], FUNCTIONS["acos"], FUNCTIONS["atan"],
)  # fmt: skip


# -- binary functions and methods ------------------------------------------------------------


def _binary_api(name: str, alpha: bool = False) -> None:
    packet = getattr(aten, name)
    t_op = packet.Tensor
    s_op = packet.Scalar
    ip = getattr(aten, name + "_")
    ip_t, ip_s = ip.Tensor, ip.Scalar

    if alpha:

        def fn(self: Any, other: Any, *, alpha: Any = 1, out: Tensor | None = None) -> Tensor:
            if out is not None:
                return (
                    packet.out(self, other, alpha=alpha, out=out)
                    if _t(other)
                    else packet.Scalar_out(self, other, alpha, out=out)
                )
            if alpha == 1:
                return t_op(self, other)
            return t_op(self, other, alpha=alpha)

        def meth_(self: Tensor, other: Any, *, alpha: Any = 1) -> Tensor:
            if alpha == 1:
                return ip_t(self, other) if _t(other) else ip_s(self, other)
            return ip_t(self, other, alpha=alpha) if _t(other) else ip_s(self, other, alpha)

    else:

        def fn(self: Any, other: Any, *, out: Tensor | None = None) -> Tensor:  # type: ignore[misc]
            if not _t(self):
                self, other = other, self
                if name not in ("mul", "add", "eq", "ne", "logical_and", "bitwise_and"):
                    raise TypeError(f"{name}(): argument 'input' must be Tensor")
            if out is not None:
                outname = "out" if name in ("mul", "div") else "Tensor_out"
                return (
                    getattr(packet, outname)(self, other, out=out)
                    if _t(other)
                    else packet.Scalar_out(self, other, out=out)
                )
            return t_op(self, other) if _t(other) else s_op(self, other)

        def meth_(self: Tensor, other: Any) -> Tensor:  # type: ignore[misc]
            return ip_t(self, other) if _t(other) else ip_s(self, other)

    fn.__name__ = name
    FUNCTIONS[name] = fn
    setattr(Tensor, name, fn)
    setattr(Tensor, name + "_", meth_)


for _name in ("add", "sub"):
    _binary_api(_name, alpha=True)
for _name in (
    "mul", "remainder", "fmod", "eq", "ne", "lt", "le", "gt", "ge", "bitwise_and",
    "bitwise_or", "bitwise_xor", "bitwise_left_shift", "bitwise_right_shift",
):  # fmt: skip
    _binary_api(_name)
for _alias, _name in (("subtract", "sub"), ("multiply", "mul"), ("greater", "gt"),
                      ("greater_equal", "ge"), ("less", "lt"), ("less_equal", "le"),
                      ("not_equal", "ne")):  # fmt: skip
    FUNCTIONS[_alias] = FUNCTIONS[_name]
    method_as(_alias)(getattr(Tensor, _name))


@function
@method
def div(
    self: Tensor, other: Any, *, rounding_mode: str | None = None, out: Tensor | None = None
) -> Tensor:
    if rounding_mode is not None:
        return aten.div.Tensor_mode(self, other, rounding_mode=rounding_mode)
    return _div(self, other)


@method
def div_(self: Tensor, other: Any, *, rounding_mode: str | None = None) -> Tensor:
    if rounding_mode is not None:
        return aten.div_.Tensor_mode(self, other, rounding_mode=rounding_mode)
    return _div_(self, other) if _t(other) else aten.div_.Scalar(self, other)


FUNCTIONS["divide"] = FUNCTIONS["true_divide"] = div
method_as("divide", "true_divide")(div)


@function
@method
def floor_divide(self: Tensor, other: Any) -> Tensor:
    return aten.div.Tensor_mode(self, other, rounding_mode="floor")


@function
@method
def rsub(self: Tensor, other: Any, *, alpha: Any = 1) -> Tensor:
    return (
        aten.rsub.Tensor(self, other, alpha=alpha)
        if _t(other)
        else aten.rsub.Scalar(self, other, alpha)
    )


@function
@method
def pow(self: Any, exponent: Any) -> Tensor:  # noqa: A001
    if not _t(self):
        return aten.pow.Scalar(self, exponent)
    if _t(exponent):
        return aten.pow.Tensor_Tensor(self, exponent)
    return aten.pow.Tensor_Scalar(self, exponent)


@method
def pow_(self: Tensor, exponent: Any) -> Tensor:
    return aten.pow_.Tensor(self, exponent) if _t(exponent) else aten.pow_.Scalar(self, exponent)


FUNCTIONS["float_power"] = lambda self, exponent: pow(self.double(), exponent)


def _two(name: str) -> None:
    op = getattr(aten, name).default

    def fn(self: Tensor, other: Tensor) -> Tensor:
        return op(self, other)

    fn.__name__ = name
    FUNCTIONS[name] = fn
    setattr(Tensor, name, fn)


for _name in ("atan2", "maximum", "minimum", "fmax", "fmin", "logical_and", "logical_or",
              "logical_xor", "hypot"):  # fmt: skip
    _two(_name)
FUNCTIONS["arctan2"] = FUNCTIONS["atan2"]
for _name in ("atan2", "logical_and", "logical_or", "logical_xor", "hypot"):
    _ip = getattr(aten, _name + "_").default
    setattr(Tensor, _name + "_", (lambda op: lambda self, other: op(self, other))(_ip))


@function
@method
def xlogy(self: Tensor, other: Any) -> Tensor:
    return aten.xlogy.Tensor(self, other)


@function
@method
def copysign(self: Tensor, other: Any) -> Tensor:
    return aten.copysign.Tensor(self, other)


@function
@method
def clamp(self: Tensor, min: Any = None, max: Any = None) -> Tensor:  # noqa: A002
    if _t(min) or _t(max):
        return aten.clamp.Tensor(self, min, max)
    return aten.clamp.default(self, min, max)


@method
def clamp_(self: Tensor, min: Any = None, max: Any = None) -> Tensor:  # noqa: A002
    if _t(min) or _t(max):
        return aten.clamp_.Tensor(self, min, max)
    return aten.clamp_.default(self, min, max)


FUNCTIONS["clip"] = clamp
method_as("clip")(clamp)
method_as("clip_")(clamp_)


@function
@method
def clamp_min(self: Tensor, min: Any) -> Tensor:  # noqa: A002
    return aten.clamp_min.Tensor(self, min) if _t(min) else aten.clamp_min.default(self, min)


@function
@method
def clamp_max(self: Tensor, max: Any) -> Tensor:  # noqa: A002
    return aten.clamp_max.Tensor(self, max) if _t(max) else aten.clamp_max.default(self, max)


@function
@method
def lerp(self: Tensor, end: Tensor, weight: Any) -> Tensor:
    return (
        aten.lerp.Tensor(self, end, weight) if _t(weight) else aten.lerp.Scalar(self, end, weight)
    )


@method
def lerp_(self: Tensor, end: Tensor, weight: Any) -> Tensor:
    return (
        aten.lerp_.Tensor(self, end, weight) if _t(weight) else aten.lerp_.Scalar(self, end, weight)
    )


@function
@method
def addcmul(self: Tensor, tensor1: Tensor, tensor2: Tensor, *, value: Any = 1) -> Tensor:
    return aten.addcmul.default(self, tensor1, tensor2, value=value)


@method
def addcmul_(self: Tensor, tensor1: Tensor, tensor2: Tensor, *, value: Any = 1) -> Tensor:
    return aten.addcmul_.default(self, tensor1, tensor2, value=value)


@function
@method
def addcdiv(self: Tensor, tensor1: Tensor, tensor2: Tensor, *, value: Any = 1) -> Tensor:
    return aten.addcdiv.default(self, tensor1, tensor2, value=value)


@method
def addcdiv_(self: Tensor, tensor1: Tensor, tensor2: Tensor, *, value: Any = 1) -> Tensor:
    return aten.addcdiv_.default(self, tensor1, tensor2, value=value)


@function
@method
def where(condition: Tensor, self: Any = None, other: Any = None) -> Any:
    if self is None and other is None:
        return (
            aten.nonzero_numpy.default(condition)
            if _has("nonzero_numpy")
            else condition.nonzero(as_tuple=True)
        )
    if _t(self) and _t(other):
        return aten.where.self(condition, self, other)
    if _t(self):
        return aten.where.ScalarOther(condition, self, other)
    if _t(other):
        return aten.where.ScalarSelf(condition, self, other)
    return aten.where.Scalar(condition, self, other)


def _where_method(self: Tensor, condition: Tensor, y: Any) -> Tensor:
    return where(condition, self, y)


Tensor.where = _where_method  # type: ignore[attr-defined]


@function
@method
def masked_fill(self: Tensor, mask: Tensor, value: Any) -> Tensor:
    return (
        aten.masked_fill.Tensor(self, mask, value)
        if _t(value)
        else aten.masked_fill.Scalar(self, mask, value)
    )


@method
def masked_fill_(self: Tensor, mask: Tensor, value: Any) -> Tensor:
    return (
        aten.masked_fill_.Tensor(self, mask, value)
        if _t(value)
        else aten.masked_fill_.Scalar(self, mask, value)
    )


@function
@method
def round(self: Tensor, *, decimals: int = 0) -> Tensor:  # noqa: A001
    if decimals:
        return aten.round.decimals(self, decimals=decimals)
    return aten.round.default(self)


@function
@method
def nan_to_num(self: Tensor, nan: float = 0.0, posinf: float | None = None,
               neginf: float | None = None) -> Tensor:  # fmt: skip
    return aten.nan_to_num.default(self, nan, posinf, neginf)


@function
@method
def logit(self: Tensor, eps: float | None = None) -> Tensor:
    return aten.logit.default(self, eps)


def _param_unary(name: str, *defaults: Any) -> None:
    op = getattr(aten, name).default
    names = [d[0] for d in defaults]

    def fn(self: Tensor, *args: Any, **kwargs: Any) -> Tensor:
        return op(self, *args, **kwargs)

    fn.__name__ = name
    FUNCTIONS[name] = fn
    setattr(Tensor, name, fn)
    del names


for _name in ("leaky_relu", "hardtanh", "softplus", "elu", "celu", "threshold", "gelu"):
    _param_unary(_name)
