"""The device check of an operator's tensor arguments (PyTorch's common-device check).

A call whose tensors come from more than one backend has a key set with more than one backend
bit; only such a key set's resolution is wrapped by `device_checked`, so calls on one device
(the plain path) pay nothing. The check: every tensor argument is on the device of the first,
except 0-dim CPU tensors (wrapped scalars, allowed with any device, as in PyTorch). Operators
that move data between devices are exempt, and so are decomposing (CompositeImplicitAutograd)
operators: the operators they call check.

Where PyTorch checks differs by kernel, and the probes of tests/reliability record it: its
TensorIterator kernels check devices on every backend; a call with meta tensors among CPU ones
otherwise lands on a Meta kernel, which checks nothing (the meta function's own shape and
dtype errors come first, or it returns a meta result), and an out= form then refuses to copy
the meta result into a CPU out.
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


_CPU_AND_META = frozenset({"cpu", "meta"})


def _cross_device_copy(src: Any, dst: Any) -> str:
    return (
        f"Attempting to copy from device {src} to device {dst}, but cross-device copies are "
        "not allowed!"
    )


# Structured TensorIterator kernels that PyTorch does not tag `pointwise`.
_UNTAGGED_TENSOR_ITERATOR = frozenset(
    {"complex", "polar", "mse_loss", "special_xlog1py", "special_zeta"}
)


def _is_tensor_iterator_op(name: str) -> bool:
    """Whether op `name` is built on TensorIterator in PyTorch (any overload of it tagged
    pointwise, its pointwise backward, or one of the untagged ones): TensorIterator checks
    its operands' devices on every backend, Meta included. Backward operators keep the check
    too (most are TensorIterator kernels)."""
    from .._functorch._op_classes import POINTWISE

    base = name.removeprefix("aten::").partition(".")[0]
    bases = _pointwise_bases(POINTWISE)
    return (
        base in bases
        or base.rstrip("_") in bases
        or base in _UNTAGGED_TENSOR_ITERATOR
        or base.endswith("_backward")
    )


_bases_cache: list = []


def _pointwise_bases(pointwise: frozenset[str]) -> frozenset[str]:
    if not _bases_cache:
        _bases_cache.append(frozenset(p.partition(".")[0] for p in pointwise))
    return _bases_cache[0]


def device_checked(op: Any, fn: Callable[..., Any]) -> Callable[..., Any]:
    """fn, after checking that op's tensor arguments share one device (see the module doc)."""
    name = op.qualified_name()
    if name in NO_DEVICE_CHECK or op._name in NO_DEVICE_CHECK:
        return fn
    if op.has_kernel_for_dispatch_key(DispatchKey.CompositeImplicitAutograd):
        return fn  # no check at a decomposing operator: the operators it calls check
    outs = {a.name for a in op._schema.arguments if a.is_out}
    iterates = _is_tensor_iterator_op(name)
    # Inputs first, then the out= tensors: the inputs' device is the result's.
    tensor_args = sorted(op._tensor_args, key=lambda t: t[1] in outs)

    def check_devices(*args: Any, **kwargs: Any) -> Any:
        n = len(args)
        if not iterates:
            devices = []
            for i, arg_name, _kind in tensor_args:
                v = args[i] if i < n else kwargs.get(arg_name)
                for t in v if isinstance(v, (list, tuple)) else (v,):
                    if getattr(t, "_key_set", None) is not None:
                        devices.append((arg_name, t.device))
            types = {d.type for _, d in devices}
            if "meta" in types and types <= _CPU_AND_META:
                # The call lands on Meta (the highest backend), whose kernels check no
                # devices: PyTorch's meta functions read metadata only, and an out= result is
                # then copied into out. (A run-time backend's bit may rank above Meta's.)
                for arg_name, d in devices:
                    if arg_name in outs and d.type != "meta":
                        raise RuntimeError(_cross_device_copy("meta", d))
                return fn(*args, **kwargs)
        expected = None
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
                    if arg_name in outs and expected.type == "meta":
                        # PyTorch computes the meta result, then copies it into out
                        # (torch._prims_common.wrappers' out wrapper), which refuses.
                        raise RuntimeError(_cross_device_copy(expected, dev))
                    raise RuntimeError(
                        f"Tensor on device {dev} is not on the expected device {expected}!"
                    )
        return fn(*args, **kwargs)

    return check_devices
