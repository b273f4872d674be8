"""PyTorch's route for an out-of-tree backend on PrivateUse1 (torch.utils.backend_registration).

`rename_privateuse1_backend("npu")` makes "npu" the device type of the PrivateUse1 backend
component (kernels stay registered on the PrivateUse1 keys); `generate_methods_for_privateuse1_
backend()` adds `Tensor.npu()`, `Tensor.is_npu`, `Module.npu()`, PackedSequence's and (with
`for_storage=True`) the storages' methods; `keyroute._register_device_module("npu", module)`
makes `keyroute.npu` the backend's runtime module. As in PyTorch, the rename is once per
process, and each generated method may be added once. For any number of backends beyond
PrivateUse1, see keyroute.dispatcher.register_backend.
"""

from __future__ import annotations

import sys
from typing import Any

__all__ = ["rename_privateuse1_backend", "generate_methods_for_privateuse1_backend"]

_PRIVATEUSE1 = 13  # BackendComponent.PrivateUse1Bit
_name = ["privateuseone"]
_renamed: list[bool] = []


def _get_privateuse1_backend_name() -> str:
    """torch._C._get_privateuse1_backend_name."""
    return _name[0]


def rename_privateuse1_backend(backend_name: str) -> None:
    """Make `backend_name` the device type of PrivateUse1 ("privateuseone" still parses)."""
    from ..dispatcher.operator import REGISTRY_LOCK
    from ..layers import autocast
    from ..tensor import _tensor, device

    with REGISTRY_LOCK:
        current = _name[0]
        if _renamed:  # once per process, as PyTorch (even a rename to "privateuseone" counts)
            if backend_name == current:
                return
            raise RuntimeError(
                f"torch.register_privateuse1_backend() has already been set! Current backend: "
                f"{current}"
            )
        if backend_name == "privateuseone":
            _renamed.append(True)
            return
        if backend_name in device.DEVICE_TYPES or backend_name in device.RESERVED_DEVICE_TYPES:
            raise RuntimeError(
                f"Cannot register privateuse1 backend with in-tree device name: {backend_name}"
            )
        device.DEVICE_TYPES.pop("privateuseone")
        device.add_device_type(backend_name, _PRIVATEUSE1)
        device.DEVICE_ALIASES["privateuseone"] = backend_name
        _tensor._DEVICE_BY_BACKEND[_PRIVATEUSE1] = device.StorageDevice(
            device.DEVICE_OF_BACKEND[_PRIVATEUSE1]
        )
        autocast.add_device_type(backend_name, "privateuseone")
        _name[0] = backend_name
        _renamed.append(True)


def _check_register_once(owner: Any, attr: str) -> None:
    if hasattr(owner, attr):
        raise RuntimeError(
            f"The custom device module of {owner} has already been registered with {attr}"
        )


def _normalization_device(name: str, device: Any = None) -> int:
    """The device index a generated method moves to (the runtime module's current_device(),
    else 0), as PyTorch's helper decides it."""
    import keyroute

    from ..tensor.device import Device

    def current() -> int:
        mod = getattr(keyroute, name, None)
        fn = getattr(mod, "current_device", None)
        return fn() if fn is not None else 0

    if device is None:
        return current()
    if isinstance(device, str):
        device = Device(device)
    if isinstance(device, Device):
        if device.type != name:
            raise RuntimeError(f"Invalid device, must be {name} device")
        return current() if device.index is None else device.index
    return int(device)


def _tensor_methods(name: str) -> None:
    from ..tensor._tensor import Tensor
    from ..tensor.device import Device

    def is_backend(self: Tensor) -> bool:
        return self.device.type == name

    is_backend.__name__ = f"is_{name}"
    _check_register_once(Tensor, f"is_{name}")
    setattr(Tensor, f"is_{name}", property(is_backend))

    def to_backend(
        self: Tensor, device: Any = None, non_blocking: bool = False, **kwargs: Any
    ) -> Tensor:
        index = _normalization_device(name, device)
        return self.to(device=Device(name, index), non_blocking=non_blocking, **kwargs)

    to_backend.__name__ = name
    _check_register_once(Tensor, name)
    setattr(Tensor, name, to_backend)


def _module_methods(name: str) -> None:
    import keyroute  # keyroute.nn imports keyroute.utils: reach Module through the package

    from ..tensor._tensor import Tensor

    Module = keyroute.nn.Module  # noqa: N806

    if not hasattr(Tensor, name):
        raise RuntimeError(
            f"Can not automatically generate {name}() method for torch.nn.Module.Because "
            f"torch.Tensor doesn't has the method {name}().For this error, you can try setting "
            f"for_tensor=True."
        )

    def to_backend(self: Any, device: Any = None) -> Any:
        return self._apply(lambda t: getattr(t, name)(device))

    to_backend.__name__ = name
    _check_register_once(Module, name)
    setattr(Module, name, to_backend)


def _packed_sequence_methods(name: str) -> None:
    import keyroute

    from ..tensor._tensor import Tensor

    PackedSequence = keyroute.nn.utils.rnn.PackedSequence  # noqa: N806

    if not hasattr(Tensor, f"is_{name}") or not hasattr(Tensor, name):
        raise RuntimeError(
            f"Can not automatically generate is_{name}() or {name}() method for "
            f"torch.nn.utils.rnn.PackedSequence.Because torch.Tensor doesn't has the method "
            f"is_{name}()or {name}().For this error, you can try setting for_tensor=True."
        )
    _check_register_once(PackedSequence, f"is_{name}")
    setattr(PackedSequence, f"is_{name}", property(lambda self: self.data.device.type == name))

    def to_backend(self: Any, *args: Any, **kwargs: Any) -> Any:
        kwargs.setdefault("device", name)
        return self.to(*args, **kwargs)

    _check_register_once(PackedSequence, name)
    setattr(PackedSequence, name, to_backend)


def _storage_methods(name: str, unsupported_dtype: Any) -> None:
    from ..storage import TypedStorage
    from ..tensor.storage import UntypedStorage

    _check_register_once(UntypedStorage, f"is_{name}")
    setattr(UntypedStorage, f"is_{name}", property(lambda self: self.device.type == name))

    def untyped_to(self: Any, device: Any = None, non_blocking: bool = False) -> Any:
        import keyroute

        index = _normalization_device(name, device)
        if self.device.type == name and (self.device.index or 0) == index:
            return self
        raw = keyroute.tensor(list(self._bytes().tobytes()), dtype=keyroute.uint8)
        return raw.to(f"{name}:{index}").untyped_storage()

    _check_register_once(UntypedStorage, name)
    setattr(UntypedStorage, name, untyped_to)

    _check_register_once(TypedStorage, f"is_{name}")
    setattr(TypedStorage, f"is_{name}", property(lambda self: self.device.type == name))

    def typed_to(self: Any, device: Any = None, non_blocking: bool = False, **kwargs: Any) -> Any:
        if unsupported_dtype and self.dtype in unsupported_dtype:
            raise RuntimeError(
                f"Cannot create {name} storage as {self.dtype} dtype is not supported by this "
                f"backend"
            )
        moved = getattr(self._untyped_storage, name)(device, non_blocking, **kwargs)
        return TypedStorage(moved, self.dtype)

    _check_register_once(TypedStorage, name)
    setattr(TypedStorage, name, typed_to)


def generate_methods_for_privateuse1_backend(
    for_tensor: bool = True,
    for_module: bool = True,
    for_packed_sequence: bool = True,
    for_storage: bool = False,
    unsupported_dtype: list[Any] | None = None,
) -> None:
    """Add `Tensor.<name>()`, `Tensor.is_<name>`, `Module.<name>()`, PackedSequence's and the
    storages' methods for the renamed PrivateUse1 backend (each once: a second call raises)."""
    name = _get_privateuse1_backend_name()
    if for_tensor:
        _tensor_methods(name)
    if for_module:
        _module_methods(name)
    if for_storage:
        _storage_methods(name, unsupported_dtype)
    if for_packed_sequence:
        _packed_sequence_methods(name)


def register_device_module(device_type: str, module: Any) -> None:
    """keyroute._register_device_module: `keyroute.<device_type>` is `module` from now on."""
    import keyroute

    from ..tensor.device import Device

    device_type = Device(device_type).type
    if hasattr(keyroute, device_type):
        raise RuntimeError(
            f"The runtime module of '{device_type}' has already been registered with "
            f"'{getattr(keyroute, device_type)}'"
        )
    setattr(keyroute, device_type, module)
    sys.modules[f"{keyroute.__name__}.{device_type}"] = module
