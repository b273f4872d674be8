"""The AOT step of the "aot_eager" and "inductor" backends: the captured graph through AOT
Autograd (keyroute._functorch.aot_autograd), its forward and backward graphs handed to a
graph compiler (None: run them through the dispatcher)."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any


def aot_compile(
    gm: Any,
    example_inputs: list[Any],
    compiler: Callable[..., Any] | None,
    partition_fn: Callable[..., Any] | None = None,
) -> Any:
    """`partition_fn`: the joint graph's partitioner (default: PyTorch's default_partition,
    as aot_eager uses; inductor passes the min-cut recompute partitioner, as PyTorch's)."""
    from .._functorch.aot_autograd import aot_function, default_partition

    fn = aot_function(gm, compiler, compiler, partition_fn=partition_fn or default_partition)

    from ..tensor._tensor import Tensor

    training = getattr(gm, "_kr_outputs_need_grad", True)

    def run(*args: Any) -> Any:
        if training:
            out = fn(*args)
        else:
            # No output needs a gradient: AOT Autograd's inference graph (as PyTorch's, which
            # finds none of the outputs requires grad and drops the joint graph).
            from ..autograd.grad_mode import no_grad

            with no_grad():
                out = fn(*args)
        # aot_function returns a lone output bare; the runtime reads a sequence.
        return (out,) if isinstance(out, Tensor) else out

    return run
