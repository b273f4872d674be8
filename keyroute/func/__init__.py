"""keyroute.func: PyTorch's torch.func (vmap, grad, vjp, jvp, jacrev, jacfwd, hessian,
functional_call, stack_module_state, linearize, functionalize)."""

from __future__ import annotations

from .._functorch.eager_transforms import (
    grad,
    grad_and_value,
    hessian,
    jacfwd,
    jacrev,
    jvp,
    linearize,
    vjp,
)
from .._functorch.functional_call import functional_call, stack_module_state
from .._functorch.functionalize import functionalize
from .._functorch.vmap import vmap

__all__ = [
    "vmap",
    "grad",
    "grad_and_value",
    "vjp",
    "jacrev",
    "jvp",
    "jacfwd",
    "hessian",
    "linearize",
    "functional_call",
    "stack_module_state",
    "functionalize",
]
