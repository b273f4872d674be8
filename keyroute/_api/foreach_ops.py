"""torch._foreach_* functions over aten/foreach_ops.py: the overload is picked from the
second argument as PyTorch's parser does (a Tensor list -> List, a number list ->
ScalarList, a Tensor -> Tensor, a number -> Scalar)."""

from __future__ import annotations

from typing import Any

from ..aten.linalg import op as _op
from ..tensor._tensor import Tensor
from . import function


def _overload(other: Any) -> str:
    if isinstance(other, Tensor):
        return "Tensor"
    if isinstance(other, (list, tuple)):
        return "List" if other and isinstance(other[0], Tensor) else "ScalarList"
    return "Scalar"


def _binary(name: str, has_tensor: bool) -> None:
    def out(self: list[Tensor], other: Any, **kw: Any) -> Any:
        o = _overload(other)
        if o == "Tensor" and not has_tensor:
            o = "List"
        return _op(f"_foreach_{name}.{o}")(list(self), _listed(other), **kw)

    out.__name__ = out.__qualname__ = f"_foreach_{name}"
    globals()[out.__name__] = function(out)

    def inplace(self: list[Tensor], other: Any, **kw: Any) -> None:
        o = _overload(other)
        _op(f"_foreach_{name}_.{o}")(list(self), _listed(other), **kw)

    inplace.__name__ = inplace.__qualname__ = f"_foreach_{name}_"
    globals()[inplace.__name__] = function(inplace)


def _listed(x: Any) -> Any:
    return list(x) if isinstance(x, tuple) else x


def _unary(name: str) -> None:
    def out(self: list[Tensor]) -> Any:
        return _op(f"_foreach_{name}")(list(self))

    def inplace(self: list[Tensor]) -> None:
        _op(f"_foreach_{name}_")(list(self))

    for fn, n in ((out, f"_foreach_{name}"), (inplace, f"_foreach_{name}_")):
        fn.__name__ = fn.__qualname__ = n
        globals()[n] = function(fn)


def _pointwise(name: str) -> None:
    def pick(v: Any) -> str:
        if isinstance(v, Tensor):
            return "Tensor"
        return "ScalarList" if isinstance(v, (list, tuple)) else "Scalar"

    def out(self: list[Tensor], tensor1: Any, tensor2: Any, value: Any = 1) -> Any:
        return _op(f"_foreach_{name}.{pick(value)}")(
            list(self), list(tensor1), list(tensor2), _listed(value)
        )

    def inplace(self: list[Tensor], tensor1: Any, tensor2: Any, value: Any = 1) -> None:
        _op(f"_foreach_{name}_.{pick(value)}")(
            list(self), list(tensor1), list(tensor2), _listed(value)
        )

    for fn, n in ((out, f"_foreach_{name}"), (inplace, f"_foreach_{name}_")):
        fn.__name__ = fn.__qualname__ = n
        globals()[n] = function(fn)


def _lerp_overload(w: Any) -> str:
    if isinstance(w, (list, tuple)):
        return "List" if w and isinstance(w[0], Tensor) else "ScalarList"
    return "Scalar"


@function
def _foreach_lerp(self: list[Tensor], tensors1: Any, weight: Any) -> Any:
    return _op(f"_foreach_lerp.{_lerp_overload(weight)}")(
        list(self), list(tensors1), _listed(weight)
    )


@function
def _foreach_lerp_(self: list[Tensor], tensors1: Any, weight: Any) -> None:
    _op(f"_foreach_lerp_.{_lerp_overload(weight)}")(list(self), list(tensors1), _listed(weight))


@function
def _foreach_zero_(self: list[Tensor]) -> None:
    _op("_foreach_zero_")(list(self))


@function
def _foreach_copy_(self: list[Tensor], src: Any, non_blocking: bool = False) -> None:
    _op("_foreach_copy_")(list(self), list(src), non_blocking)


for _n, _t in (
    ("add", True),
    ("sub", False),
    ("mul", True),
    ("div", True),
    ("maximum", False),
    ("minimum", False),
):
    _binary(_n, _t)
for _n in ("neg", "sqrt", "abs", "exp", "log", "reciprocal", "sign", "sigmoid", "tanh"):
    _unary(_n)
_pointwise("addcmul")
_pointwise("addcdiv")
