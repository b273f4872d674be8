"""In-place and out= variants derived from the functional operator.

PyTorch has three forms of most operators: `add.Tensor`, `add_.Tensor` (writes self) and
`add.out` (writes `out=`). keyroute defines all three from their schemas; the variants get a
CompositeExplicitAutograd kernel that runs the functional op and copies the result, with
PyTorch's checks (the result must broadcast to self's shape and be castable to its dtype; `out`
is resized, with PyTorch's warning when it had elements). A backend may register a direct kernel
for a variant (the CPU backend does for the hot in-place ops): a direct kernel wins over CEA.

`out_variant` is the one builder of out= forms, for every operator family. What differs between
families is PyTorch's rule for out's dtype, a named check (`castable`, `same_dtype`,
`same_dtype_as_input`, `dot_dtype`, `any_dtype`), and sometimes a check or an argument taken
from out before the functional runs (`before`, e.g. `dtype_from_out`). Every out is checked
before any is written, so a failed call leaves all of them unchanged.
"""

from __future__ import annotations

import warnings
from collections.abc import Callable, Sequence
from typing import Any

from ..dispatcher.operator import OpOverload
from ..dispatcher.registration import register_helper_file
from ..tensor.dtype import can_cast
from ._define import aten, aten_lib, defop

register_helper_file(__file__)

__all__ = [
    "inplace_variant",
    "out_variant",
    "check_inplace",
    "resize_output",
    "check_out_dtype",
    "check_out_dtype_equal",
    "write_out",
    "castable",
    "same_dtype",
    "same_dtype_as_input",
    "dot_dtype",
    "any_dtype",
    "dtype_from_out",
]


def _short(dt: Any) -> str:
    return dt._short


def check_inplace(self: Any, result_shape: tuple[int, ...], result_dtype: Any) -> None:
    """PyTorch's checks for writing a result into self."""
    if tuple(result_shape) != tuple(self._data.shape):
        raise RuntimeError(
            f"output with shape {list(self._data.shape)} doesn't match the broadcast shape "
            f"{list(result_shape)}"
        )
    if not can_cast(result_dtype, self._dtype):
        raise RuntimeError(
            f"result type {_short(result_dtype)} can't be cast to the desired output type "
            f"{_short(self._dtype)}"
        )


def check_out_dtype(out: Any, result_dtype: Any) -> None:
    if not can_cast(result_dtype, out._dtype):
        raise RuntimeError(
            f"result type {_short(result_dtype)} can't be cast to the desired output type "
            f"{_short(out._dtype)}"
        )


def resize_output(out: Any, shape: Sequence[int]) -> None:
    """at::native::resize_output: resize `out` to shape, warning if it had other elements."""
    shape = tuple(shape)
    if tuple(out._data.shape) == shape:
        return
    if out.numel() != 0:
        warnings.warn(
            f"An output with one or more elements was resized since it had shape "
            f"{list(out._data.shape)}, which does not match the required output shape "
            f"{list(shape)}. This behavior is deprecated, and in a future PyTorch release "
            f"outputs will not be resized unless they have zero elements. You can explicitly "
            f"reuse an out tensor t by resizing it, inplace, to zero elements with "
            f"t.resize_(0).",
            UserWarning,
            stacklevel=3,
        )
    aten("resize_").__call__(out, list(shape))


def inplace_variant(schema: str, functional: OpOverload | str) -> OpOverload:
    """Define the in-place op `schema` (first argument `Tensor(a!) self`) computed by
    `functional` with the same remaining arguments."""
    op = defop(schema)
    fn = aten(functional) if isinstance(functional, str) else functional
    copy_ = aten("copy_")

    def inplace(self: Any, *args: Any, **kwargs: Any) -> Any:
        result = fn(self, *args, **kwargs)
        check_inplace(self, result._data.shape, result._dtype)
        copy_(self, result)
        return self

    inplace.__name__ = op.__name__
    aten_lib.impl(op, inplace, "CompositeExplicitAutograd")
    return op


def check_out_dtype_equal(out: Any, result_dtype: Any) -> None:
    """Structured kernels' out= check: out's dtype must be exactly the result's."""
    if out._dtype is not result_dtype:
        raise RuntimeError(
            f"Expected out tensor to have dtype {result_dtype._cpp}, but got {out._dtype._cpp} "
            f"instead"
        )


def write_out(out: Any, value: Any) -> None:
    """Resize out to value's shape (resize_output) and copy value into it, keeping out's
    strides."""
    resize_output(out, value._data.shape)
    aten("copy_")(out, value)


# ----------------------------------------------------------------------------- out dtype rules
# A rule is called as rule(out, result) for each out, after the functional ran and before
# anything is written.

#: The rule's type: (out tensor, result tensor) -> None, raising on a mismatch.
OutCheck = Callable[[Any, Any], None]


def castable(out: Any, result: Any) -> None:
    """TensorIterator with type promotion: the result dtype must be castable to out's."""
    check_out_dtype(out, result._dtype)


def same_dtype(out: Any, result: Any) -> None:
    """Structured kernels and generated out wrappers: exactly the result's dtype."""
    check_out_dtype_equal(out, result._dtype)


def same_dtype_as_input(out: Any, result: Any) -> None:
    """amax/amin (whose result has self's dtype): out's dtype must be self's, in their own
    words."""
    if out._dtype is not result._dtype:
        raise RuntimeError(
            f"Expected the dtype for input and out to match, but got {result._dtype._short} "
            f"for input's dtype and {out._dtype._short} for out's dtype."
        )


def dot_dtype(out: Any, result: Any) -> None:
    """dot/vdot (whose result has the inputs' dtype): exactly that dtype, in their own words."""
    if out._dtype is not result._dtype:
        raise RuntimeError(
            f"result dtype {out._dtype._short} does not match input dtype {result._dtype._short}"
        )


def any_dtype(out: Any, result: Any) -> None:
    """Comparisons and logical ops (and rules checked in `before`): any out dtype."""


def dtype_from_out(targets: Sequence[Any], args: list[Any], kwargs: dict[str, Any]) -> None:
    """Structured sum/prod/cumsum: a missing dtype= is taken from out."""
    if kwargs.get("dtype") is None:
        kwargs["dtype"] = targets[0]._dtype


#: A check before the functional runs: (outs, positional args, keyword args) -> None; it may
#: raise, or set an argument (`dtype_from_out`).
Before = Callable[[Sequence[Any], list[Any], dict[str, Any]], None]


def out_variant(
    schema: str,
    functional: OpOverload | str,
    outs: Sequence[str] = ("out",),
    *,
    check: OutCheck = castable,
    before: Before | None = None,
) -> OpOverload:
    """Define the out= op `schema` computed by `functional` (the out arguments removed): each
    out is checked by `check`, then resized and written (see the module docstring)."""
    op = defop(schema)
    fn = aten(functional) if isinstance(functional, str) else functional
    copy_ = aten("copy_")
    out_names = tuple(outs)
    positions = {a.name: i for i, a in enumerate(op._schema.arguments)}

    def out_kernel(*args: Any, **kwargs: Any) -> Any:
        args = list(args)
        targets = []
        for name in out_names:
            if name in kwargs:
                targets.append(kwargs.pop(name))
            else:  # passed positionally (rare): take it out of args
                targets.append(args.pop(positions[name]))
        if before is not None:
            before(targets, args, kwargs)
        result = fn(*args, **kwargs)
        results = result if isinstance(result, tuple) else (result,)
        for target, value in zip(targets, results):
            check(target, value)
        for target, value in zip(targets, results):
            resize_output(target, value._data.shape)
            copy_(target, value)
        return targets[0] if len(targets) == 1 else tuple(targets)

    out_kernel.__name__ = op.__name__
    aten_lib.impl(op, out_kernel, "CompositeExplicitAutograd")
    return op
