"""The backend fallbacks a plain `import torch` installs, on the same keys.

Fallthroughs: BackendSelect, ADInplaceOrView, the Autocast keys of CPU/MTIA/MAIA/XPU/MPS/CUDA,
FuncTorchVmapMode and VmapMode. The Meta fallback raises PyTorch's "no fake impl or Meta kernel"
error. Layers keyroute does not implement yet (functorch's grad wrapper and back mode,
functionalization, conjugate and
negative views, zero tensors, the tracer, pre-dispatch, the Python dispatcher) get a fallback
that raises naming the layer: their keys appear on no keyroute tensor unless a program includes
them by hand. Autograd, Python and PythonTLSSnapshot fallbacks are registered by their layers;
FuncTorchBatched and FuncTorchDynamicLayerFrontMode by keyroute/layers/functorch.py.
"""

from __future__ import annotations

from typing import Any

from ..dispatcher.registration import Library, fallthrough_kernel

__all__ = ["fallback_lib"]

fallback_lib = Library._internal("_", "IMPL")
fallback_lib._builtin = True  # a user fallback may replace these (replace_builtin=True)

for _key in (
    "BackendSelect",
    "ADInplaceOrView",
    "AutocastCPU",
    "AutocastMTIA",
    "AutocastMAIA",
    "AutocastXPU",
    "AutocastMPS",
    "AutocastCUDA",
    "FuncTorchVmapMode",
    "VmapMode",
):
    fallback_lib.fallback(fallthrough_kernel, _key)


def _meta_fallback(op: Any, *args: Any, **kwargs: Any) -> Any:
    raise NotImplementedError(
        f"{op.qualified_name()}: attempted to run this operator with Meta tensors, but there was "
        f"no fake impl or Meta kernel registered. You may have run into this message while using "
        f"an operator with PT2 compilation APIs (torch.compile/torch.export); in order to use "
        f"this operator with those APIs you'll need to add a fake impl. Please see the following "
        f"for next steps:  https://pytorch.org/tutorials/advanced/custom_ops_landing_page.html"
    )


fallback_lib.fallback(_meta_fallback, "Meta")


def _missing_layer(layer: str) -> Any:
    def fallback(op: Any, *args: Any, **kwargs: Any) -> Any:
        raise NotImplementedError(
            f"{op.qualified_name()}: the {layer} key is set, but keyroute does not implement the "
            f"{layer} layer yet; remove the key from the thread-local include set."
        )

    return fallback


for _key in (
    "FuncTorchDynamicLayerBackMode",
    "Conjugate",
    "Negative",
    "ZeroTensor",
    "Tracer",
    "BatchedNestedTensor",
    "Batched",
    "FuncTorchGradWrapper",
    "PythonDispatcher",
):
    fallback_lib.fallback(_missing_layer(_key), _key)
