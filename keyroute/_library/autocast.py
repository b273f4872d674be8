"""torch.library.register_autocast and CustomOpDef.register_autocast: an Autocast{CPU,CUDA}
kernel for a custom operator that casts its floating-point inputs on that device type (not
float64) to `cast_inputs`, then calls the operator again with the device's Autocast key
excluded, as PyTorch's (torch/library.py, torch/_library/custom_ops.py).
"""

from __future__ import annotations

import collections.abc
from typing import Any

from .._naming import type_repr
from ..dispatcher.registration import Library

__all__ = ["register_on_op", "register_on_opdef", "autocast_kernel", "cast_inputs_of"]

#: Libraries of the registrations made without `lib=` (kept alive, as PyTorch's _keep_alive).
_KEEP_ALIVE: list[Library] = []


def cast_inputs_of(value: Any, device_type: str, dtype: Any) -> Any:
    """PyTorch's custom-op `_cast`: eligible tensors (floating, on the device type, not
    float64) anywhere in lists/tuples/iterables become `dtype`; strings stay as they are."""
    from ..tensor._tensor import Tensor
    from ..tensor.dtype import float64

    if isinstance(value, Tensor):
        eligible = (
            value.is_floating_point()
            and value.device.type == device_type
            and value.dtype is not float64
        )
        return value.to(dtype) if eligible else value
    if isinstance(value, (str, bytes)):
        return value
    if isinstance(value, collections.abc.Iterable):
        items = (cast_inputs_of(v, device_type, dtype) for v in value)
        return type(value)(items) if isinstance(value, (list, tuple)) else items
    return value


def _check_device(device_type: Any) -> str:
    from ..amp.autocast_mode import is_autocast_available

    if not isinstance(device_type, str):
        raise ValueError(f"Expected `device_type` of type `str`, got: `{type_repr(device_type)}`")
    from ..layers.autocast import _KNOWN_DEVICE_TYPES

    if device_type not in _KNOWN_DEVICE_TYPES.split(", "):  # c10's device-string parse
        raise RuntimeError(
            f"Expected one of {_KNOWN_DEVICE_TYPES} device type at start of device string: "
            f"{device_type}"
        )
    if not is_autocast_available(device_type):
        raise ValueError(f"Device type '{device_type}' does not support autocast.")
    return device_type


def autocast_kernel(op: Any, device_type: str, cast_inputs: Any) -> Any:
    """The Autocast kernel of one operator: cast, then call below the device's Autocast key."""
    from ..layers.autocast import _call_below

    def kernel(*args: Any, **kwargs: Any) -> Any:
        if kwargs:
            raise AssertionError(f"Custom ops do not support kwargs yet, got {list(kwargs)}")
        return _call_below(op, device_type, cast_inputs_of(args, device_type, cast_inputs), {})

    kernel.__name__ = f"autocast_{device_type}_{op._name.split('::')[-1]}"
    return kernel


def _key(device_type: str) -> str:
    from ..layers.autocast import _KEYS

    return _KEYS[device_type].name


def register_on_op(target: Any, device_type: Any, cast_inputs: Any, lib: Any) -> Any:
    """torch.library.register_autocast on an operator that no CustomOpDef manages."""
    _check_device(device_type)
    if lib is None:
        lib = Library(target.namespace, "FRAGMENT")
        _KEEP_ALIVE.append(lib)
    kernel = autocast_kernel(target, device_type, cast_inputs)
    return lib.impl(target, kernel, _key(device_type))


def register_on_opdef(opdef: Any, device_type: Any, cast_inputs: Any) -> Any:
    """CustomOpDef.register_autocast: the first registration per device type wins."""
    _check_device(device_type)
    seen = opdef.__dict__.setdefault("_autocast_dtype", {})
    kernel = autocast_kernel(opdef._opoverload, device_type, cast_inputs)
    if seen.get(device_type) is None:
        seen[device_type] = cast_inputs
        opdef._lib.impl(opdef._opoverload, kernel, _key(device_type))
    return kernel
