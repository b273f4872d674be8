"""The kernels every backend gets without writing them (PyTorch's CompositeExplicitAutograd ones).

`_to_copy` is registered as PyTorch has it, CompositeExplicitAutograd (the CPU and Meta keys keep
keyroute's own kernels): it allocates the result on the target device and copies into it with
`copy_`, which dispatches to the higher-priority backend of the two tensors: so
`cpu_tensor.to("dask")` and `dask_tensor.to("cpu")` both run the run-time backend's own `copy_`
kernel, as in PyTorch. The CPU kernel of `_to_copy` sends copies to another device here too
(`to_device`).
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

__all__ = ["install", "to_device", "to_copy_kernel"]

_libs: list[Any] = []  # held: a dropped Library takes its registrations with it


def to_device(self: Any, dtype: Any, device: Any, memory_format: Any = None) -> Any:
    """A copy of `self` as `dtype` on `device`: allocate there, then `copy_` into it."""
    from ..aten._define import aten
    from ..tensor.layout import to_memory_format

    mf = to_memory_format(memory_format)
    channels_last = mf is not None and mf.name == "channels_last"
    out = aten("empty.memory_format")(
        list(self.shape),
        dtype=dtype,
        device=device,
        memory_format=mf if channels_last else None,
    )
    aten("copy_")(out, self)
    return out


def to_copy_kernel(move: Callable[[Any, Any, Any, Any], Any]) -> Callable[..., Any]:
    """A `_to_copy` kernel (aten's signature) that resolves its dtype and target device, then
    calls `move(self, dtype, device, memory_format)`: one definition of the argument handling
    for the CompositeExplicitAutograd kernel below and for backends with a copy of their own
    (keyroute/dask/kernels.py keeps a dask-to-dask cast lazy)."""
    from ..tensor.device import Device
    from ..tensor.dtype import to_dtype

    def _to_copy(
        self: Any,
        *,
        dtype: Any = None,
        layout: Any = None,
        device: Any = None,
        pin_memory: Any = None,
        non_blocking: bool = False,
        memory_format: Any = None,
    ) -> Any:
        dt = self._dtype if dtype is None else to_dtype(dtype)
        return move(self, dt, self.device if device is None else Device(device), memory_format)

    return _to_copy


def register_composites() -> None:
    """`_to_copy`'s CompositeExplicitAutograd kernel (kernels/cpu/core.py calls this once)."""
    from ..aten._define import aten_lib

    aten_lib.impl("_to_copy", to_copy_kernel(to_device), "CompositeExplicitAutograd")


def install(info: Any) -> None:
    """A run-time backend's defaults: the fallthrough of its Autocast key."""
    from ..library import Library, fallthrough_kernel

    fallback = Library("_", "IMPL")
    fallback._builtin = True  # a backend may replace it (Library.fallback replace_builtin=True)
    fallback.fallback(fallthrough_kernel, info.autocast_key.name)
    _libs.append(fallback)
