"""Operators: one object per operator holds its kernels, its computed table and its caches.

An `OpOverload` (PyTorch's OperatorEntry + the Python OpOverload) stores the kernels registered
per key (runtime or alias; newest last), computes each runtime key's table entry with PyTorch's
precedence rules (`compute_entry`), and resolves a dispatch key set to the callable that runs.
Resolutions are cached per key set and the caches are dropped on every registration change, so
the computed table is the one in force whatever the order of registration.

A call:
    ks = (OR of the tensor arguments' key sets | tls.include) & ~tls.exclude
    fn = cache[ks]   # else: mask fallthroughs, take the highest key, bind its entry
    return fn(*args, **kwargs)

Note [plain path]: a builtin layer kernel may declare that, for some key sets, it only
redispatches below itself (the autograd kernels do when no input requires grad, which keyroute
marks with a private bit). Top-level resolution then binds the kernel it would have reached, so
a plain call runs the backend kernel with nothing in between. `redispatch` and the dispatch trace
never take this shortcut, and the trace shows every layer.
"""

from __future__ import annotations

import functools
import threading
import warnings
import weakref
from collections.abc import Callable
from typing import Any

from .. import _naming
from . import trace as _trace
from .alias import (
    ALIAS_EXPANSION,
    AUTOGRAD_KEYS,
    AUTOGRADOTHER_BACKENDS,
    backend_keys_from_autograd,
)
from .codegen import compile_registered
from .device_check import device_checked, is_device_mix
from .keys import (
    EXT_BACKENDS,
    NUM_BACKENDS,
    PER_BACKEND_FUNCTIONALITIES,
    TABLE_KEYS,
    DispatchKey,
    backend_bit,
    is_per_backend_functionality,
    key_name,
    to_backend_component,
    to_functionality_key,
)
from .keyset import (
    BACKEND_MASK,
    FULL,
    DispatchKeySet,
    functionality_bit,
    highest_priority_key,
)
from .tls import state as _tls

__all__ = [
    "KernelRegistration",
    "OpOverload",
    "OpOverloadPacket",
    "LayerKernel",
    "find_op",
    "get_op",
    "all_ops",
    "register_fallback",
    "backend_fallback",
]

DK = DispatchKey
_CIA = int(DK.CompositeImplicitAutograd)
_CEA = int(DK.CompositeExplicitAutograd)
_CEANF = int(DK.CompositeExplicitAutogradNonFunctional)
_CIA_NESTED = int(DK.CompositeImplicitAutogradNestedTensor)
_AUTOGRAD_ALIAS = int(DK.Autograd)
_FTBD = int(DK.FuncTorchBatchedDecomposition)
_AUTOGRAD_OTHER = int(DK.AutogradOther)
_FUNCTORCH_BATCHED = int(DK.FuncTorchBatched)
_START_KEYS = frozenset(PER_BACKEND_FUNCTIONALITIES.values())


class KernelRegistration:
    """One kernel registered for one key (or one backend fallback)."""

    __slots__ = ("fn", "key", "with_keyset", "fallthrough", "debug", "is_fallback", "owner")

    def __init__(
        self,
        fn: Callable[..., Any] | None,
        key: int,
        *,
        with_keyset: bool = False,
        fallthrough: bool = False,
        debug: str = "",
        is_fallback: bool = False,
        owner: object = None,
    ) -> None:
        self.fn = fn
        self.key = key
        self.with_keyset = with_keyset
        self.fallthrough = fallthrough
        self.debug = debug
        self.is_fallback = is_fallback
        self.owner = owner

    def __repr__(self) -> str:
        return f"<KernelRegistration {key_name(self.key)} {self.debug}>"


class LayerKernel:
    """Base of builtin layer kernels (called with the key set) that may be pure passthroughs.

    `passthrough(ks)` returns the key set the kernel would redispatch with when, for this key
    set, it would do nothing but redispatch; otherwise None. See Note [plain path].
    """

    def passthrough(self, ks: int) -> int | None:
        return None

    def bind(self, ks: int) -> Callable[..., Any]:
        """The callable the dispatcher caches for key set `ks` (the kernel with the key set
        bound). A layer may return a closure specialised to `ks` instead."""
        return functools.partial(self, DispatchKeySet.from_raw(ks))

    def __call__(self, keyset: DispatchKeySet, *args: Any, **kwargs: Any) -> Any:
        raise NotImplementedError


# The ambiguous AutogradOther entry (CIA plus a kernel on a backend that uses AutogradOther).
_AMBIGUOUS = KernelRegistration(None, _AUTOGRAD_OTHER, debug="ambiguous_autogradother")

_PROVENANCE_KERNEL = "kernel"
#: Functions (op, keyset, key, registration, bound callable) -> callable, applied when a
#: resolution is computed (e.g. inference mode marks new tensors as inference tensors).
BIND_HOOKS: list[Callable[..., Callable[..., Any]]] = []

# ----------------------------------------------------------------------------- registry

_OPS: dict[str, OpOverload] = {}
#: "ns::name" -> how many of its overloads have a schema (O(1) checks for `ops.ns.name`).
_DEFINED_NAMES: dict[str, int] = {}
_warned_override = False
_PACKETS: dict[str, OpOverloadPacket] = {}
_FALLBACKS: dict[int, list[KernelRegistration]] = {}

#: Note [registration lock]: every change to the registry (kernels, schemas, fallbacks, the
#: operator dict) and every cache fill holds this lock, so a resolution is computed from one
#: consistent table and is never stored after a registration has dropped the caches. The hot
#: path (a cache hit) takes no lock: it reads the old or the new cache, never a half-built one.
#: Re-entrant: a library's registration calls several of these writers.
REGISTRY_LOCK = threading.RLock()


def _qualified(name: str, overload: str) -> str:
    return f"{name}.{overload}" if overload else name


def find_op(qualname: str) -> OpOverload | None:
    """The operator 'ns::name' or 'ns::name.overload', or None."""
    return _OPS.get(qualname)


def get_op(name: str, overload: str = "") -> OpOverload:
    """The operator entry for ns::name.overload, created empty (no schema) if needed."""
    q = _qualified(name, overload)
    op = _OPS.get(q)
    if op is None:
        with REGISTRY_LOCK:
            op = _OPS.get(q)
            if op is None:
                op = OpOverload(name, overload)
                _OPS[q] = op
                packet = _PACKETS.get(name)
                if packet is not None:
                    packet._invalidate()
    return op


def all_ops() -> list[OpOverload]:
    return list(_OPS.values())


def _drop_op_if_empty(op: OpOverload) -> None:
    with REGISTRY_LOCK:
        _drop_op_if_empty_locked(op)


def _drop_op_if_empty_locked(op: OpOverload) -> None:
    if op._schema is None and not op.kernels:
        q = op.qualified_name()
        if _OPS.get(q) is op:
            del _OPS[q]
            packet = _PACKETS.get(op._name)
            if packet is not None:
                packet._invalidate()


def backend_fallback(key: int) -> KernelRegistration | None:
    regs = _FALLBACKS.get(int(key))
    return regs[-1] if regs else None


def register_fallback(reg: KernelRegistration, replace_builtin: bool = False) -> Callable[[], None]:
    """Install a backend fallback for one runtime key; returns the function that removes it.

    One fallback per key, as PyTorch. The exception is a key whose fallback is one of
    keyroute's stand-in refusals for a layer it does not build (layers/fallbacks.py,
    missing_layer_lib): `replace_builtin=True` puts the new fallback over it, and removing the
    new one brings the refusal back."""
    key = reg.key
    with REGISTRY_LOCK:
        existing = _FALLBACKS.get(key)
        if existing:
            owner = existing[0].owner
            if isinstance(owner, weakref.ref):  # libraries are held weakly (collectable)
                owner = owner()
            builtin = len(existing) == 1 and getattr(owner, "_builtin", False)
            if not (builtin and replace_builtin):
                how = (
                    "; that one is a keyroute builtin fallback: pass replace_builtin=True to "
                    "Library.fallback to replace it"
                    if builtin
                    else ""
                )
                raise RuntimeError(
                    f"Tried to register multiple backend fallbacks for the same dispatch key "
                    f"{key_name(key)}; previous registration {existing[-1].debug}, new "
                    f"registration {reg.debug}{how}"
                )
            existing.append(reg)
        else:
            _FALLBACKS[key] = [reg]
        _invalidate_all()

    def remove() -> None:
        with REGISTRY_LOCK:
            regs = _FALLBACKS.get(key)
            if regs and reg in regs:
                regs.remove(reg)
                if not regs:
                    del _FALLBACKS[key]
                _invalidate_all()

    return remove


def _invalidate_all() -> None:
    with REGISTRY_LOCK:
        for op in _OPS.values():
            op._invalidate()


# ----------------------------------------------------------------------------- errors


def _available(op: OpOverload) -> str:
    table = op._get_table()
    return ", ".join(key_name(k) for k in TABLE_KEYS if k and k in table)


def _internal_assert(text: str) -> str:
    # PyTorch raises these as C++ INTERNAL ASSERTs; keyroute keeps the wording.
    return f'0 INTERNAL ASSERT FAILED at "{__file__}":1, please report a bug to PyTorch. {text}'


def _no_kernel_error(op: OpOverload, key: int) -> Exception:
    available = _available(op)
    dump = op.dump_table()
    name = op.qualified_name()
    if key == 0:
        return NotImplementedError(
            f"There were no tensor arguments to this function (e.g., you passed an empty list "
            f"of Tensors), but no fallback function is registered for schema {name}.  This "
            f"usually means that this function requires a non-empty list of Tensors, or that "
            f"you (the operator writer) forgot to register a fallback function.  Available "
            f"functions are [{available}].\n\n{dump}"
        )
    return NotImplementedError(
        f"Could not run '{name}' with arguments from the '{key_name(key)}' backend. This could "
        f"be because the operator doesn't exist for this backend, or was omitted during the "
        f"selective/custom build process (if using custom build). If you are a Facebook "
        f"employee using PyTorch on mobile, please visit https://fburl.com/ptmfixes for "
        f"possible resolutions. '{name}' is only available for these backends: "
        f"[{available}].\n\n{dump}"
    )


def _ambiguous_error(op: OpOverload) -> Exception:
    return RuntimeError(
        _internal_assert(
            f"{op.qualified_name()} has kernels registered to both CompositeImplicitAutograd "
            f"and a backend mapped to AutogradOther. This makes the backend kernel unreachable; "
            f"the dispatcher will always prefer the CompositeImplicitAutograd lowering (see "
            f"Note [Ambiguity in AutogradOther kernel]). If you want to override "
            f"CompositeImplicitAutograd, please open an issue to request a dedicated Autograd "
            f"dispatch key for the backend.\nIf you only want to run inference instead of "
            f"training, in C++, add `c10::InferenceMode mode;` before model.forward(). Note "
            f"this guard is only available in C++ but not Python at present.\n{op.dump()}"
        )
    )


_FALLTHROUGH_EXECUTED = _internal_assert(
    "fallthrough_kernel was executed but it should have been short-circuited by the "
    "dispatcher. This could occur if you registered a fallthrough kernel as a override for a "
    "specific operator (as opposed to a backend fallback); this is NOT currently supported, and "
    "we do not intend to add support for it in the near future.  If you do find yourself in "
    "need of this, let us know in the bug tracker."
)


def _raiser(exc: Exception) -> Callable[..., Any]:
    """A kernel that raises (a fresh copy of) exc: resolutions are cached, errors too."""
    cls, message = type(exc), str(exc)

    def raise_(*args: Any, **kwargs: Any) -> Any:
        raise cls(message)

    return raise_


# ----------------------------------------------------------------------------- key extraction


def _arg_keys(value: Any) -> int:
    """Key-set bits a value contributes: a tensor's own, the OR over a list of tensors."""
    ks = getattr(value, "_key_set", None)
    if ks is not None:
        return ks
    if isinstance(value, (list, tuple)):
        out = 0
        for v in value:
            out |= getattr(v, "_key_set", 0)
        return out
    return 0


class OpOverload:
    """One operator (ns::name.overload): its kernels, computed table, caches, and call.

    Callable with the schema's arguments; `str(op)` is PyTorch's ('aten.add.Tensor').
    """

    # Per-instance call specialisations are generated into subclasses (see _specialize).
    __slots__ = (
        "_name",
        "overload_name",
        "_schema",
        "kernels",
        "_table",
        "_masks",
        "_cache",
        "_rcache",
        "debug",
        "alias_analysis",
        "tags",
        "_tensor_args",
        "__dict__",
    )

    def __init__(self, name: str, overload_name: str = "") -> None:
        self._name = name  # "ns::op"
        self.overload_name = overload_name
        self._schema: Any = None
        self.kernels: dict[int, list[KernelRegistration]] = {}
        self._table: dict[int, tuple[KernelRegistration, str]] | None = None
        self._masks: list[int] | None = None
        self._cache: dict[int, Callable[..., Any]] = {}
        self._rcache: dict[int, Callable[..., Any]] = {}
        self.debug = ""
        self.alias_analysis = ""
        self.tags: tuple[Any, ...] = ()
        self._tensor_args: tuple[tuple[int, str, int], ...] = ()
        opname = name.split("::", 1)[-1]
        self.__name__ = f"{opname}.{overload_name or 'default'}"
        self.__qualname__ = self.__name__
        # PyTorch's OpOverload.__module__ is "torch._ops.<ns>" (dispatch modes print it).
        self.__module__ = f"{_naming.NAME}._ops.{name.split('::', 1)[0]}"

    # -- names (PyTorch's OpOverload attributes)
    @property
    def namespace(self) -> str:
        return self._name.split("::", 1)[0]

    @property
    def _opname(self) -> str:
        return self._name.split("::", 1)[1]

    @property
    def _overloadname(self) -> str:
        return self.overload_name or "default"

    @property
    def overloadpacket(self) -> OpOverloadPacket:
        return _packet(self._name)

    @property
    def op(self) -> OpOverload:
        return self

    def qualified_name(self) -> str:
        """'ns::name' or 'ns::name.overload' (PyTorch's OperatorName)."""
        return _qualified(self._name, self.overload_name)

    def name(self) -> str:
        """'ns::name' or 'ns::name.overload' (PyTorch's OpOverload.name())."""
        return self.qualified_name()

    def __str__(self) -> str:
        return f"{self.namespace}.{self._opname}.{self._overloadname}"

    def __repr__(self) -> str:
        return (
            f"<OpOverload(op='{self.namespace}.{self._opname}', overload='{self._overloadname}')>"
        )

    def __hash__(self) -> int:
        return id(self)

    def __eq__(self, other: object) -> bool:
        return self is other

    def __reduce__(self) -> Any:
        return (_op_by_name, (self.qualified_name(),))

    # -- schema
    def set_schema(self, schema: Any) -> None:
        with REGISTRY_LOCK:
            self._set_schema(schema)

    def _set_schema(self, schema: Any) -> None:
        if self._schema is None:
            _DEFINED_NAMES[self._name] = _DEFINED_NAMES.get(self._name, 0) + 1
        self._schema = schema
        self._tensor_args = tuple(
            (i, a.name, a.kind) for i, a in enumerate(schema.arguments) if a.kind
        )
        self.__class__ = _specialize(self._tensor_args)

    # -- registration
    def add_kernel(self, reg: KernelRegistration) -> Callable[[], None]:
        """Register a kernel (newest wins); returns the function that removes it."""
        with REGISTRY_LOCK:
            return self._add_kernel(reg)

    def _add_kernel(self, reg: KernelRegistration) -> Callable[[], None]:
        global _warned_override
        regs = self.kernels.setdefault(reg.key, [])
        if regs and not _warned_override:
            _warned_override = True  # TORCH_WARN_ONCE: once per process
            warnings.warn(
                f"Overriding a previously registered kernel for the same operator and the same "
                f"dispatch key\n  operator: {self._schema_or_name()}\n    {regs[-1].debug}\n"
                f"  dispatch key: {key_name(reg.key)}\n  previous kernel: {regs[-1].debug}\n"
                f"       new kernel: {reg.debug}",
                UserWarning,
                stacklevel=4,
            )
        regs.append(reg)
        self._invalidate()

        def remove() -> None:
            with REGISTRY_LOCK:
                lst = self.kernels.get(reg.key)
                if lst and reg in lst:
                    lst.remove(reg)
                    if not lst:
                        del self.kernels[reg.key]
                    self._invalidate()

        return remove

    def clear_schema(self) -> None:
        """Undo set_schema (the defining library is being destroyed)."""
        with REGISTRY_LOCK:
            self._clear_schema()

    def _clear_schema(self) -> None:
        if self._schema is not None:
            n = _DEFINED_NAMES.get(self._name, 1) - 1
            if n:
                _DEFINED_NAMES[self._name] = n
            else:
                _DEFINED_NAMES.pop(self._name, None)
                from .._ops import forget

                forget(self._name)
        self._schema = None
        self.__class__ = OpOverload
        self.__dict__.pop("_fast_call", None)
        packet = _PACKETS.get(self._name)
        if packet is not None:
            packet._invalidate()

    def _schema_or_name(self) -> str:
        return str(self._schema) if self._schema is not None else self.qualified_name()

    def _invalidate(self) -> None:
        with REGISTRY_LOCK:
            self._table = None
            self._masks = None
            self._cache.clear()
            self._rcache.clear()

    def _active(self, key: int) -> KernelRegistration | None:
        regs = self.kernels.get(key)
        return regs[-1] if regs else None

    def has_kernel_for_dispatch_key(self, key: int) -> bool:
        return self._active(int(key)) is not None

    def has_kernel_for_any_dispatch_key(self, ks: DispatchKeySet) -> bool:
        from .keyset import keyset_keys

        return any(self._active(k) is not None for k in keyset_keys(ks.repr_))

    # -- the computed table (OperatorEntry::computeDispatchTableEntryWithDebug)
    def compute_entry(self, k: int) -> tuple[KernelRegistration, str] | None:
        """The kernel and provenance for runtime key k (0 = the Undefined slot)."""
        direct = self._active(k) if k else None
        if direct is not None:
            return direct, _PROVENANCE_KERNEL
        ceanf = self._active(_CEANF)
        if ceanf is not None and (k == 0 or k in ALIAS_EXPANSION[_CEANF]):
            return ceanf, "default backend kernel"
        cea = self._active(_CEA)
        if cea is not None and (k == 0 or k in ALIAS_EXPANSION[_CEA]):
            return cea, "default backend kernel"
        nested = self._active(_CIA_NESTED)
        if nested is not None and k != 0 and k in ALIAS_EXPANSION[_CIA_NESTED]:
            return nested, "nested kernel"
        cia = self._active(_CIA)
        if cia is not None and (k == 0 or k in ALIAS_EXPANSION[_CIA]):
            if k == _AUTOGRAD_OTHER and any(
                self._active(b) is not None for b in AUTOGRADOTHER_BACKENDS
            ):
                return _AMBIGUOUS, "ambiguous autogradother"
            has_backend_kernel = cea is not None or any(
                self._active(b) is not None for b in backend_keys_from_autograd(k)
            )
            if not has_backend_kernel:
                return cia, "math kernel"
        autograd = self._active(_AUTOGRAD_ALIAS)
        if autograd is not None and k in AUTOGRAD_KEYS:
            return autograd, "autograd kernel"
        ftbd = self._active(_FTBD)
        if ftbd is not None and k == _FUNCTORCH_BATCHED:
            return ftbd, "batched kernel"
        fallback = backend_fallback(k)
        if fallback is not None:
            return fallback, "backend fallback"
        return None

    def _get_table(self) -> dict[int, tuple[KernelRegistration, str]]:
        return self._table_and_masks()[0]

    def _table_and_masks(self) -> tuple[dict[int, tuple[KernelRegistration, str]], list[int]]:
        # The pair is read and built under the lock: a writer may drop it at any moment.
        with REGISTRY_LOCK:
            table, masks = self._table, self._masks
            if table is None or masks is None:
                table = {}
                for k in TABLE_KEYS:
                    entry = self.compute_entry(k)
                    if entry is not None:
                        table[k] = entry
                masks = _fallthrough_masks(table)
                self._table, self._masks = table, masks
            return table, masks

    # -- resolution
    def _resolve(self, ks: int, collapse: bool) -> Callable[..., Any]:
        """The cached callable for key set ks: a top-level call's (`collapse`) or a
        redispatch's. Computed and stored under the lock (Note [registration lock])."""
        with REGISTRY_LOCK:
            cache = self._cache if collapse else self._rcache
            fn = cache.get(ks)
            if fn is None:
                fn = cache[ks] = self._compute(ks, collapse)
            return fn

    def _compute(self, ks: int, collapse: bool, record: bool = True) -> Callable[..., Any]:
        """The callable that handles dispatch key set ks.

        A top-level call (`collapse`) masks out fallthrough keys first; a redispatch does not
        (its key set was masked at the top, as in PyTorch), so redispatching onto a
        fallthrough entry is an error, as PyTorch's INTERNAL ASSERT. `record=False`: the
        plain-path shortcut's inner resolution, which the profiler must not wrap twice.
        """
        table, masks = self._table_and_masks()
        if collapse:
            ks = ks & masks[(ks & BACKEND_MASK).bit_length()]
        key = highest_priority_key(ks)
        entry = table.get(key)
        if entry is None and key in _START_KEYS:
            # A per-backend functionality without a backend bit indexes its first backend's
            # slot in PyTorch's table (offset + backend index 0).
            entry = table.get(key + 1)
        if entry is None:
            fn = _raiser(_no_kernel_error(self, key))
        else:
            fn = self._bind(entry[0], key, ks, collapse)
            if collapse and is_device_mix(ks):
                fn = device_checked(self, fn)  # tensors of two devices: PyTorch's check
        if _trace.enabled:
            fn = _trace.traced(self, ks, key, entry, fn, "call" if collapse else "redispatch")
        if _trace.profile_wrap is not None and record:
            fn = _trace.profile_wrap(self, key, fn, collapse)
        return fn

    def _bind(
        self, reg: KernelRegistration, key: int, masked: int, collapse: bool
    ) -> Callable[..., Any]:
        if reg is _AMBIGUOUS:
            return _raiser(_ambiguous_error(self))
        fn = reg.fn
        if reg.fallthrough:
            return _raiser(RuntimeError(_FALLTHROUGH_EXECUTED))
        if collapse and not _trace.every_layer and isinstance(fn, LayerKernel):
            below = fn.passthrough(masked)
            if below is not None:
                return self._compute(below, True, False)
        if reg.is_fallback:
            if reg.with_keyset:
                bound = functools.partial(fn, DispatchKeySet.from_raw(masked), self)
            else:
                bound = functools.partial(fn, self)
        elif reg.with_keyset:
            if isinstance(fn, LayerKernel):
                bound = fn.bind(masked)
            else:
                bound = functools.partial(fn, DispatchKeySet.from_raw(masked))
        else:
            bound = fn
        for hook in BIND_HOOKS:
            bound = hook(self, masked, key, reg, bound)
        return bound

    def _call_slow(self, args: tuple[Any, ...], kwargs: dict[str, Any]) -> Any:
        ks = self._extract(args, kwargs)
        include, mask = _tls.thread_state.include_and_mask
        ks = (ks | include) & mask
        fn = self._cache.get(ks)
        if fn is None:
            fn = self._resolve(ks, True)
        return fn(*args, **kwargs)

    def _extract(self, args: tuple[Any, ...], kwargs: dict[str, Any]) -> int:
        ks = 0
        n = len(args)
        for i, name, _kind in self._tensor_args:
            if i < n:
                ks |= _arg_keys(args[i])
            elif name in kwargs:
                ks |= _arg_keys(kwargs[name])
        return ks

    def __call__(self, *args: Any, **kwargs: Any) -> Any:
        # Replaced by a generated specialisation once the schema is known (see _specialize).
        if self._schema is None:
            raise RuntimeError(
                f"Operator {self.qualified_name()} has no schema: define it before calling it "
                f"(Library.define)"
            )
        return self._call_slow(args, kwargs)

    def redispatch(self, keyset: DispatchKeySet | int, *args: Any, **kwargs: Any) -> Any:
        """Call the kernel of the highest key in `keyset` (no TLS applied), as PyTorch's
        `OpOverload.redispatch`; kernels pass `keyset & full_after(their key)` to go below."""
        ks = keyset.repr_ if isinstance(keyset, DispatchKeySet) else int(keyset)
        fn = self._rcache.get(ks)
        if fn is None:
            fn = self._resolve(ks, False)
        return fn(*args, **kwargs)

    def _redispatch(self, ks: int, *args: Any, **kwargs: Any) -> Any:
        fn = self._rcache.get(ks)
        if fn is None:
            fn = self._resolve(ks, False)
        return fn(*args, **kwargs)

    def kernel_for_key(self, key: int) -> Callable[..., Any] | None:
        """The function in the table slot of a runtime key (None if missing)."""
        entry = self._get_table().get(int(key))
        return None if entry is None else entry[0].fn

    def decompose(self, *args: Any, **kwargs: Any) -> Any:
        """Run the CompositeImplicitAutograd kernel, as PyTorch's OpOverload.decompose."""
        reg = self._active(_CIA)
        if reg is None:
            return NotImplemented
        return reg.fn(*args, **kwargs)

    # -- introspection
    def dump_table(self) -> str:
        from .dump import dump_table

        return dump_table(self)

    def dump(self) -> str:
        from .dump import dump

        return dump(self)


def _op_by_name(qualname: str) -> OpOverload:
    op = find_op(qualname)
    if op is None:
        raise RuntimeError(f"operator {qualname} does not exist")
    return op


def _fallthrough_masks(table: dict[int, tuple[KernelRegistration, str]]) -> list[int]:
    """Per highest-backend-bit masks (indexed by the bit's bit_length) that drop the keys whose
    entry is a fallthrough."""
    n = backend_bit(NUM_BACKENDS + len(EXT_BACKENDS)).bit_length() + 1
    masks = [FULL] * n
    for k, (reg, _prov) in table.items():
        if k == 0 or not reg.fallthrough:
            continue
        func = to_functionality_key(k)
        bit = functionality_bit(func)
        if is_per_backend_functionality(func):
            masks[backend_bit(to_backend_component(k)).bit_length()] &= ~bit
        else:
            for b in range(n):
                masks[b] &= ~bit
    return masks


# ----------------------------------------------------------------------------- specialised calls

_SPECIALIZED: dict[tuple[tuple[int, int], ...], type[OpOverload]] = {}


def _call_source(pattern: tuple[tuple[int, int], ...], required: int, terms: list[str]) -> str:
    """The body of a specialised call: inline key extraction, one TLS read, cached kernel.
    It is dispatcher/reference.py's `dispatch` with each step at its cheapest: the key set
    from the tensor arguments' `_key_set` (this argument pattern's), `include, mask` in one TLS
    read, and the kernel `resolve` bound for that key set, cached per key set."""
    return (
        "    n = len(args)\n"
        f"    if kwargs or n < {required}:\n"
        "        return call_slow(args, kwargs)  # keywords, missing arguments: the generic path\n"
        "    try:\n"
        f"        ks = {' | '.join(terms)}\n"
        "    except AttributeError:  # a non-tensor where the schema wants a Tensor\n"
        "        return call_slow(args, kwargs)\n"
        "    include, mask = _tls.thread_state.include_and_mask\n"
        "    ks = (ks | include) & mask\n"
        "    try:\n"
        "        fn = cache[ks]\n"
        "    except KeyError:\n"
        "        fn = resolve(ks, True)\n"
        "    return fn(*args)\n"
    )


# Generated call code is registered with linecache (dispatcher/codegen.py).
_compile_registered = compile_registered


def _pattern_code(
    tensor_args: tuple[tuple[int, str, int], ...],
) -> tuple[Any, int, list[str]] | None:
    from .schema import OPT_TENSOR, TENSOR

    pattern = tuple((i, kind) for i, _name, kind in tensor_args)
    if not pattern or any(kind not in (TENSOR, OPT_TENSOR) for _i, kind in pattern):
        return None
    # Required tensors must be passed positionally; optional ones may be left out.
    required = [i for i, kind in pattern if kind == TENSOR]
    needed = max(required) + 1 if required else 0
    terms = []
    for n, (i, kind) in enumerate(pattern):
        if n == 0 and kind == TENSOR:
            terms.append(f"args[{i}]._key_set")
        elif i < needed:
            terms.append(f"_getattr(args[{i}], '_key_set', 0)")
        else:
            terms.append(f"(_getattr(args[{i}], '_key_set', 0) if n > {i} else 0)")
    return pattern, needed, terms


def _specialize(tensor_args: tuple[tuple[int, str, int], ...]) -> type[OpOverload]:
    """A subclass of OpOverload whose __call__ extracts keys for this argument pattern inline.

    The generated fast path handles positional calls whose tensor arguments are tensors (the
    first) or tensors/scalars/None (the rest); anything else takes `_call_slow`.
    """
    code = _pattern_code(tensor_args)
    if code is None:
        return OpOverload  # lists, or no tensor arguments: the generic path
    pattern, needed, terms = code
    cls = _SPECIALIZED.get(pattern)
    if cls is not None:
        return cls
    body = (
        _call_source(pattern, needed, terms)
        .replace("call_slow(", "self._call_slow(")
        .replace("cache[", "self._cache[")
        .replace("resolve(", "self._resolve(")
    )
    name = f"call_{len(_SPECIALIZED)}"
    src = (
        f"# Generated by keyroute/dispatcher/operator.py (_specialize) for the tensor-argument\n"
        f"# pattern {pattern}: OpOverload.__call__ of every operator with that pattern.\n"
        f"# Reference semantics: keyroute/dispatcher/reference.py (dispatch).\n"
        "def __call__(self, *args, **kwargs):\n" + body
    )
    namespace: dict[str, Any] = {"_tls": _tls, "_getattr": getattr}
    exec(_compile_registered(src, name), namespace)
    cls = type(f"OpOverload_{len(_SPECIALIZED)}", (OpOverload,), {"__slots__": ()})
    cls.__call__ = namespace["__call__"]  # type: ignore[method-assign]
    cls.__module__ = __name__
    _SPECIALIZED[pattern] = cls
    return cls


def fast_call(op: OpOverload, *, binary_operator: bool = False) -> Callable[..., Any]:
    """A plain function with the same behaviour as `op(...)`, for keyroute's own hot paths
    (calling a function is cheaper than calling an object with __call__).

    binary_operator=True makes the form Tensor's binary dunders use: a TypeError becomes
    NotImplemented, so Python tries the other operand and then raises its own "unsupported
    operand type(s)" (PyTorch's TypeError_to_NotImplemented_ wrapper)."""
    slot = "_fast_binary_operator" if binary_operator else "_fast_call"
    fn = op.__dict__.get(slot)
    if fn is not None:
        return fn
    code = _pattern_code(op._tensor_args) if op._schema is not None else None
    if code is None:
        body = "    return call_slow(args, kwargs)"
    else:
        body = _call_source(*code)
    if binary_operator:
        body = (
            "    try:\n"
            + "".join("    " + line + "\n" for line in body.splitlines())
            + "    except TypeError:\n"
            "        return NotImplemented"
        )
    src = (
        f"# Generated by keyroute/dispatcher/operator.py (fast_call) for {op}: the same as\n"
        f"# calling the operator. Reference semantics: keyroute/dispatcher/reference.py.\n"
        "def make(call_slow, cache, resolve):\n"
        "    def call(*args, **kwargs):\n"
        + "".join("    " + line + "\n" for line in body.splitlines())
        + "    return call\n"
    )
    namespace: dict[str, Any] = {"_tls": _tls, "_getattr": getattr}
    suffix = "_binary_operator" if binary_operator else ""
    exec(_compile_registered(src, f"fast_call/{op}{suffix}"), namespace)
    fn = namespace["make"](op._call_slow, op._cache, op._resolve)
    fn.__name__ = op.__name__
    fn.__qualname__ = str(op)
    op.__dict__[slot] = fn
    return fn


# ----------------------------------------------------------------------------- packets


def _packet(name: str) -> OpOverloadPacket:
    p = _PACKETS.get(name)
    if p is None:
        p = _PACKETS[name] = OpOverloadPacket(name)
    return p


class OpOverloadPacket:
    """All overloads of ns::name: `ops.aten.add.Tensor`, `ops.aten.add(...)` (overload chosen
    from the arguments), `.overloads()`, `str()` 'aten.add'."""

    def __init__(self, name: str) -> None:
        self._name = name
        self._overloads: dict[str, OpOverload] | None = None
        self.__name__ = name.split("::", 1)[-1]

    def _all(self) -> dict[str, OpOverload]:
        if self._overloads is None:
            found = {}
            prefix = self._name
            for op in _OPS.values():
                if op._name == prefix and op._schema is not None:
                    found[op._overloadname] = op
            # Keep the registration order's first overload first (as PyTorch lists them).
            self._overloads = found
        return self._overloads

    @property
    def _qualified_op_name(self) -> str:
        return self._name

    def overloads(self) -> list[str]:
        return list(self._all())

    def _invalidate(self) -> None:
        """Forget the overload list and the overloads cached as attributes."""
        if self._overloads:
            for name in self._overloads:
                self.__dict__.pop(name, None)
        self._overloads = None

    def __getattr__(self, overload: str) -> OpOverload:
        if overload.startswith("__"):
            raise AttributeError(overload)
        op = self._all().get(overload)
        if op is None:
            ns, name = self._name.split("::", 1)
            raise AttributeError(
                f"The underlying op of '{ns}.{name}' has no overload name '{overload}'"
            )
        self.__dict__[overload] = op  # next access skips __getattr__
        return op

    def __str__(self) -> str:
        return self._name.replace("::", ".")

    def __repr__(self) -> str:
        ns, name = self._name.split("::", 1)
        return f"<OpOverloadPacket(op='{ns}.{name}')>"

    def __call__(self, *args: Any, **kwargs: Any) -> Any:
        from .overload_resolution import choose_overload

        return choose_overload(self, args, kwargs)(*args, **kwargs)


def packet(name: str) -> OpOverloadPacket:
    return _packet(name)
