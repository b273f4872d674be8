"""Alias keys and the runtime keys they stand for (PyTorch 2.13's expansions).

A kernel registered on an alias key fills the table slot of every runtime key in its expansion
unless a more specific registration wins (see operator.compute_entry for the precedence).

>>> len(ALIAS_EXPANSION[DispatchKey.CompositeImplicitAutograd])
103
"""

from __future__ import annotations

from .keys import BACKENDS, RUNTIME_KEYS, DispatchKey, key_name, to_backend_component

__all__ = [
    "ALIAS_EXPANSION",
    "AUTOGRAD_KEYS",
    "AUTOGRADOTHER_BACKENDS",
    "backend_keys_from_autograd",
    "is_included_in_alias",
]

DK = DispatchKey


def _per_backend(prefix: str) -> list[int]:
    return [int(DK[prefix + b]) for b in BACKENDS]


_DENSE = _per_backend("")
_QUANTIZED = _per_backend("Quantized")
_SPARSE = _per_backend("Sparse")
_SPARSE_CSR = _per_backend("SparseCsr")
_NESTED = _per_backend("NestedTensor")
_AUTOGRAD_BACKENDS = _per_backend("Autograd")

# The expansions are sets changed in place when a backend is registered at run time
# (add_backend, called by dispatcher/open_keys.py), so every module holding them sees it.

#: The Autograd alias: AutogradOther, Autograd<every backend>, AutogradNestedTensor.
AUTOGRAD_KEYS = set([int(DK.AutogradOther), *_AUTOGRAD_BACKENDS, int(DK.AutogradNestedTensor)])

_CEA = frozenset(
    [
        *_DENSE,
        int(DK.FPGA),
        int(DK.Vulkan),
        int(DK.Metal),
        int(DK.CustomRNGKeyId),
        int(DK.MkldnnCPU),
        *_QUANTIZED,
        *_SPARSE,
        *_SPARSE_CSR,
    ]
)
_XLA_LAZY = (BACKENDS.index("XLA") + 1, BACKENDS.index("Lazy") + 1)
_CEANF = frozenset(k for k in _CEA if k not in _SPARSE and to_backend_component(k) not in _XLA_LAZY)
_CIA_NESTED = frozenset([*_NESTED, int(DK.AutogradNestedTensor)])

ALIAS_EXPANSION: dict[int, set[int]] = {
    int(DK.Autograd): AUTOGRAD_KEYS,
    int(DK.CompositeImplicitAutograd): set(_CEA | AUTOGRAD_KEYS | frozenset(_NESTED)),
    int(DK.FuncTorchBatchedDecomposition): {int(DK.FuncTorchBatched)},
    int(DK.CompositeImplicitAutogradNestedTensor): set(_CIA_NESTED),
    int(DK.CompositeExplicitAutograd): set(_CEA),
    int(DK.CompositeExplicitAutogradNonFunctional): set(_CEANF),
}

#: Backends whose autograd goes through AutogradOther (no Autograd<backend> key of their own).
AUTOGRADOTHER_BACKENDS = set(
    [
        int(DK.FPGA),
        int(DK.Vulkan),
        int(DK.Metal),
        int(DK.CustomRNGKeyId),
        int(DK.MkldnnCPU),
        *_QUANTIZED,
        *_SPARSE,
        *_SPARSE_CSR,
    ]
)

# getBackendKeySetFromAutograd: HIP, VE and MTIA have no entry in 2.13.
_NO_BACKEND = {"HIP", "VE", "MTIA"}
_FROM_AUTOGRAD: dict[int, frozenset[int]] = {
    int(DK.AutogradOther): AUTOGRADOTHER_BACKENDS,
    int(DK.AutogradNestedTensor): frozenset(_NESTED),
}
for _b, _name in enumerate(BACKENDS):
    _FROM_AUTOGRAD[_AUTOGRAD_BACKENDS[_b]] = (
        frozenset() if _name in _NO_BACKEND else frozenset([_DENSE[_b]])
    )


def add_backend(runtime: dict[str, int]) -> None:
    """Put a run-time backend's runtime keys into the expansions, as the builtin backends' are:
    `runtime` maps a building block's prefix ("", "Autograd", "Quantized", "Sparse",
    "SparseCsr", "NestedTensor") to the backend's key for it."""
    dense, autograd, nested = runtime[""], runtime["Autograd"], runtime["NestedTensor"]
    other = (runtime["Quantized"], runtime["Sparse"], runtime["SparseCsr"])
    E = ALIAS_EXPANSION  # noqa: N806
    E[int(DK.CompositeExplicitAutograd)].update((dense, *other))
    E[int(DK.CompositeExplicitAutogradNonFunctional)].update((dense, *other[:1], other[2]))
    E[int(DK.CompositeImplicitAutograd)].update((dense, *other, autograd, nested))
    E[int(DK.CompositeImplicitAutogradNestedTensor)].add(nested)
    AUTOGRAD_KEYS.add(autograd)
    AUTOGRADOTHER_BACKENDS.update(other)
    _FROM_AUTOGRAD[autograd] = frozenset([dense])
    _ALIAS_BITS.clear()


def backend_keys_from_autograd(k: int) -> frozenset[int]:
    """getBackendKeySetFromAutograd: AutogradCPU -> {CPU}; non-autograd keys -> empty."""
    return _FROM_AUTOGRAD.get(int(k), frozenset())


def _alias_bits(alias: int) -> int:
    from .keyset import key_bits

    bits = 0
    for k in ALIAS_EXPANSION[alias]:
        bits |= key_bits(k)
    return bits


_ALIAS_BITS: dict[int, int] = {}


def is_included_in_alias(k: int, alias: int) -> bool:
    """isIncludedInAlias: a bit-subset test of k's key set in the alias's runtime key set (so
    building blocks such as Dense, and alias keys themselves, count as included). A non-alias
    second argument includes only itself."""
    from .keyset import key_bits

    k, alias = int(k), int(alias)
    if k == 0:
        return False
    if alias == 0:
        raise RuntimeError(_internal_assert("t != DispatchKey::Undefined"))
    if alias not in ALIAS_EXPANSION:
        return k == alias
    bits = _ALIAS_BITS.get(alias)
    if bits is None:
        bits = _ALIAS_BITS[alias] = _alias_bits(alias)
    kb = key_bits(k)
    return kb & bits == kb


def _internal_assert(cond: str) -> str:
    return f'{cond} INTERNAL ASSERT FAILED at "{__file__}":1, please report a bug to PyTorch. '


assert all(k in RUNTIME_KEYS for exp in ALIAS_EXPANSION.values() for k in exp), [  # builtin
    key_name(k) for exp in ALIAS_EXPANSION.values() for k in exp if k not in RUNTIME_KEYS
]
