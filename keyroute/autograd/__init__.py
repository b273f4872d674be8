"""Autograd as dispatcher layers: the Autograd keys record the graph, ADInplaceOrView keeps
version counters and views honest."""

from . import fallback  # noqa: F401  (registers the autograd fallback on the Autograd keys)
from .grad_mode import (
    enable_grad,
    inference_mode,
    is_grad_enabled,
    is_inference_mode_enabled,
    no_grad,
    set_grad_enabled,
)

__all__ = [
    "enable_grad",
    "inference_mode",
    "is_grad_enabled",
    "is_inference_mode_enabled",
    "no_grad",
    "set_grad_enabled",
]


def _register_aten_layers() -> None:
    """Register the ADInplaceOrView kernels of every aten operator (from their schemas)."""
    from ..aten._define import aten_lib
    from ..dispatcher.operator import all_ops
    from .inplace_or_view import register_for

    for op in all_ops():
        if (
            op.namespace == "aten"
            and op._schema is not None
            and not op.has_kernel_for_dispatch_key(19)
        ):
            register_for(op, aten_lib)
