"""DispatchKeySet: a 64-bit bitmap of dispatch keys, with PyTorch's algebra.

Bits 0..15 are backend components (CPU .. Meta); bit 15+v is the functionality of value v.
A per-backend runtime key sets two bits (AutogradCPU = AutogradFunctionality bit + CPU bit), so
unions form cross products: {AutogradCPU} | {CUDA} = {CPU, CUDA, AutogradCPU, AutogradCUDA}.
Removal clears functionality bits only, never backend bits.

The hot path works on plain ints; `DispatchKeySet` wraps an int for users and kernels.

Note: bit 64 is keyroute's private "some input requires grad" mark and bit 65 its "inference
mode" mark (PyTorch uses bits 0..62). They ride along in the ints the dispatcher computes so the
autograd layer can be skipped on the plain path and resolutions know about inference mode; they
never show in a repr, `raw_repr()` or equality.

Keys and backends registered at run time (dispatcher/open_keys.py) have bits above those two
(Note [run-time keys] in keys.py): their priority is read from `keys.ORDER`, so they cost
nothing unless a key set holds one (every function here takes the builtin route for an int
below `1 << EXT_BITS_START`). The masks reserve their whole range up front, so constants computed
at import (a layer's `full_after_bits`, the TLS masks) stay right when keys are added later.

>>> DispatchKeySet(DispatchKey.AutogradCPU) | DispatchKeySet(DispatchKey.CUDA)
DispatchKeySet(CPU, CUDA, AutogradCPU, AutogradCUDA)
"""

from __future__ import annotations

from collections.abc import Iterator

from . import keys as _keys
from .keys import (
    END_OF_FUNCTIONALITY,
    END_OF_RUNTIME,
    EXT_BACKEND_SHIFT,
    EXT_START,
    MAX_EXT_BACKENDS,
    MAX_USER_KEYS,
    NUM_BACKENDS,
    PER_BACKEND_FUNCTIONALITIES,
    USER_KEY_SHIFT,
    DispatchKey,
    is_alias_key,
    key_name,
    to_backend_component,
    to_functionality_key,
)

__all__ = [
    "DispatchKeySet",
    "key_bits",
    "highest_priority_key",
    "keyset_keys",
    "keyset_repr",
    "full_after_bits",
    "BACKEND_MASK",
    "FUNCTIONALITY_MASK",
    "FULL",
    "VISIBLE_MASK",
    "REQUIRES_GRAD_BIT",
    "INFERENCE_BIT",
]

DK = DispatchKey
#: The run-time backends' and functionality keys' reserved bits (keys.py Note [run-time keys]).
EXT_BITS_START = EXT_BACKEND_SHIFT + NUM_BACKENDS + 1  # 66
EXT_BACKEND_MASK = ((1 << MAX_EXT_BACKENDS) - 1) << EXT_BITS_START
USER_KEY_MASK = ((1 << MAX_USER_KEYS) - 1) << USER_KEY_SHIFT
_BUILTIN_BACKEND_MASK = (1 << NUM_BACKENDS) - 1
BACKEND_MASK = _BUILTIN_BACKEND_MASK | EXT_BACKEND_MASK
#: Every functionality bit (Dense .. PythonDispatcher, EndOfFunctionalityKeys' bit 62, and the
#: run-time keys' range).
FUNCTIONALITY_MASK = (
    ((1 << (NUM_BACKENDS + END_OF_FUNCTIONALITY)) - 1) & ~_BUILTIN_BACKEND_MASK
) | USER_KEY_MASK
VISIBLE_MASK = BACKEND_MASK | FUNCTIONALITY_MASK
#: keyroute's private marks, above PyTorch's 64 bits (Python ints are unbounded): "some input
#: requires grad", and "inference mode is on" (set in the TLS include set by inference_mode so
#: that operator resolutions, cached per key set, know to make inference tensors).
REQUIRES_GRAD_BIT = 1 << 64
INFERENCE_BIT = 1 << 65
PRIVATE_BITS = REQUIRES_GRAD_BIT | INFERENCE_BIT
#: The FULL key set (every backend and functionality bit, the run-time ones' range too), plus
#: the private bits.
FULL = (
    ((1 << (NUM_BACKENDS + END_OF_FUNCTIONALITY - 1)) - 1)
    | PRIVATE_BITS
    | EXT_BACKEND_MASK
    | USER_KEY_MASK
)


def functionality_bit(func: int) -> int:
    if func >= EXT_START:
        return _keys.USER_KEYS.get(func, 0)
    return 1 << (NUM_BACKENDS + func - 1) if func else 0


def key_bits(k: int) -> int:
    """The bits of DispatchKeySet(k): alias keys and Undefined give 0."""
    k = int(k)
    if k >= EXT_START:
        return _ext_key_bits(k)
    if k == 0 or is_alias_key(k) or k > END_OF_RUNTIME:
        return 0
    if k <= END_OF_FUNCTIONALITY:
        return functionality_bit(k)
    backend = to_backend_component(k)
    bits = functionality_bit(to_functionality_key(k))
    return bits | (1 << (backend - 1)) if backend else bits


def _ext_key_bits(k: int) -> int:
    bit = _keys.USER_KEYS.get(k)
    if bit is not None:
        return bit
    func, backend = _keys.EXT_RUNTIME.get(k, (0, 0))
    if not func:
        return 0
    return functionality_bit(func) | _keys.backend_bit(backend)


_BUILTIN_BITS = 1 << EXT_BITS_START  # a key set below this holds no run-time key or backend
#: The visible bits of the keys and backends that exist (open_keys.py widens it).
_keys_in_use = [VISIBLE_MASK & (_BUILTIN_BITS - 1)]


def _backend_index(ks: int) -> int:
    """The highest-priority backend component of ks (run-time backends rank above Meta)."""
    top = (ks & BACKEND_MASK).bit_length()
    return top if top <= NUM_BACKENDS else top - 1 - EXT_BACKEND_SHIFT


def highest_priority_key(ks: int) -> int:
    """highestPriorityTypeId: the runtime key a key set dispatches to (0 = Undefined)."""
    if ks >= _BUILTIN_BITS:
        return _highest_ext(ks)
    func = ((ks & FUNCTIONALITY_MASK) >> NUM_BACKENDS).bit_length()
    start = PER_BACKEND_FUNCTIONALITIES.get(func)
    if start is None:
        return func
    return start + (ks & BACKEND_MASK).bit_length()


def _highest_ext(ks: int) -> int:
    # Priority is data here: the highest functionality of ks in keys.ORDER.
    for func in reversed(_keys.ORDER):
        if ks & functionality_bit(func):
            if not _keys.is_per_backend_functionality(func):
                return func
            backend = _backend_index(ks)
            if not backend:  # no backend bit: the first backend's slot, as PyTorch indexes it
                start = PER_BACKEND_FUNCTIONALITIES.get(func)
                return start if start is not None else _keys.to_runtime_key(func, 1)
            return _keys.to_runtime_key(func, backend)
    return 0


def keyset_keys(ks: int) -> list[int]:
    """The runtime keys of a key set in ascending priority (per-backend ones expanded)."""
    out: list[int] = []
    if ks >= _BUILTIN_BITS:
        nb = NUM_BACKENDS + len(_keys.EXT_BACKENDS)
        order = _keys.ORDER
    else:
        nb, order = NUM_BACKENDS, range(1, END_OF_FUNCTIONALITY)
    backends = [b for b in range(1, nb + 1) if ks & _keys.backend_bit(b)]
    for func in order:
        if not ks & functionality_bit(func):
            continue
        if not _keys.is_per_backend_functionality(func):
            out.append(func)
        else:
            out.extend(_keys.to_runtime_key(func, b) for b in backends)
    return out


def keyset_repr(ks: int) -> str:
    return "DispatchKeySet(" + ", ".join(key_name(k) for k in keyset_keys(ks)) + ")"


def full_after_bits(k: int) -> int:
    """DispatchKeySet(FULL_AFTER, k): every bit below k's functionality bit, plus
    PythonDispatcher. (For Undefined and alias keys that is backend bits 0..14 only, as in
    PyTorch: the Meta bit is left out.)

    Run-time keys: the set keeps every run-time backend, and every run-time key but those
    registered so far at or above k's priority. Keeping a key registered later is right both
    ways: one below k must stay; one above k has run already (its own kernel cleared its bit on
    the way down) or was masked out as a fallthrough, so the set cannot hold it."""
    func = to_functionality_key(int(k))
    keep = functionality_bit(int(DK.PythonDispatcher)) | PRIVATE_BITS | EXT_BACKEND_MASK
    if func < EXT_START:
        below = (1 << (NUM_BACKENDS - 1 + func)) - 1
        return below | keep | (USER_KEY_MASK & ~_user_bits_at_or_above(func))
    order = _keys.ORDER
    pos = order.index(func)
    below = 0
    for f in order[:pos]:
        below |= functionality_bit(f)
    return (
        (below & ~USER_KEY_MASK)
        | _BUILTIN_BACKEND_MASK
        | keep
        | (USER_KEY_MASK & ~_user_bits_at_or_above(func))
    )


def _user_bits_at_or_above(func: int) -> int:
    if not _keys.USER_KEYS or func == 0 or is_alias_key(func):
        return 0
    order = _keys.ORDER
    out = 0
    for f in order[order.index(func) :]:
        if f >= EXT_START:
            out |= _keys.USER_KEYS[f]
    return out


class DispatchKeySet:
    """A set of dispatch keys (PyTorch's c10::DispatchKeySet); immutable, hashable.

    >>> ks = DispatchKeySet(DispatchKey.CPU) | DispatchKeySet(DispatchKey.AutogradCPU)
    >>> ks.highestPriorityTypeId()
    <DispatchKey.AutogradCPU: 134>
    >>> ks - DispatchKeySet(DispatchKey.CPU)
    DispatchKeySet(AutogradCPU)
    """

    __slots__ = ("repr_",)

    def __init__(self, key: int | DispatchKey | None = None, *, raw: int | None = None) -> None:
        if raw is not None:
            self.repr_ = raw
        elif key is None:
            self.repr_ = 0
        else:
            self.repr_ = key_bits(int(key))

    @classmethod
    def from_raw_repr(cls, raw: int) -> DispatchKeySet:
        return cls.from_raw(int(raw))

    @classmethod
    def from_raw(cls, raw: int) -> DispatchKeySet:
        self = object.__new__(cls)
        self.repr_ = raw
        return self

    @staticmethod
    def _bits(other: object) -> int:
        if isinstance(other, DispatchKeySet):
            return other.repr_
        if isinstance(other, int):  # a DispatchKey
            return key_bits(other)
        raise TypeError(f"expected a DispatchKeySet or DispatchKey, got {type(other).__name__}")

    def __or__(self, other: object) -> DispatchKeySet:
        return DispatchKeySet.from_raw(self.repr_ | self._bits(other))

    def __and__(self, other: object) -> DispatchKeySet:
        return DispatchKeySet.from_raw(self.repr_ & self._bits(other))

    def __sub__(self, other: object) -> DispatchKeySet:
        # Backend bits are shared by every functionality: removing keys keeps them.
        return DispatchKeySet.from_raw(self.repr_ & (BACKEND_MASK | ~self._bits(other)))

    def add(self, key: int) -> DispatchKeySet:
        return DispatchKeySet.from_raw(self.repr_ | key_bits(key))

    def remove(self, key: int) -> DispatchKeySet:
        return DispatchKeySet.from_raw(self.repr_ & ~(key_bits(key) & FUNCTIONALITY_MASK))

    def has(self, key: int) -> bool:
        bits = key_bits(key)
        return self.repr_ & bits == bits

    def has_all(self, other: DispatchKeySet) -> bool:
        return self.repr_ & other.repr_ == other.repr_

    def has_any(self, other: DispatchKeySet) -> bool:
        return bool(self.repr_ & other.repr_ & VISIBLE_MASK)

    def empty(self) -> bool:
        return not self.repr_ & VISIBLE_MASK

    def highestPriorityTypeId(self) -> DispatchKey:  # noqa: N802 (PyTorch's name)
        return DispatchKey(highest_priority_key(self.repr_))

    highest_priority_key = highestPriorityTypeId

    def raw_repr(self) -> int:
        # The reserved ranges of run-time keys show only for keys that exist.
        return self.repr_ & _keys_in_use[0]

    def __iter__(self) -> Iterator[DispatchKey]:
        return (DispatchKey(k) for k in keyset_keys(self.repr_))

    def __len__(self) -> int:
        return len(keyset_keys(self.repr_))

    def __contains__(self, key: int) -> bool:
        return self.has(key)

    def __eq__(self, other: object) -> bool:
        if isinstance(other, DispatchKeySet):
            return (self.repr_ ^ other.repr_) & VISIBLE_MASK == 0
        return NotImplemented

    def __hash__(self) -> int:
        return hash(self.repr_ & VISIBLE_MASK)

    def __bool__(self) -> bool:
        return bool(self.repr_ & VISIBLE_MASK)

    def __repr__(self) -> str:
        return keyset_repr(self.repr_)

    __str__ = __repr__
