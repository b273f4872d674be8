"""torch.__future__: switches for behaviour PyTorch plans to change (module conversion).

`set_overwrite_module_params_on_conversion(True)` makes `module.to(...)` / `.float()` give
parameters new objects instead of changing `.data` in place; `set_swap_module_params_on_conversion`
swaps the tensors' contents (torch.utils.swap_tensors) so references stay valid.
"""

from __future__ import annotations

__all__ = [
    "set_overwrite_module_params_on_conversion",
    "get_overwrite_module_params_on_conversion",
    "set_swap_module_params_on_conversion",
    "get_swap_module_params_on_conversion",
]

_overwrite_module_params_on_conversion: bool = False
_swap_module_params_on_conversion: bool = False


def set_overwrite_module_params_on_conversion(value: bool) -> None:
    global _overwrite_module_params_on_conversion
    _overwrite_module_params_on_conversion = value


def get_overwrite_module_params_on_conversion() -> bool:
    return _overwrite_module_params_on_conversion


def set_swap_module_params_on_conversion(value: bool) -> None:
    global _swap_module_params_on_conversion
    _swap_module_params_on_conversion = value


def get_swap_module_params_on_conversion() -> bool:
    return _swap_module_params_on_conversion
