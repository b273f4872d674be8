"""Devices: `Device("cpu")`, `Device("meta")`, `Device("cuda:0")`, and the default-device context.

`keyroute.device` is both the type and, used as a context manager, the default device for
factories inside the block (as `with torch.device("meta"):`).

>>> Device("cuda:1")
device(type='cuda', index=1)
>>> str(Device("meta"))
'meta'
"""

from __future__ import annotations

import threading
from typing import Any

__all__ = [
    "Device",
    "device",
    "default_device",
    "DEVICE_TYPES",
    "add_device_type",
    "StorageDevice",
]

# Device type -> backend component index (BackendComponent numbering, CPU = 1 ... Meta = 16).
DEVICE_TYPES = {
    "cpu": 1,
    "cuda": 2,
    "hip": 3,
    "xla": 4,
    "mps": 5,
    "ipu": 6,
    "xpu": 7,
    "hpu": 8,
    "ve": 9,
    "lazy": 10,
    "mtia": 11,
    "maia": 12,
    "privateuseone": 13,
    "meta": 16,
}
#: Device types c10 knows but keyroute has no backend for (a run-time backend may not take them).
RESERVED_DEVICE_TYPES = frozenset(
    "mkldnn opengl opencl ideep fpga vulkan metal privateuseone privateusetwo".split()
)
#: The device a tensor of each backend component reports (index -> Device); run-time backends
#: and a renamed PrivateUse1 report index 0, as PyTorch's do.
DEVICE_OF_BACKEND: dict[int, Device] = {}


#: Old names of renamed device types ("privateuseone" after rename_privateuse1_backend).
DEVICE_ALIASES: dict[str, str] = {}


def add_device_type(name: str, index: int) -> None:
    """Make `name` a device type of backend component `index` (dispatcher/open_keys.py,
    utils/backend_registration.py)."""
    DEVICE_TYPES[name] = index
    DEVICE_OF_BACKEND[index] = Device(name, 0)


class Device:
    """A device: type and optional index (torch.device)."""

    __slots__ = ("type", "index", "_saved")

    def __new__(cls, type: Any = None, index: int | None = None) -> Device:  # noqa: A002
        if isinstance(type, Device):
            return type
        if isinstance(type, int) and not isinstance(type, bool):
            type, index = "cuda", type
        if not isinstance(type, str):
            raise TypeError(f"device() received an invalid combination of arguments: {type!r}")
        text = type
        if text == "":
            raise RuntimeError("Device string must not be empty")
        if ":" in text:
            if index is not None:
                raise RuntimeError(
                    f"type (string) must not include an index because index was passed "
                    f"explicitly: {text}"
                )
            text, _, idx = text.partition(":")
            if not idx.isdigit() or (len(idx) > 1 and idx[0] == "0"):
                raise RuntimeError(f"Invalid device string: '{type}'")
            index = int(idx)
        if text != text.strip() or any(c.isspace() for c in text):
            raise RuntimeError(f"Invalid device string: '{type}'")
        if text not in DEVICE_TYPES and text in DEVICE_ALIASES:
            text = DEVICE_ALIASES[text]
        if text not in DEVICE_TYPES:
            raise RuntimeError(
                "Expected one of cpu, cuda, ipu, xpu, mkldnn, opengl, opencl, ideep, hip, ve, "
                "fpga, maia, xla, lazy, vulkan, mps, meta, hpu, mtia, privateuseone device type "
                f"at start of device string: {type}"
            )
        if index is not None and index < 0:
            raise RuntimeError("Device index must not be negative")
        key = (text, index)
        cached = _INTERNED.get(key)
        if cached is not None:
            return cached
        self = object.__new__(cls)
        self.type = text
        self.index = index
        _INTERNED[key] = self
        return self

    def __repr__(self) -> str:
        if self.index is None:
            return f"device(type='{self.type}')"
        return f"device(type='{self.type}', index={self.index})"

    def __str__(self) -> str:
        return self.type if self.index is None else f"{self.type}:{self.index}"

    def __eq__(self, other: object) -> bool:
        # As torch.device: equal only to another device (device("cpu") == "cpu" is False).
        if not isinstance(other, Device):
            return False
        return self.type == other.type and self.index == other.index

    def __hash__(self) -> int:
        return hash((self.type, self.index))

    def __reduce__(self) -> Any:
        return (Device, (self.type, self.index))

    # -- default-device context
    def __enter__(self) -> Device:
        stack = _default_stack()
        stack.append(self)
        return self

    def __exit__(self, *exc: object) -> None:
        _default_stack().pop()


class StorageDevice:
    """Where a tensor of an out-of-tree backend (run-time, or the renamed PrivateUse1) lives.

    PyTorch keeps the device in the tensor's storage (the allocator's DataPtr), so an "npu:1"
    tensor reports index 1. Here the backend's data object says so through the
    `__keyroute_device__` attribute (a Device, set by the backend's allocation kernel from its
    `device=` argument); data that names none (a bare ndarray) reports index 0. Tensor.device
    looks here only for these backends: a builtin backend's entry is a plain Device."""

    __slots__ = ("default",)

    def __init__(self, default: Device) -> None:
        self.default = default

    def of(self, data: Any) -> Device:
        found = getattr(data, "__keyroute_device__", None)
        return self.default if found is None else found


_INTERNED: dict[tuple[str, int | None], Device] = {}
device = Device
CPU = Device("cpu")
META = Device("meta")
_local = threading.local()


def _default_stack() -> list[Device]:
    stack = getattr(_local, "stack", None)
    if stack is None:
        stack = _local.stack = []
    return stack


def default_device() -> Device:
    """The device factories use when none is given (innermost `with device(...)`, else cpu)."""
    stack = getattr(_local, "stack", None)
    return stack[-1] if stack else CPU
