"""`torch._C`'s dispatcher introspection names, so programs that call them run unchanged.

>>> import keyroute
>>> keyroute._C._dispatch_keys(keyroute.ones(1))
DispatchKeySet(CPU, ADInplaceOrView, AutogradCPU, AutocastCPU)
>>> keyroute._C._dispatch_key_parse("AutogradCPU")
<DispatchKey.AutogradCPU: 134>
"""

from __future__ import annotations

from typing import Any

from .dispatcher import tls as _tls
from .dispatcher.alias import (
    ALIAS_EXPANSION,
    AUTOGRADOTHER_BACKENDS,
    backend_keys_from_autograd,
    is_included_in_alias,
)
from .dispatcher.keys import (
    PER_BACKEND_FUNCTIONALITIES,
    TABLE_KEYS,
    DispatchKey,
    is_alias_key,
    key_name,
    parse_dispatch_key,
)
from .dispatcher.keyset import (
    FULL,
    VISIBLE_MASK,
    DispatchKeySet,
    full_after_bits,
    key_bits,
    keyset_repr,
)
from .dispatcher.operator import _FALLBACKS, _OPS, OpOverload, find_op
from .dispatcher.schema import FunctionSchema, parse_schema

__all__ = [
    "DispatchKey",
    "DispatchKeySet",
    "FunctionSchema",
    "parse_schema",
    "_disabled_torch_function_impl",
    "_dispatch_keys",
    "_dispatch_dump_table",
    "_dispatch_dump",
    "_dispatch_has_kernel",
    "_dispatch_has_kernel_for_dispatch_key",
    "_dispatch_has_kernel_for_any_dispatch_key",
    "_dispatch_has_computed_kernel_for_dispatch_key",
    "_dispatch_kernel_for_dispatch_key_is_fallthrough",
    "_dispatch_has_backend_fallback",
    "_dispatch_key_parse",
    "_parse_dispatch_key",
    "_dispatch_key_name",
    "_dispatch_keyset_full",
    "_dispatch_keyset_full_after",
    "_dispatch_keyset_to_string",
    "_dispatch_is_included_in_alias",
    "_dispatch_is_alias_key",
    "_dispatch_get_backend_keyset_from_autograd",
    "_dispatch_autogradother_backends",
    "_dispatch_tls_local_include_set",
    "_dispatch_tls_local_exclude_set",
    "_dispatch_tls_is_dispatch_key_included",
    "_dispatch_tls_is_dispatch_key_excluded",
    "_dispatch_tls_set_dispatch_key_included",
    "_dispatch_tls_set_dispatch_key_excluded",
    "_dispatch_find_schema_or_throw",
    "_dispatch_get_all_op_names",
    "_dispatch_find_dangling_impls",
    "_dispatch_check_invariants",
    "_dispatch_check_all_invariants",
    "_dispatch_get_registrations_for_dispatch_key",
    "_dispatch_print_registrations_for_dispatch_key",
    "_dispatch_key_for_device",
    "_AutoDispatchBelowAutograd",
    "_AutoDispatchBelowADInplaceOrView",
    "_ExcludeDispatchKeyGuard",
    "ExcludeDispatchKeyGuard",
    "_IncludeDispatchKeyGuard",
    "_ForceDispatchKeyGuard",
]


def _key(k: Any) -> int:
    if isinstance(k, str):
        return int(parse_dispatch_key(k))
    return int(k)


def _op(name: str) -> OpOverload:
    op = find_op(name)
    if op is None:
        raise RuntimeError(f"operator {name} does not exist")
    return op


_STARTS = frozenset(PER_BACKEND_FUNCTIONALITIES.values())


def _dispatch_keys(t: Any) -> DispatchKeySet:
    """The tensor's own key set (TLS not applied)."""
    return DispatchKeySet.from_raw(t._key_set & VISIBLE_MASK)


def _dispatch_dump_table(name: str) -> str:
    op = find_op(name)
    return "" if op is None else op.dump_table()


def _dispatch_dump(name: str) -> str:
    op = find_op(name)
    return "" if op is None else op.dump()


def _dispatch_has_kernel(name: str) -> bool:
    return bool(_op(name).kernels)


def _dispatch_has_kernel_for_dispatch_key(name: str, key: Any) -> bool:
    return _op(name).has_kernel_for_dispatch_key(_key(key))


def _dispatch_has_kernel_for_any_dispatch_key(name: str, keyset: DispatchKeySet) -> bool:
    op = find_op(name)
    return op is not None and op.has_kernel_for_any_dispatch_key(keyset)


def _dispatch_has_computed_kernel_for_dispatch_key(name: str, key: str) -> bool:
    if not isinstance(key, str):
        raise TypeError("_dispatch_has_computed_kernel_for_dispatch_key(): key must be a str")
    k = _key(key)
    if is_alias_key(k):
        raise RuntimeError("Alias keys do not have runtime kernel registrations.")
    start = PER_BACKEND_FUNCTIONALITIES.get(k)
    if start is not None:  # a building block indexes its first backend's slot
        k = start + 1
    elif k in _STARTS:
        k += 1
    return _op(name)._get_table().get(k) is not None


def _dispatch_kernel_for_dispatch_key_is_fallthrough(name: str, key: Any) -> bool:
    op = _op(name)
    k = _key(key)
    regs = op.kernels.get(k)
    if not regs:
        raise RuntimeError(f"no kernel for {key_name(k)} on {name}")
    return regs[-1].fallthrough


def _dispatch_has_backend_fallback(key: Any) -> bool:
    return bool(_FALLBACKS.get(_key(key)))


def _dispatch_key_parse(name: Any) -> DispatchKey:
    if isinstance(name, DispatchKey):
        return name
    return parse_dispatch_key(name)


def _parse_dispatch_key(name: str) -> DispatchKey | None:
    try:
        return parse_dispatch_key(name)
    except RuntimeError:
        return None


def _dispatch_key_name(k: DispatchKey) -> str:
    if not isinstance(k, DispatchKey):
        raise TypeError(
            "_dispatch_key_name(): incompatible function arguments. The following argument "
            "types are supported:\n    1. (arg0: torch._C.DispatchKey) -> str"
        )
    return key_name(int(k))


def _dispatch_keyset_full() -> DispatchKeySet:
    return DispatchKeySet.from_raw(FULL)


def _dispatch_keyset_full_after(k: Any) -> DispatchKeySet:
    return DispatchKeySet.from_raw(full_after_bits(_key(k)))


def _dispatch_keyset_to_string(ks: DispatchKeySet) -> str:
    return keyset_repr(ks.repr_)


def _dispatch_is_included_in_alias(k: Any, alias: Any) -> bool:
    return is_included_in_alias(_key(k), _key(alias))


def _dispatch_is_alias_key(k: Any) -> bool:
    return is_alias_key(_key(k))


def _keyset_of(keys: Any) -> DispatchKeySet:
    bits = 0
    for k in keys:
        bits |= key_bits(k)
    return DispatchKeySet.from_raw(bits)


def _dispatch_get_backend_keyset_from_autograd(k: Any) -> DispatchKeySet:
    return _keyset_of(backend_keys_from_autograd(_key(k)))


_dispatch_autogradother_backends = _keyset_of(AUTOGRADOTHER_BACKENDS)


def _dispatch_tls_local_include_set() -> DispatchKeySet:
    return DispatchKeySet.from_raw(_tls.state.include & VISIBLE_MASK)


def _dispatch_tls_local_exclude_set() -> DispatchKeySet:
    return DispatchKeySet.from_raw(_tls.state.exclude & VISIBLE_MASK)


def _dispatch_tls_is_dispatch_key_included(k: Any) -> bool:
    return _tls.is_included(_key(k))


def _dispatch_tls_is_dispatch_key_excluded(k: Any) -> bool:
    return _tls.is_excluded(_key(k))


def _dispatch_tls_set_dispatch_key_included(k: Any, value: bool) -> None:
    _tls.set_included(_key(k), value)


def _dispatch_tls_set_dispatch_key_excluded(k: Any, value: bool) -> None:
    _tls.set_excluded(_key(k), value)


def _dispatch_find_schema_or_throw(name: str, overload: str) -> Any:
    op = find_op(f"{name}.{overload}" if overload else name)
    if op is None or op._schema is None:
        raise RuntimeError(f"Could not find schema for {name}.{overload}")
    return op


def _dispatch_get_all_op_names() -> list[str]:
    return sorted(_OPS)


def _dispatch_find_dangling_impls() -> list[str]:
    """Operators with kernels but no schema (impl() without def())."""
    return [op.dump() for op in _OPS.values() if op._schema is None and op.kernels]


def _dispatch_check_invariants(name: str) -> None:
    """keyroute's table is always the computed one: nothing can be stale."""
    _op(name)._get_table()


def _dispatch_check_all_invariants() -> None:
    for op in list(_OPS.values()):
        op._get_table()


def _dispatch_get_registrations_for_dispatch_key(key: Any = "") -> list[str]:
    k = None if key == "" else _key(key)
    out = []
    for name, op in _OPS.items():
        if k is None or op.has_kernel_for_dispatch_key(k):
            out.append(name)
    return out


def _dispatch_print_registrations_for_dispatch_key(key: Any = "") -> None:
    for name in _dispatch_get_registrations_for_dispatch_key(key):
        print(name)


def _dispatch_key_for_device(device_type: str) -> str:
    from .dispatcher.keys import to_runtime_key
    from .tensor.device import DEVICE_TYPES

    index = DEVICE_TYPES[device_type]
    return key_name(to_runtime_key(int(DispatchKey.Dense), index))


_AutoDispatchBelowAutograd = _tls.AutoDispatchBelowAutograd
_AutoDispatchBelowADInplaceOrView = _tls.AutoDispatchBelowADInplaceOrView
_ExcludeDispatchKeyGuard = _tls.ExcludeDispatchKeyGuard
ExcludeDispatchKeyGuard = _tls.ExcludeDispatchKeyGuard
_IncludeDispatchKeyGuard = _tls.IncludeDispatchKeyGuard
_ForceDispatchKeyGuard = _tls.ForceDispatchKeyGuard

del ALIAS_EXPANSION, TABLE_KEYS


def _disabled_torch_function_impl(func: Any, types: Any, args: Any = (), kwargs: Any = None) -> Any:
    """What subclasses set as `__torch_function__` to opt out of it (keyroute has no
    __torch_function__ layer, so this just calls the function)."""
    return func(*args, **(kwargs or {}))


def _get_privateuse1_backend_name() -> str:
    from .utils.backend_registration import _get_privateuse1_backend_name as name

    return name()


def _rename_privateuse1_backend(backend_name: str) -> None:
    from .utils.backend_registration import rename_privateuse1_backend

    rename_privateuse1_backend(backend_name)
