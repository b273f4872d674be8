"""More `_foreach_*` operators, the ones torch.optim's foreach paths call (aten/foreach.py has
the ones nn.utils calls). PyTorch's CPU build runs them on its slow path: one per-tensor
operator per list element, below the dispatcher, so a dispatch mode sees the single _foreach
call. Each overload family is made here from its per-tensor operator: Scalar, List,
ScalarList and Tensor overloads, out-of-place (returning a new list) and in place (`_`).

The schemas are PyTorch's native_functions.yaml ones; the checks (lengths, empty lists) raise
PyTorch's messages before any tensor is written.
"""

from __future__ import annotations

from typing import Any

from ._define import composite_explicit
from .linalg import op

__all__: list[str] = []


def _check(self: Any, *others: Any) -> None:
    """PyTorch's check_foreach_api_restrictions: a non-empty list, every other list (or
    scalar list) the same length."""
    if len(self) == 0:
        raise RuntimeError("Tensor list must have at least one tensor.")
    for o in others:
        if len(o) != len(self):
            raise RuntimeError(
                f"Tensor lists must have the same number of tensors, got {len(self)} and {len(o)}"
            )


def _binary(name: str, per: str, alpha: bool, tensor_overload: bool) -> None:
    """`_foreach_<name>` and `_foreach_<name>_` over the per-tensor `<per>` (add, sub, mul,
    div, maximum, minimum): Scalar, List, ScalarList (and Tensor) overloads."""
    a_sig = ", *, Scalar alpha=1" if alpha else ""
    forms = [
        ("Scalar", "Scalar scalar", ""),
        ("List", f"Tensor[] other{a_sig}", "list"),
        ("ScalarList", "Scalar[] scalars", "scalars"),
    ]
    if tensor_overload:
        forms.append(("Tensor", f"Tensor other{a_sig}", ""))
    for overload, args, kind in forms:
        per_t = f"{per}.Tensor" if overload in ("List", "Tensor") else f"{per}.Scalar"
        per_i = f"{per}_.Tensor" if overload in ("List", "Tensor") else f"{per}_.Scalar"
        if per in ("maximum", "minimum"):
            per_t, per_i = per, f"{per}"  # PyTorch: maximum(self, other) per tensor
        _make(name, overload, args, kind, per_t, per_i, alpha and overload in ("List", "Tensor"))


def _make(
    name: str, overload: str, args: str, kind: str, per_t: str, per_i: str, alpha: bool
) -> None:
    outplace = f"_foreach_{name}.{overload}(Tensor[] self, {args}) -> Tensor[]"
    inplace = f"_foreach_{name}_.{overload}(Tensor(a!)[] self, {args}) -> ()"
    is_max = name in ("maximum", "minimum")

    def pairs(self: Any, other: Any) -> Any:
        if kind:
            _check(self, other)
            return zip(self, other)
        _check(self)
        return ((t, other) for t in self)

    def out_fn(self: Any, other: Any, *, alpha: Any = 1) -> Any:
        f = op(per_t)
        if alpha != 1 and not is_max:
            return [f(t, o, alpha=alpha) for t, o in pairs(self, other)]
        if is_max and kind != "list":
            return [f(t, _full_like(t, o)) for t, o in pairs(self, other)]
        return [f(t, o) for t, o in pairs(self, other)]

    def in_fn(self: Any, other: Any, *, alpha: Any = 1) -> None:
        if is_max:
            # PyTorch's slow path: maximum(self, other, out=self) per tensor
            f = op(f"{name}.out")
            for t, o in list(pairs(self, other)):
                f(t, o if kind == "list" else _full_like(t, o), out=t)
            return
        f = op(per_i)
        for t, o in list(pairs(self, other)):
            if alpha != 1:
                f(t, o, alpha=alpha)
            else:
                f(t, o)

    if not alpha:
        out_fn2, in_fn2 = _no_alpha(out_fn), _no_alpha(in_fn)
    else:
        out_fn2, in_fn2 = out_fn, in_fn
    composite_explicit(outplace)(out_fn2)
    composite_explicit(inplace)(in_fn2)


def _no_alpha(fn: Any) -> Any:
    def call(self: Any, other: Any) -> Any:
        return fn(self, other)

    return call


def _full_like(t: Any, v: Any) -> Any:
    return op("full_like")(t, v)


def _unary(name: str) -> None:
    """`_foreach_<name>(Tensor[] self) -> Tensor[]` and `_foreach_<name>_`."""
    per, per_ = op(name), op(f"{name}_")

    def out_fn(self: Any) -> Any:
        _check(self)
        return [per(t) for t in self]

    def in_fn(self: Any) -> None:
        _check(self)
        for t in self:
            per_(t)

    composite_explicit(f"_foreach_{name}(Tensor[] self) -> Tensor[]")(out_fn)
    composite_explicit(f"_foreach_{name}_(Tensor(a!)[] self) -> ()")(in_fn)


def _pointwise(name: str) -> None:
    """`_foreach_addcmul` / `_foreach_addcdiv`: Scalar, ScalarList and Tensor overloads."""
    per, per_ = op(f"{name}"), op(f"{name}_")
    head = "Tensor[] tensor1, Tensor[] tensor2"
    forms = [
        ("Scalar", "Scalar value=1", "scalar"),
        ("ScalarList", "Scalar[] scalars", "list"),
        ("Tensor", "Tensor scalars", "tensor"),
    ]
    for overload, arg, kind in forms:

        def values(self: Any, t1: Any, t2: Any, v: Any, kind: str = kind) -> list[Any]:
            _check(self, t1, t2)
            if kind == "scalar":
                return [v] * len(self)
            if kind == "tensor":
                # PyTorch's Tensor overload: a 1-d CPU tensor of one value per list element
                vals = v.tolist()
                _check(self, vals)
                return vals
            _check(self, v)
            return list(v)

        # the last argument comes by its schema name too (value= / scalars=)
        def out_fn(
            self: Any, tensor1: Any, tensor2: Any, *v: Any, values: Any = values, **kw: Any
        ) -> Any:
            vs = values(
                self, tensor1, tensor2, v[0] if v else kw.get("value", kw.get("scalars", 1))
            )
            return [per(s, a, b, value=x) for s, a, b, x in zip(self, tensor1, tensor2, vs)]

        def in_fn(
            self: Any, tensor1: Any, tensor2: Any, *v: Any, values: Any = values, **kw: Any
        ) -> None:
            vs = values(
                self, tensor1, tensor2, v[0] if v else kw.get("value", kw.get("scalars", 1))
            )
            for s, a, b, x in zip(self, tensor1, tensor2, vs):
                per_(s, a, b, value=x)

        composite_explicit(f"_foreach_{name}.{overload}(Tensor[] self, {head}, {arg}) -> Tensor[]")(
            out_fn
        )
        composite_explicit(f"_foreach_{name}_.{overload}(Tensor(a!)[] self, {head}, {arg}) -> ()")(
            in_fn
        )


def _lerp() -> None:
    for overload, arg, listed in (
        ("List", "Tensor[] weights", True),
        ("Scalar", "Scalar weight", False),
        ("ScalarList", "Scalar[] weight", True),
    ):
        per = op("lerp.Tensor" if overload == "List" else "lerp.Scalar")
        per_ = op("lerp_.Tensor" if overload == "List" else "lerp_.Scalar")

        def triples(self: Any, ends: Any, w: Any, listed: bool = listed) -> Any:
            _check(self, ends, *([w] if listed else []))
            return zip(self, ends, w if listed else [w] * len(self))

        def out_fn(self: Any, tensors1: Any, w: Any, triples: Any = triples, per: Any = per) -> Any:
            return [per(s, e, x) for s, e, x in triples(self, tensors1, w)]

        def in_fn(
            self: Any, tensors1: Any, w: Any, triples: Any = triples, per_: Any = per_
        ) -> None:
            for s, e, x in triples(self, tensors1, w):
                per_(s, e, x)

        composite_explicit(
            f"_foreach_lerp.{overload}(Tensor[] self, Tensor[] tensors1, {arg}) -> Tensor[]"
        )(out_fn)
        composite_explicit(
            f"_foreach_lerp_.{overload}(Tensor(a!)[] self, Tensor[] tensors1, {arg}) -> ()"
        )(in_fn)


@composite_explicit("_foreach_zero_(Tensor(a!)[] self) -> ()")
def _foreach_zero_(self):
    _check(self)
    for t in self:
        op("zero_")(t)


@composite_explicit(
    "_foreach_copy_(Tensor(a!)[] self, Tensor[] src, bool non_blocking=False) -> ()"
)
def _foreach_copy_(self, src, non_blocking=False):
    _check(self, src)
    for t, s in zip(self, src):
        op("copy_")(t, s, non_blocking)


_binary("add", "add", alpha=True, tensor_overload=True)
_binary("sub", "sub", alpha=True, tensor_overload=False)
_binary("div", "div", alpha=False, tensor_overload=True)
_binary("maximum", "maximum", alpha=False, tensor_overload=False)
_binary("minimum", "minimum", alpha=False, tensor_overload=False)
for _n in ("neg", "sqrt", "abs", "exp", "log", "reciprocal", "sign", "sigmoid", "tanh"):
    _unary(_n)
_pointwise("addcmul")
_pointwise("addcdiv")
_lerp()
# _foreach_mul's Scalar/Tensor overloads are in aten/foreach.py (clip_grad's); List/ScalarList:
_make("mul", "List", "Tensor[] other", "list", "mul.Tensor", "mul_.Tensor", False)
_make("mul", "ScalarList", "Scalar[] scalars", "scalars", "mul.Scalar", "mul_.Scalar", False)
