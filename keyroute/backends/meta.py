"""The Meta backend: every operator's meta function, registered on the Meta key.

A meta tensor has a shape, strides, a dtype and no data: running an operator on it runs only
the operator's meta function (keyroute/aten), which returns meta tensors describing the
outputs. Meta functions are registered after every operator module has loaded.
"""

from __future__ import annotations

from ..aten._define import META_FUNCTIONS
from ..library import Library

__all__ = ["register_all", "meta_lib"]

meta_lib = Library._internal("aten", "IMPL")
_registered: set = set()


def register_all() -> None:
    """Register every meta function not yet registered (idempotent)."""
    for op, fn in META_FUNCTIONS.items():
        if op in _registered:
            continue
        # A CompositeImplicitAutograd op decomposes on meta too: no Meta kernel (as PyTorch).
        if op.has_kernel_for_dispatch_key(151):
            continue
        meta_lib.impl(op, fn, "Meta")
        _registered.add(op)
