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

>>> DispatchKeySet(DispatchKey.AutogradCPU) | DispatchKeySet(DispatchKey.CUDA)
DispatchKeySet(CPU, CUDA, AutogradCPU, AutogradCUDA)
"""

from __future__ import annotations

from collections.abc import Iterator

from .keys import (
    END_OF_FUNCTIONALITY,
    END_OF_RUNTIME,
    NUM_BACKENDS,
    PER_BACKEND_FUNCTIONALITIES,
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
BACKEND_MASK = (1 << NUM_BACKENDS) - 1
#: Every functionality bit (Dense .. PythonDispatcher, and EndOfFunctionalityKeys' bit 62).
FUNCTIONALITY_MASK = ((1 << (NUM_BACKENDS + END_OF_FUNCTIONALITY)) - 1) & ~BACKEND_MASK
VISIBLE_MASK = BACKEND_MASK | FUNCTIONALITY_MASK
#: keyroute's private marks, above PyTorch's 64 bits (Python ints are unbounded): "some input
#: requires grad", and "inference mode is on" (set in the TLS include set by inference_mode so
#: that operator resolutions, cached per key set, know to make inference tensors).
REQUIRES_GRAD_BIT = 1 << 64
INFERENCE_BIT = 1 << 65
PRIVATE_BITS = REQUIRES_GRAD_BIT | INFERENCE_BIT
#: The FULL key set (every backend and functionality bit), plus the private requires-grad bit.
FULL = ((1 << (NUM_BACKENDS + END_OF_FUNCTIONALITY - 1)) - 1) | PRIVATE_BITS


def functionality_bit(func: int) -> int:
    return 1 << (NUM_BACKENDS + func - 1) if func else 0


def key_bits(k: int) -> int:
    """The bits of DispatchKeySet(k): alias keys and Undefined give 0."""
    k = int(k)
    if k == 0 or is_alias_key(k) or k > END_OF_RUNTIME:
        return 0
    if k <= END_OF_FUNCTIONALITY:
        return functionality_bit(k)
    backend = to_backend_component(k)
    bits = functionality_bit(to_functionality_key(k))
    return bits | (1 << (backend - 1)) if backend else bits


def highest_priority_key(ks: int) -> int:
    """highestPriorityTypeId: the runtime key a key set dispatches to (0 = Undefined)."""
    func = ((ks & FUNCTIONALITY_MASK) >> NUM_BACKENDS).bit_length()
    start = PER_BACKEND_FUNCTIONALITIES.get(func)
    if start is None:
        return func
    return start + (ks & BACKEND_MASK).bit_length()


def keyset_keys(ks: int) -> list[int]:
    """The runtime keys of a key set in ascending priority (per-backend ones expanded)."""
    out: list[int] = []
    backends = [b for b in range(1, NUM_BACKENDS + 1) if ks & (1 << (b - 1))]
    for func in range(1, END_OF_FUNCTIONALITY):
        if not ks & functionality_bit(func):
            continue
        start = PER_BACKEND_FUNCTIONALITIES.get(func)
        if start is None:
            out.append(func)
        else:
            out.extend(start + b for b in backends)
    return out


def keyset_repr(ks: int) -> str:
    return "DispatchKeySet(" + ", ".join(key_name(k) for k in keyset_keys(ks)) + ")"


def full_after_bits(k: int) -> int:
    """DispatchKeySet(FULL_AFTER, k): every bit below k's functionality bit, plus
    PythonDispatcher. (For Undefined and alias keys that is backend bits 0..14 only, as in
    PyTorch: the Meta bit is left out.)"""
    func = to_functionality_key(int(k))
    below = (1 << (NUM_BACKENDS - 1 + func)) - 1
    return below | functionality_bit(int(DK.PythonDispatcher)) | PRIVATE_BITS


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
        return self.repr_ & VISIBLE_MASK

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
