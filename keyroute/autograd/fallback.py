"""The autograd fallback: what an Autograd key runs for an operator with no autograd kernel.

Every aten operator has its own autograd kernel (autograd/kernels.py: a formula, a passthrough,
the out= refusal, or NotImplemented, as PyTorch's codegen gives them), so this fallback serves
custom (non-aten) operators, as PyTorch's does.

As PyTorch's default ("warn" mode): the operator runs below autograd *without* disabling
autograd for what it calls, so a kernel made of differentiable operators still records a graph;
outputs that need a gradient but got no graph node get one that warns when backward reaches it.
When no input requires grad it is a pure passthrough (Note [plain path] in dispatcher/operator).
"""

from __future__ import annotations

from typing import Any

from ..dispatcher.keys import DispatchKey
from ..dispatcher.keyset import REQUIRES_GRAD_BIT, DispatchKeySet, full_after_bits
from ..dispatcher.operator import LayerKernel
from ..library import Library

__all__ = ["AutogradFallback"]

_AFTER_AUTOGRAD = full_after_bits(DispatchKey.AutogradOther)


class AutogradFallback(LayerKernel):
    def passthrough(self, ks: int) -> int | None:
        return ks & _AFTER_AUTOGRAD if not ks & REQUIRES_GRAD_BIT else None

    def __call__(self, keyset: DispatchKeySet, op: Any, *args: Any, **kwargs: Any) -> Any:
        out = op._redispatch(keyset.repr_ & _AFTER_AUTOGRAD, *args, **kwargs)
        from .warn_node import attach_warning_nodes

        attach_warning_nodes(op, args, kwargs, out)
        return out


autograd_fallback = AutogradFallback()
_lib = Library._internal("_", "IMPL")
for _key in (
    "AutogradOther",
    "AutogradCPU",
    "AutogradCUDA",
    "AutogradXLA",
    "AutogradMPS",
    "AutogradXPU",
    "AutogradHPU",
    "AutogradLazy",
    "AutogradMTIA",
    "AutogradMAIA",
    "AutogradPrivateUse1",
    "AutogradMeta",
):
    _lib.fallback(autograd_fallback, DispatchKey[_key], with_keyset=True)
