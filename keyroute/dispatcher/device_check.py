"""The device check of an operator's tensor arguments (PyTorch's common-device check).

A call whose tensors come from more than one backend has a key set with more than one backend
bit; only such a key set's resolution is wrapped by `device_checked`, so calls on one device
(the plain path) pay nothing. The check: every tensor argument is on the device of the first,
except 0-dim CPU tensors (wrapped scalars, allowed with any device, as in PyTorch). Operators
that move data between devices are exempt.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from .keys import DispatchKey
from .keyset import BACKEND_MASK, key_bits

__all__ = ["is_device_mix", "device_checked"]

#: Operators whose arguments may be on different devices (PyTorch's device_check: NoCheck).
NO_DEVICE_CHECK = frozenset(
    {
        "aten::copy_",
        "aten::copy",
        "aten::_copy_from",
        "aten::_copy_from_and_resize",
        "aten::_to_copy",
        "aten::to",
        "aten::set_",
        "aten::lift_fresh",
        "aten::lift_fresh_copy",
        "aten::_has_compatible_shallow_copy_type",
        "aten::is_same_size",
        "aten::_make_dep_token",
        "aten::empty_like",
        "aten::zeros_like",
        "aten::ones_like",
        "aten::full_like",
        "aten::rand_like",
        "aten::randn_like",
        "aten::new_empty",
        "aten::new_zeros",
        "aten::new_ones",
        "aten::new_full",
        "aten::new_empty_strided",
        "aten::index.Tensor",
        "aten::index_put_",
        "aten::index_put",
        "aten::_index_put_impl_",
        "aten::_local_scalar_dense",
        "aten::item",
    }
)


_PYTHON_BITS = key_bits(DispatchKey.Python) | key_bits(DispatchKey.PythonTLSSnapshot)


def is_device_mix(ks: int) -> bool:
    """Whether key set ks has tensors of more than one backend (CPU, Meta, ...). With the
    Python key (a mode or a subclass handles the call: FakeTensorMode checks devices itself)
    the check is left to the kernels below, as in PyTorch."""
    b = ks & BACKEND_MASK
    return b & (b - 1) != 0 and not ks & _PYTHON_BITS


def device_checked(op: Any, fn: Callable[..., Any]) -> Callable[..., Any]:
    """fn, after checking that op's tensor arguments share one device (see the module doc)."""
    name = op.qualified_name()
    if name in NO_DEVICE_CHECK or op._name in NO_DEVICE_CHECK:
        return fn
    tensor_args = op._tensor_args

    def check_devices(*args: Any, **kwargs: Any) -> Any:
        expected = None
        n = len(args)
        for i, arg_name, _kind in tensor_args:
            v = args[i] if i < n else kwargs.get(arg_name)
            for t in v if isinstance(v, (list, tuple)) else (v,):
                if getattr(t, "_key_set", None) is None:
                    continue
                dev = t.device
                if dev.type == "cpu" and t.dim() == 0:
                    continue
                if expected is None:
                    expected = dev
                elif dev != expected:
                    raise RuntimeError(
                        f"Tensor on device {dev} is not on the expected device {expected}!"
                    )
        return fn(*args, **kwargs)

    return check_devices
