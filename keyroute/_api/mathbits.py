"""Python API of the complex views and math bits (aten/mathbits.py): torch.conj,
torch.conj_physical, torch.resolve_conj, torch.resolve_neg, torch._neg_view, torch.is_conj,
torch.view_as_real, torch.view_as_complex, torch.real, torch.imag, and the Tensor methods
and `.real` / `.imag` properties (views; assigning to them copies into the view)."""

from __future__ import annotations

from typing import Any

from .._ops import ops
from ..tensor._tensor import Tensor
from . import function, method
from ._out import write_out

A = ops.aten


@function
@method
def conj(input: Tensor) -> Tensor:  # noqa: A002
    return A.conj.default(input)


@function
@method
def conj_physical(input: Tensor, *, out: Tensor | None = None) -> Tensor:  # noqa: A002
    return write_out(A.conj_physical.default(input), out)


@method
def conj_physical_(self: Tensor) -> Tensor:
    if not self._dtype.is_complex:
        return self
    return A.conj_physical_.default(self)


@function
@method
def resolve_conj(input: Tensor) -> Tensor:  # noqa: A002
    return A.resolve_conj.default(input)


@function
@method
def resolve_neg(input: Tensor) -> Tensor:  # noqa: A002
    return A.resolve_neg.default(input)


@function
@method
def _neg_view(input: Tensor) -> Tensor:  # noqa: A002
    return A._neg_view.default(input)


@function
@method
def _conj(input: Tensor) -> Tensor:  # noqa: A002
    return A._conj.default(input)


@function
@method
def is_conj(input: Tensor) -> bool:  # noqa: A002
    return A.is_conj.default(input)


@function
@method
def is_neg(input: Tensor) -> bool:  # noqa: A002
    return A.is_neg.default(input)


@function
def view_as_real(input: Tensor) -> Tensor:  # noqa: A002
    return A.view_as_real.default(input)


@function
def view_as_complex(input: Tensor) -> Tensor:  # noqa: A002
    return A.view_as_complex.default(input)


@function
def real(input: Tensor) -> Tensor:  # noqa: A002
    return A.real.default(input)


@function
def imag(input: Tensor) -> Tensor:  # noqa: A002
    return A.imag.default(input)


def _set_part(name: str) -> Any:
    def setter(self: Tensor, value: Any) -> None:
        getattr(A, name).default(self).copy_(value)

    return setter


Tensor.real = property(lambda self: A.real.default(self), _set_part("real"))  # type: ignore[assignment]
Tensor.imag = property(lambda self: A.imag.default(self), _set_part("imag"))  # type: ignore[assignment]


@function
def _efficientzerotensor(
    *size: Any, dtype: Any = None, layout: Any = None, device: Any = None, pin_memory: Any = None
) -> Tensor:
    """torch._efficientzerotensor(size, *, dtype, ...): an all-zero tensor with the ZeroTensor
    key (keyroute/layers/zerotensor.py)."""
    if len(size) == 1 and isinstance(size[0], (list, tuple)):
        size = tuple(size[0])
    return A._efficientzerotensor.default(
        list(size), dtype=dtype, layout=layout, device=device, pin_memory=pin_memory
    )


@function
@method
def _is_zerotensor(self: Tensor) -> bool:  # torch._is_zerotensor(t) and t._is_zerotensor()
    return A._is_zerotensor.default(self)
