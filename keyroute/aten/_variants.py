"""In-place and out= variants derived from the functional operator.

PyTorch has three forms of most operators: `add.Tensor`, `add_.Tensor` (writes self) and
`add.out` (writes `out=`). keyroute defines all three from their schemas; the variants get a
CompositeExplicitAutograd kernel that runs the functional op and copies the result, with
PyTorch's checks (the result must broadcast to self's shape and be castable to its dtype; `out`
is resized, with PyTorch's warning when it had elements). A backend may register a direct kernel
for a variant (the CPU backend does for the hot in-place ops): a direct kernel wins over CEA.
"""

from __future__ import annotations

import warnings
from collections.abc import Sequence
from typing import Any

from ..dispatcher.operator import OpOverload
from ..dispatcher.registration import register_helper_file
from ..tensor.dtype import can_cast
from ._define import aten, aten_lib, defop

register_helper_file(__file__)

__all__ = ["inplace_variant", "out_variant", "check_inplace", "resize_output", "check_out_dtype"]


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


def out_variant(
    schema: str, functional: OpOverload | str, outs: Sequence[str] = ("out",)
) -> OpOverload:
    """Define the out= op `schema` computed by `functional` (the out arguments removed)."""
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
        result = fn(*args, **kwargs)
        results = result if isinstance(result, tuple) else (result,)
        for target, value in zip(targets, results):
            check_out_dtype(target, value._dtype)
            resize_output(target, value._data.shape)
            copy_(target, value)
        return targets[0] if len(targets) == 1 else tuple(targets)

    out_kernel.__name__ = op.__name__
    aten_lib.impl(op, out_kernel, "CompositeExplicitAutograd")
    return op
