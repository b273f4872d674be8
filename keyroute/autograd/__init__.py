"""Autograd, the graph: the engine, graph nodes and edges, `Function`, grad modes, gradcheck
and the derivative formulas. The dispatch layers that build the graph (the Autograd keys'
kernels and fallback, ADInplaceOrView) are in keyroute/layers/."""

from . import tensor_api  # noqa: F401  (Tensor.backward, .grad, .grad_fn, hooks)
from .anomaly_mode import detect_anomaly, set_detect_anomaly
from .engine import backward, is_anomaly_enabled
from .function import Function, FunctionCtx, once_differentiable
from .grad_mode import (
    enable_grad,
    inference_mode,
    is_grad_enabled,
    is_inference_mode_enabled,
    no_grad,
    set_grad_enabled,
)
from .gradcheck import GradcheckError, gradcheck, gradgradcheck

__all__ = [
    "Function",
    "FunctionCtx",
    "GradcheckError",
    "backward",
    "detect_anomaly",
    "grad",
    "is_anomaly_enabled",
    "gradcheck",
    "gradgradcheck",
    "once_differentiable",
    "set_detect_anomaly",
    "enable_grad",
    "inference_mode",
    "is_grad_enabled",
    "is_inference_mode_enabled",
    "no_grad",
    "set_grad_enabled",
]


def _register_aten_layers() -> None:
    """Register every aten operator's ADInplaceOrView kernel (from its schema) and autograd
    kernel (from the derivatives table)."""
    from ..dispatcher.keys import DispatchKey
    from ..dispatcher.operator import all_ops
    from ..dispatcher.registration import Library
    from ..layers import autograd as kernels
    from ..layers.inplace_or_view import register_for

    lib = Library._internal("aten", "IMPL")
    for op in all_ops():
        if op.namespace != "aten" or op._schema is None:
            continue
        if not op.has_kernel_for_dispatch_key(DispatchKey.ADInplaceOrView):
            register_for(op, lib)
    from ..layers import foreach_autograd

    foreach_autograd.register(lib)  # the _foreach_*/_fused_* kernels, before the generic ones
    kernels.register_all(lib)


from . import forward_ad, functional, graph  # noqa: E402, F401  (torch.autograd.forward_ad, ...)
from .multi_grad_hook import register_multi_grad_hook as _multi  # noqa: E402

# torch.autograd.graph.register_multi_grad_hook lives in its own module (it needs the engine,
# which imports graph): installed here so graph.py stays below the engine.
graph.register_multi_grad_hook = _multi
from . import gradient_edge as _edge  # noqa: E402

graph.GradientEdge = _edge.GradientEdge
graph.get_gradient_edge = _edge.get_gradient_edge
graph.increment_version = _edge.increment_version
from .grad_api import grad  # noqa: E402  (GradientEdge and __torch_function__ aware: PyTorch's)
