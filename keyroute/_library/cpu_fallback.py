"""A boxed CPU fallback for backends: PyTorch's `at::native::cpu_fallback`, in Python.

A backend opts in with one registration and then runs every operator it has no kernel for:

    lib = keyroute.library.Library("_", "IMPL")
    lib.fallback(keyroute.library.cpu_fallback, "Dask")

For an operator reaching it, the fallback (as CPUFallback.cpp does):
1. copies every tensor argument (and each tensor of a list argument) to CPU with `.to("cpu")`
   (the backend's `copy_`), and replaces a `Device` argument by CPU, keeping it as the target;
2. redispatches the operator to its CPU kernel;
3. copies the CPU results of mutated arguments (`Tensor(a!)`: in-place and `out=`) back into
   the caller's tensors with `copy_` (a result of another shape takes the new data whole);
4. returns, for a mutable-alias return, the caller's own tensor; for every other tensor result,
   its copy on the target device (the Device argument's, else the first tensor argument's, else
   the first tensor of a list argument). A view operator gets a copy, not a view (PyTorch's
   warning says so: storage cannot be shared across devices).

It warns once per operator and device (the text of PyTorch's MPS fallback, whose wrapper around
cpu_fallback warns; cpu_fallback itself is silent); a view operator's warning says, as
PyTorch's does, that it got a copy.
"""

from __future__ import annotations

import threading
import warnings
from typing import Any

__all__ = ["cpu_fallback", "fallback_warning", "view_warning"]

_warned: set[tuple[str, str]] = set()
_lock = threading.Lock()
_MISSING = object()


def fallback_warning(op_name: str, device_type: str) -> str:
    """The warning the fallback gives the first time `op_name` falls back from `device_type`."""
    return (
        f"The operator '{op_name}' is not currently supported on the {device_type} backend and "
        f"will fall back to run on the CPU. This may have performance implications."
    )


def _is_tensor(v: Any) -> bool:
    from ..tensor._tensor import Tensor

    return isinstance(v, Tensor)


def _to_cpu(v: Any) -> Any:
    if _is_tensor(v):
        return v if v.device.type == "cpu" else v.to("cpu")
    if isinstance(v, (list, tuple)) and any(_is_tensor(x) for x in v):
        return type(v)(_to_cpu(x) for x in v)
    return v


def _copy_back(dst: Any, src: Any) -> None:
    """PyTorch's _copy_from_and_resize: src's values into dst (on dst's device)."""
    if tuple(dst.shape) == tuple(src.shape):
        dst.copy_(src)
        return
    moved = src.to(dst.device)  # an out= argument resized by the CPU kernel
    dst._data = moved._data


def cpu_fallback(op: Any, *args: Any, **kwargs: Any) -> Any:
    """Run `op` on CPU copies of the arguments and bring the results back (see the module doc).

    Register it as a backend fallback: `Library("_", "IMPL").fallback(cpu_fallback, key)`."""
    from ..dispatcher.keys import DispatchKey
    from ..dispatcher.keyset import DispatchKeySet
    from ..tensor.device import Device

    schema = op._schema
    params = schema.arguments
    n = len(args)
    values = [args[i] if i < n else kwargs.get(a.name, _MISSING) for i, a in enumerate(params)]
    target = None
    first_list_device = None
    cpu_values: list[Any] = []
    for a, v in zip(params, values):
        if isinstance(v, Device) or (isinstance(v, str) and "Device" in str(a.type)):
            target = Device(v)
            v = Device("cpu")
        elif a.kind and v is not _MISSING:
            if first_list_device is None and isinstance(v, (list, tuple)):
                first_list_device = next((x.device for x in v if _is_tensor(x)), None)
            v = _to_cpu(v)
        cpu_values.append(v)
    tensors = [v for v in values if _is_tensor(v)]
    if target is None:
        target = tensors[0].device if tensors else first_list_device
    source = next((t.device for t in tensors if t.device.type != "cpu"), target)
    _warn_once(op, source, any(r.alias_info is not None and not r.is_write for r in schema.returns))

    cpu_args = cpu_values[:n]
    cpu_kwargs = {
        a.name: cpu_values[i]
        for i, a in enumerate(params)
        if i >= n and a.name in kwargs and cpu_values[i] is not _MISSING
    }
    out = op.redispatch(DispatchKeySet(DispatchKey.CPU), *cpu_args, **cpu_kwargs)

    for i in schema.mutated_arg_indices:  # in-place and out= results back into the inputs
        orig, cpu = values[i], cpu_values[i]
        if _is_tensor(orig) and orig is not cpu:
            _copy_back(orig, cpu)
        elif isinstance(orig, (list, tuple)):
            for o, c in zip(orig, cpu):
                if _is_tensor(o) and o is not c:
                    _copy_back(o, c)

    returns = schema.returns
    single = len(returns) == 1
    outs = (out,) if single else tuple(out) if isinstance(out, (list, tuple)) else (out,)
    result = []
    for r, o, src in zip(returns, outs, schema.aliased_returns):
        if r.alias_info is not None and r.alias_info.is_write and src is not None:
            result.append(values[src])  # the caller's own tensor, updated above
            continue
        result.append(_to_target(o, target))
    if len(outs) < len(result) or (not single and not isinstance(out, (list, tuple))):
        return out
    return result[0] if single else type(out)(result)


def _to_target(v: Any, target: Any) -> Any:
    if target is None or target.type == "cpu":
        return v
    if _is_tensor(v):
        return v.to(target)
    if isinstance(v, (list, tuple)) and any(_is_tensor(x) for x in v):
        return type(v)(x.to(target) if _is_tensor(x) else x for x in v)
    return v


def _warn_once(op: Any, device: Any, view: bool) -> None:
    if device is None or device.type == "cpu":
        return
    name = op.qualified_name()
    key = (name, device.type)
    with _lock:
        if key in _warned:
            return
        _warned.add(key)
    text = fallback_warning(name, device.type)
    if view:
        text += " " + view_warning(name, device)
    warnings.warn(text, UserWarning, stacklevel=4)


def view_warning(op_name: str, device: Any) -> str:
    """PyTorch's warning for a view operator that falls back (it returns a copy)."""
    return (
        f"The operator {op_name} appears to be a view operator, but it has no implementation "
        f'for the backend "{device}". View operators don\'t support falling back to run on the '
        f"CPU, since the tensor's storage cannot be shared across devices."
    )
