"""Ternary elementwise operators: lerp, addcmul/addcdiv, where and masked_fill."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from ...tensor._tensor import Tensor
from ...tensor.dtype import (
    bool_,
    dtype,
    uint8,
)
from .._define import aten, aten_lib, composite, defop
from .._meta_util import shape_of
from .._promotion import result_type
from .._shape import broadcast_shapes
from .._variants import write_out
from .checks import check_support, checked_scalar
from .family import _family

# -- ternary


def lerp_check(self: Tensor, end: Tensor, weight: Any, op: str) -> dtype:
    dt = self._dtype
    if end._dtype is not dt:
        raise RuntimeError(f"expected dtype {dt._cpp} for `end` but got dtype {end._dtype._cpp}")
    if isinstance(weight, Tensor) and weight._dtype is not dt:
        raise RuntimeError(
            f"expected dtype {dt._cpp} for `weight` but got dtype {weight._dtype._cpp}"
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
    write_out(out, result)
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
    from ...tensor.layout import strided

    checked_scalar(value, dt)  # scalar_tensor's fill_ converts with c10's overflow check
    return aten("scalar_tensor")(value, dtype=dt, layout=strided, device=like.device)


def _to(t: Tensor, dt: dtype) -> Tensor:
    """Tensor.to(dtype) as PyTorch's where composites call it: the operator aten::to (a
    _to_copy only when the dtype changes; a profile shows the call either way)."""
    return aten("to.dtype")(t, dt)


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
            f"masked_fill_ only supports boolean masks, but got mask with dtype {mask._dtype._cpp}"
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
