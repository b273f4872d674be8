"""How an elementwise operator is defined: ``_family`` makes the functional form, its in-place
(``name_``) and out= forms from one dtype/shape rule, with PyTorch's checks for each kind of
kernel."""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import Any

from ...tensor._tensor import Tensor
from ...tensor.dtype import (
    bool_,
    dtype,
)
from ...tensor.memory_overlap import assert_no_partial_overlap
from .._define import aten, aten_lib, defop, register_meta
from .._meta_util import shape_of
from .._variants import any_dtype, castable, out_variant, same_dtype
from .checks import _check_cast, _result, check_inplace_shape

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
        _no_partial_overlap(self, args, kwargs)
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


def _no_partial_overlap(written: Tensor, args: tuple[Any, ...], kwargs: dict[str, Any]) -> None:
    """TensorIterator's first check, before shapes and dtypes: the written tensor may be an
    input (the same memory, the same geometry) but may not partly overlap one."""
    for a in (*args, *kwargs.values()):
        if a.__class__ is Tensor or isinstance(a, Tensor):
            assert_no_partial_overlap(written, a)


def _out(schema: str, functional: Any, rule: Rule | None, check: str = "cast") -> Any:
    """Define an out= op computed by `functional` (with `_variants.out_variant`, the one out=
    builder). TensorIterator checks out before the kernel runs: a partial overlap with an
    input, then out's dtype against `rule`'s result dtype. `check` names PyTorch's rule for
    out's dtype: "cast" (TensorIterator with promotion: the result must be castable to out),
    "found" (unary TensorIterator ops: same dtype, "Found dtype Long but expected Float"),
    "cpp" (out wrappers generated for CompositeExplicitAutograd ops: same dtype, C++ type
    names), "any" (comparisons, logical ops: any dtype), "bool" (signbit & co: bool out only),
    "nan_to_num" (its own words)."""
    name = schema.partition("(")[0].partition(".")[0]

    def before(targets: Sequence[Tensor], args: list[Any], kwargs: dict[str, Any]) -> None:
        out = targets[0]
        _no_partial_overlap(out, args, kwargs)
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

    after = {"cast": castable, "cpp": same_dtype}.get(check, any_dtype)
    return out_variant(schema, functional, check=after, before=before)


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
