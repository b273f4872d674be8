"""torch.nn.modules.lazy: LazyModuleMixin, the modules whose parameter shapes come from the
first input.

Until its first call a lazy module holds UninitializedParameter / UninitializedBuffer
placeholders (empty tensors that know they are placeholders). A forward pre-hook calls
`initialize_parameters(*input)`, which materializes them with the input's sizes, resets them
as the eager module would, and turns the module into its `cls_to_become` (LazyLinear becomes
Linear), as PyTorch's mixin does.
"""

from __future__ import annotations

from typing import Any

from ..._api import creation as _creation
from ..parameter import Parameter, UninitializedBuffer, UninitializedParameter, is_lazy

__all__ = ["LazyModuleMixin"]


class LazyModuleMixin:
    """Mix-in for modules that infer parameter shapes from their first input."""

    cls_to_become: Any = None

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)  # type: ignore[call-arg]
        self._lazy_hook = self.register_forward_pre_hook(_infer_parameters)  # type: ignore[attr-defined]

    def has_uninitialized_params(self) -> bool:
        tensors = list(self._parameters.values()) + list(self._buffers.values())  # type: ignore[attr-defined]
        return any(is_lazy(t) for t in tensors)

    def initialize_parameters(self, *args: Any, **kwargs: Any) -> None:
        raise NotImplementedError(
            f"initialize_parameters is not implemented for {self.__class__.__name__}"
        )


def _infer_parameters(module: Any, args: tuple[Any, ...]) -> None:
    module.initialize_parameters(*args)
    if module.has_uninitialized_params():
        raise RuntimeError(f"module {module._get_name()} has not been fully initialized")
    module._lazy_hook.remove()
    del module._lazy_hook
    if module.cls_to_become is not None:
        module.__class__ = module.cls_to_become


def materialize(t: Any, shape: tuple[int, ...]) -> Any:
    """A real tensor of `shape` for the placeholder t (its dtype; a Parameter stays one)."""
    data = _creation.empty(shape, dtype=t.dtype)
    if isinstance(t, UninitializedParameter):
        return Parameter(data, t.requires_grad)
    if isinstance(t, UninitializedBuffer):
        return data
    return t
