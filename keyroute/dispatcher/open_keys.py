"""Dispatch keys and backends added at run time: `register_key` and `register_backend`.

PyTorch fixes its keys at compile time (c10/core/DispatchKey.h) and gives out-of-tree backends
three PrivateUse slots. Here both are one call:

- `register_key(name, above=..., below=...)` makes a functionality key between two existing
  ones; it is a `DispatchKey` like any builtin one (Library.impl / fallback / fallthrough, TLS
  guards, tensor key sets, dump_table, the trace, `keyroute keys`).
- `register_backend(name)` makes a backend component: device type `name`, its runtime keys
  (Dense `Name`, `AutogradName`, `QuantizedName`, ...) and an `AutocastName` key.

Note [run-time key rules]:
- Priority is data (keys.ORDER); a new key takes a value from 256 up and a bit of its own
  above PyTorch's 64, so the bits of every existing key set, tensor and cache keep their
  meaning: nothing is renumbered. Every operator's computed table and caches are dropped once.
- A key lives as long as the process, as PyTorch's enum members do: tensors, TLS sets and
  caches may hold its bit, so destroying a Library removes the kernels it registered on the key
  (as for any key), not the key. Registering a name twice is an error.
- No alias key covers a run-time functionality key (CompositeImplicitAutograd does not fill
  its slot): PyTorch treats its layer keys (Python, Functionalize, ADInplaceOrView, Autocast...)
  so. A key has no kernel until one is registered: give it a fallback (a kernel, or
  `fallthrough_kernel`) for the operators it does not handle. A run-time backend's runtime keys
  are covered as the builtin backends' are (Dense by CompositeExplicitAutograd, Autograd<name>
  by Autograd, ...).
- Run-time backends rank above every builtin backend (Meta included) when one key set holds
  several.

Bad input changes nothing (a run-time key lives for the whole process, so the examples that make
one are in tests/backends/ and examples/new_key.py, each in a process of its own):

>>> register_key("Checkpointing", above="AutogradOther", below="ADInplaceOrView")
Traceback (most recent call last):
    ...
RuntimeError: register_key: above='AutogradOther' ranks above below='ADInplaceOrView' (inverted)
"""

from __future__ import annotations

import re
from typing import Any, NamedTuple

from . import keys as _keys
from . import keyset as _keyset
from .keys import (
    _PARSE,
    _PREFIX,
    EXT_START,
    MAX_EXT_BACKENDS,
    MAX_USER_KEYS,
    NUM_BACKENDS,
    PER_BACKEND_FUNCTIONALITIES,
    USER_KEY_SHIFT,
    DispatchKey,
    backend_bit,
    key_name,
    parse_dispatch_key,
)

__all__ = ["register_key", "register_backend", "BackendInfo", "registered_backends"]

DK = DispatchKey
_next_value = [EXT_START]


class BackendInfo(NamedTuple):
    """A backend registered at run time: its device type, component index and keys."""

    name: str
    index: int
    key: DispatchKey  # Dense x the backend ("Dask")
    autograd_key: DispatchKey  # "AutogradDask"
    autocast_key: DispatchKey  # "AutocastDask"


_BACKENDS: dict[str, BackendInfo] = {}


def registered_backends() -> dict[str, BackendInfo]:
    """Device type -> BackendInfo of every backend registered at run time."""
    return dict(_BACKENDS)


# ----------------------------------------------------------------------------- helpers


def _lock() -> Any:
    from .operator import REGISTRY_LOCK

    return REGISTRY_LOCK


def _check_new_name(name: str, what: str) -> None:
    if not isinstance(name, str) or not re.fullmatch(r"[A-Za-z_][A-Za-z0-9_]*", name):
        raise ValueError(f"{what}: a dispatch key name must be an identifier, got {name!r}")
    if name in _PARSE or name in DK.__members__ or name in _keys.EXT_NAMES.values():
        raise RuntimeError(f"{what}: a dispatch key named '{name}' already exists")


def _functionality(name: Any, role: str) -> int:
    """The functionality key a neighbour names (a builtin or run-time functionality key)."""
    if isinstance(name, DispatchKey) or isinstance(name, int):
        k = int(name)
    else:
        try:
            k = int(parse_dispatch_key(str(name)))
        except RuntimeError:
            raise RuntimeError(
                f"register_key: {role}={name!r}: could not parse dispatch key: {name}"
            ) from None
    if k not in _keys.ORDER:
        raise RuntimeError(
            f"register_key: {role}={key_name(k)!r} is not a functionality key (name a key such "
            f"as 'AutogradFunctionality' or 'ADInplaceOrView', not a per-backend runtime key or "
            f"an alias)"
        )
    return k


def _new_member(name: str) -> DispatchKey:
    """A DispatchKey enum member for a run-time key (DispatchKey.<name>, DispatchKey['<name>'],
    DispatchKey(value) all find it)."""
    value = _next_value[0]
    _next_value[0] += 1
    member = int.__new__(DK, value)
    member._name_ = name
    member._value_ = value
    DK._value2member_map_[value] = member
    DK._member_map_[name] = member
    type.__setattr__(DK, name, member)
    _keys.EXT_NAMES[value] = name
    _PARSE[name] = value
    return member


def _add_runtime_key(func: int, backend: int, name: str) -> None:
    k = int(_new_member(name))
    _keys.EXT_RUNTIME[k] = (func, backend)
    _keys.RUNTIME_OF[(func, backend)] = k


def _refresh() -> None:
    """After a key or backend was added: the table slot list, the in-use bits, every cache."""
    from .operator import _invalidate_all

    _keys.RUNTIME_KEYS[:] = _keys.runtime_keys()
    _keys.TABLE_KEYS[:] = [0, *_keys.RUNTIME_KEYS]
    bits = _keyset._keys_in_use[0]
    for bit in _keys.USER_KEYS.values():
        bits |= bit
    for b in range(NUM_BACKENDS + 1, NUM_BACKENDS + len(_keys.EXT_BACKENDS) + 1):
        bits |= backend_bit(b)
    _keyset._keys_in_use[0] = bits
    _invalidate_all()


def _prefix(func: int) -> str:
    return _PREFIX[func] if func in _PREFIX else _keys.EXT_NAMES[func]


# ----------------------------------------------------------------------------- register_key


def register_key(
    name: str,
    *,
    above: str | DispatchKey | None = None,
    below: str | DispatchKey | None = None,
    per_backend: bool = False,
) -> DispatchKey:
    """A new functionality key ranking just above `above` (and below `below`), as a DispatchKey.

    Give `above`, `below`, or both (then `above` must rank lower than `below`; the key goes just
    above `above`). `per_backend=True` makes a building block like Dense or
    AutogradFunctionality: one runtime key per backend, named `<name><Backend>` ("MyCPU").
    Bad input raises and changes nothing. See Note [run-time key rules] for what the key is.
    """
    with _lock():
        if above is None and below is None:
            raise ValueError("register_key: give above=, below=, or both (the key's neighbours)")
        _check_new_name(name, "register_key")
        lo = _functionality(above, "above") if above is not None else None
        hi = _functionality(below, "below") if below is not None else None
        order = _keys.ORDER
        if lo is not None and hi is not None and order.index(lo) >= order.index(hi):
            raise RuntimeError(
                f"register_key: above={key_name(lo)!r} ranks above "
                f"below={key_name(hi)!r} (inverted)"
            )
        if len(_keys.USER_KEYS) >= MAX_USER_KEYS:
            raise RuntimeError(f"register_key: at most {MAX_USER_KEYS} run-time keys")
        nb = NUM_BACKENDS + len(_keys.EXT_BACKENDS)
        if per_backend:
            taken = [f"{name}{b}" for b in _keys.backend_names()]
            for n in taken:
                _check_new_name(n, "register_key")
        # Every check passed: from here on nothing can fail.
        pos = order.index(lo) + 1 if lo is not None else order.index(hi)
        key = _new_member(name)
        k = int(key)
        _keys.USER_KEYS[k] = 1 << (USER_KEY_SHIFT + len(_keys.USER_KEYS))
        order.insert(pos, k)
        if per_backend:
            _keys.USER_PER_BACKEND.add(k)
            for b, backend in enumerate(_keys.backend_names()[:nb], start=1):
                _add_runtime_key(k, b, f"{name}{backend}")
        _refresh()
        return key


# ----------------------------------------------------------------------------- register_backend


def _component_name(device_type: str) -> str:
    return device_type[0].upper() + device_type[1:]


def register_backend(name: str) -> BackendInfo:
    """A new backend component for device type `name` ("dask"): its runtime keys (`Dask`,
    `AutogradDask`, `QuantizedDask`, `SparseDask`, `SparseCsrDask`, `NestedTensorDask`, one per
    run-time per-backend key), an `AutocastDask` key (a fallthrough until autocast kernels are
    registered on it), device strings "dask" / "dask:0", `keyroute.device("dask", 0)`,
    factories with `device="dask"` and `.to("dask")` (through the backend's `copy_` kernel).

    The backend registers its kernels on `BackendInfo.key` (allocation `empty.memory_format` /
    `empty_strided` and `copy_` at least; `keyroute.library.cpu_fallback` for the rest).
    Meta functions are shared. Bad input raises and changes nothing."""
    from ..tensor import device as _device

    with _lock():
        if not isinstance(name, str) or not re.fullmatch(r"[a-z_][a-z0-9_]*", name):
            raise ValueError(
                f"register_backend: a device type is a lower-case identifier, got {name!r}"
            )
        if name in _device.DEVICE_TYPES or name in _device.RESERVED_DEVICE_TYPES:
            raise RuntimeError(f"register_backend: device type '{name}' already exists")
        if len(_keys.EXT_BACKENDS) >= MAX_EXT_BACKENDS:
            raise RuntimeError(f"register_backend: at most {MAX_EXT_BACKENDS} run-time backends")
        comp = _component_name(name)
        funcs = [*PER_BACKEND_FUNCTIONALITIES, *sorted(_keys.USER_PER_BACKEND)]
        names = {f: _prefix(f) + comp for f in funcs}
        for n in (*names.values(), f"Autocast{comp}"):
            _check_new_name(n, "register_backend")
        # Every check passed: from here on nothing can fail.
        index = NUM_BACKENDS + len(_keys.EXT_BACKENDS) + 1
        _keys.EXT_BACKENDS.append(comp)
        for f in funcs:
            _add_runtime_key(f, index, names[f])
        from .alias import add_backend

        add_backend({p: _keys.RUNTIME_OF[(f, index)] for f, p in _PREFIX.items()})
        # Autocast<Name>: above the last autocast key, excluded by default as PyTorch's are.
        last_autocast = max(
            (f for f in _keys.ORDER if key_name(f).startswith("Autocast")),
            key=_keys.ORDER.index,
        )
        autocast = register_key(f"Autocast{comp}", above=last_autocast)
        info = BackendInfo(
            name,
            index,
            DK(_keys.RUNTIME_OF[(int(DK.Dense), index)]),
            DK(_keys.RUNTIME_OF[(int(DK.AutogradFunctionality), index)]),
            autocast,
        )
        _BACKENDS[name] = info
        from ..layers.autocast import add_device_type

        add_device_type(name, "privateuseone", autocast)
        from ..tensor.subclass import AUTOCAST_OF_BACKEND

        AUTOCAST_OF_BACKEND[index] = int(autocast)
        _device.add_device_type(name, index)
        _publish_device(index)
        _install_defaults(info)
        _refresh()
        return info


def _publish_device(index: int) -> None:
    # Tensor.device reads a table keyed by the top backend bit's bit_length (tensor/_tensor.py);
    # the tensor's data names its index (StorageDevice).
    from ..tensor import _tensor
    from ..tensor.device import DEVICE_OF_BACKEND, StorageDevice

    _tensor._DEVICE_BY_BACKEND[backend_bit(index).bit_length()] = StorageDevice(
        DEVICE_OF_BACKEND[index]
    )


def _install_defaults(info: BackendInfo) -> None:
    """What PyTorch gives every backend without its writing it: `_to_copy` as the
    CompositeExplicitAutograd kernel (allocate on the target, then `copy_`), and the Autocast
    key's fallthrough. The autocast key is excluded by default, as the builtin ones are."""
    from . import tls
    from .backend_defaults import install

    install(info)
    bits = _keyset.key_bits(info.autocast_key)
    tls.DEFAULT_EXCLUDE |= bits
    tls.state.thread_state.exclude |= bits
    tls.state.thread_state.refresh()
