"""Dispatch keys: PyTorch 2.13's enum, with the same names, values and priority order.

A *functionality* key's value is its priority: the higher, the earlier it runs. Six
functionalities are *per-backend building blocks* (Dense, Quantized, Sparse, SparseCsr,
NestedTensor, AutogradFunctionality): combined with one of the 16 *backend components* they
form the *runtime* keys (CPU = Dense x CPUBit, AutogradCUDA = AutogradFunctionality x CUDABit).
*Alias* keys (Autograd, CompositeImplicitAutograd, ...) name sets of runtime keys; they are used
to register kernels and never appear in a key set.

Note: key-set bit layout (see keyset.py) -- backend component i (1..16) is bit i-1; functionality
value v (1..46) is bit 15+v. The priority order of the enum below *is* the dispatch order.

Note [run-time keys]: keys and backends registered at run time (dispatcher/open_keys.py:
register_key, register_backend) get values from 256 up (PyTorch's enum ends at 155) and bits
above PyTorch's 64: a backend component i (17..) is bit 49+i, a functionality key the next free
bit from 130. Their priority is data (`ORDER`), not their value: the builtin functions below
answer for them from the tables at the end of this module, which only open_keys.py fills.

>>> DispatchKey.AutogradCPU.value, DispatchKey.Meta.value
(134, 64)
>>> key_name(DispatchKey.AutogradMeta)
'AutogradMeta'
"""

from __future__ import annotations

from enum import IntEnum

__all__ = [
    "BackendComponent",
    "DispatchKey",
    "BACKENDS",
    "PER_BACKEND_FUNCTIONALITIES",
    "NUM_BACKENDS",
    "key_name",
    "parse_dispatch_key",
    "is_alias_key",
    "is_dense_backend_key",
    "is_per_backend_functionality",
    "is_runtime_key",
    "runtime_keys",
    "to_functionality_key",
    "to_backend_component",
    "to_runtime_key",
    "autograd_key_for_backend",
    "backend_bit",
    "backend_names",
]

#: Backend components in order (BackendComponent 1..16; key-set bits 0..15, low to high priority).
BACKENDS = (
    "CPU",
    "CUDA",
    "HIP",
    "XLA",
    "MPS",
    "IPU",
    "XPU",
    "HPU",
    "VE",
    "Lazy",
    "MTIA",
    "MAIA",
    "PrivateUse1",
    "PrivateUse2",
    "PrivateUse3",
    "Meta",
)
NUM_BACKENDS = len(BACKENDS)


class BackendComponent(IntEnum):
    InvalidBit = 0
    CPUBit = 1
    CUDABit = 2
    HIPBit = 3
    XLABit = 4
    MPSBit = 5
    IPUBit = 6
    XPUBit = 7
    HPUBit = 8
    VEBit = 9
    LazyBit = 10
    MTIABit = 11
    MAIABit = 12
    PrivateUse1Bit = 13
    PrivateUse2Bit = 14
    PrivateUse3Bit = 15
    MetaBit = 16


def _build_enum() -> type[IntEnum]:
    # Functionality keys: the value is the priority (c10/core/DispatchKey.h order).
    functionality = [
        "Undefined",
        "Dense",  # per-backend: CPU, CUDA, ...
        "FPGA",
        "Vulkan",
        "Metal",
        "Quantized",  # per-backend
        "CustomRNGKeyId",
        "MkldnnCPU",
        "Sparse",  # per-backend
        "SparseCsr",  # per-backend
        "NestedTensor",  # per-backend
        "BackendSelect",  # picks a backend for ops with no tensor inputs (factories)
        "Fake",
        "Python",  # tensor subclasses and dispatch modes
        "FuncTorchDynamicLayerBackMode",
        "Functionalize",
        "Conjugate",
        "Negative",
        "ZeroTensor",
        "ADInplaceOrView",  # version counters and view metadata
        "AutogradOther",
        "AutogradFunctionality",  # per-backend: AutogradCPU, ...
        "AutogradNestedTensor",
        "Tracer",
        "AutocastCPU",
        "AutocastMTIA",
        "AutocastMAIA",
        "AutocastXPU",
        "AutocastIPU",
        "AutocastHPU",
        "AutocastXLA",
        "AutocastMPS",
        "AutocastCUDA",
        "AutocastPrivateUse1",
        "FuncTorchBatched",
        "BatchedNestedTensor",
        "FuncTorchVmapMode",
        "Batched",
        "VmapMode",
        "FuncTorchGradWrapper",
        "DeferredInit",
        "PythonTLSSnapshot",
        "FuncTorchDynamicLayerFrontMode",
        "TESTING_ONLY_GenericWrapper",
        "TESTING_ONLY_GenericMode",
        "PreDispatch",
        "PythonDispatcher",
        "EndOfFunctionalityKeys",
    ]
    members: list[tuple[str, int]] = [(n, v) for v, n in enumerate(functionality)]
    value = len(functionality) - 1  # EndOfFunctionalityKeys = 47
    # Runtime per-backend keys: StartOf<F>Backends, then one per backend, End = last.
    for prefix, start_name in (
        ("", "Dense"),
        ("Quantized", "Quantized"),
        ("Sparse", "Sparse"),
        ("SparseCsr", "SparseCsr"),
        ("NestedTensor", "NestedTensor"),
        ("Autograd", "AutogradFunctionality"),
    ):
        value += 1
        members.append((f"StartOf{start_name}Backends", value))
        for backend in BACKENDS:
            value += 1
            members.append((prefix + backend, value))
        members.append((f"EndOf{start_name}Backends", value))
    members.append(("EndOfRuntimeBackendKeys", value))  # 149
    for alias in (
        "Autograd",
        "CompositeImplicitAutograd",
        "FuncTorchBatchedDecomposition",
        "CompositeImplicitAutogradNestedTensor",
        "CompositeExplicitAutograd",
        "CompositeExplicitAutogradNonFunctional",
    ):
        value += 1
        members.append((alias, value))
    members.append(("StartOfAliasKeys", 150))
    members.append(("EndOfAliasKeys", value))  # 155
    # Deprecated spellings that c10 keeps as enum aliases.
    members.append(("CatchAll", 0))
    return IntEnum("DispatchKey", members)


DispatchKey = _build_enum()


def _missing_key(cls: type, value: object) -> object:
    # DispatchKey(i) accepts any int in 0..255 as in PyTorch; unknown ones are named after
    # c10::toString ("UnknownUnknown" and friends). Run-time keys are real members (open_keys).
    if isinstance(value, int) and 0 <= value <= 255:
        member = int.__new__(cls, value)
        member._name_ = key_name(value)
        member._value_ = value
        return member
    return None


DispatchKey._missing_ = classmethod(_missing_key)
DispatchKey.__doc__ = "PyTorch 2.13's DispatchKey enum (same names and values)."
DispatchKey.__module__ = __name__
DK = DispatchKey

#: Per-backend building-block functionalities and the value before their first runtime key.
PER_BACKEND_FUNCTIONALITIES = {
    int(DK.Dense): int(DK.StartOfDenseBackends),
    int(DK.Quantized): int(DK.StartOfQuantizedBackends),
    int(DK.Sparse): int(DK.StartOfSparseBackends),
    int(DK.SparseCsr): int(DK.StartOfSparseCsrBackends),
    int(DK.NestedTensor): int(DK.StartOfNestedTensorBackends),
    int(DK.AutogradFunctionality): int(DK.StartOfAutogradFunctionalityBackends),
}
_START_TO_FUNCTIONALITY = {v: k for k, v in PER_BACKEND_FUNCTIONALITIES.items()}
_PREFIX = {
    int(DK.Dense): "",
    int(DK.Quantized): "Quantized",
    int(DK.Sparse): "Sparse",
    int(DK.SparseCsr): "SparseCsr",
    int(DK.NestedTensor): "NestedTensor",
    int(DK.AutogradFunctionality): "Autograd",
}
END_OF_FUNCTIONALITY = int(DK.EndOfFunctionalityKeys)  # 47
END_OF_RUNTIME = int(DK.EndOfRuntimeBackendKeys)  # 149
START_OF_ALIAS = int(DK.StartOfAliasKeys)  # 150
END_OF_ALIAS = int(DK.EndOfAliasKeys)  # 155


def is_alias_key(k: int) -> bool:
    return START_OF_ALIAS <= k <= END_OF_ALIAS


def is_dense_backend_key(k: int) -> bool:
    """A backend's own key (CPU, CUDA, Meta, PrivateUse1...: Dense x a backend), the keys whose
    kernels make fresh tensors (StartOfDenseBackends itself is a placeholder, not a key)."""
    if k >= EXT_START:
        return EXT_RUNTIME.get(k, (0, 0))[0] == int(DK.Dense)
    return int(DK.StartOfDenseBackends) < k <= int(DK.EndOfDenseBackends)


def is_per_backend_functionality(k: int) -> bool:
    return k in PER_BACKEND_FUNCTIONALITIES or k in USER_PER_BACKEND


def to_functionality_key(k: int) -> int:
    """The functionality of a key: CPU -> Dense, AutogradCUDA -> AutogradFunctionality."""
    if k <= END_OF_FUNCTIONALITY:
        return k
    if k >= EXT_START:
        if k in USER_KEYS:
            return k
        return EXT_RUNTIME.get(k, (0, 0))[0]
    if k > END_OF_RUNTIME:
        return 0
    for func, start in PER_BACKEND_FUNCTIONALITIES.items():
        if start <= k <= start + NUM_BACKENDS:
            return func
    return 0  # pragma: no cover


def to_backend_component(k: int) -> int:
    """The backend component index (1..16, then run-time backends; 0 = none) of a runtime
    per-backend key."""
    if END_OF_FUNCTIONALITY < k <= END_OF_RUNTIME:
        return (k - int(DK.StartOfDenseBackends)) % (NUM_BACKENDS + 1)
    if k >= EXT_START:
        return EXT_RUNTIME.get(k, (0, 0))[1]
    return 0


def to_runtime_key(functionality: int, backend: int) -> int:
    """Combine a per-backend functionality with a backend index (1..16, or a run-time one)."""
    if backend <= NUM_BACKENDS and functionality in PER_BACKEND_FUNCTIONALITIES:
        return PER_BACKEND_FUNCTIONALITIES[functionality] + backend
    return RUNTIME_OF[(functionality, backend)]


def autograd_key_for_backend(backend: int) -> int:
    """AutogradCPU for CPU's backend index, etc."""
    return to_runtime_key(int(DK.AutogradFunctionality), backend)


def backend_bit(backend: int) -> int:
    """The key-set bit of backend component `backend` (see Note [run-time keys])."""
    return 1 << (backend - 1) if backend <= NUM_BACKENDS else 1 << (EXT_BACKEND_SHIFT + backend)


def backend_names() -> list[str]:
    """Every backend component's name, index order (builtin 16, then run-time ones)."""
    return [*BACKENDS, *EXT_BACKENDS]


def is_runtime_key(k: int) -> bool:
    """A key that owns a slot in an operator's dispatch table."""
    if k == 0 or k == END_OF_FUNCTIONALITY:
        return False
    if k < END_OF_FUNCTIONALITY:
        return k not in PER_BACKEND_FUNCTIONALITIES
    if k <= END_OF_RUNTIME:
        return k not in _START_TO_FUNCTIONALITY
    if k >= EXT_START:
        return k in EXT_RUNTIME or (k in USER_KEYS and k not in USER_PER_BACKEND)
    return False


def key_name(k: int) -> str:
    """c10::toString of a key value, quirks included (48 'Undefined', 133 'AutogradUndefined')."""
    k = int(k)
    if k >= EXT_START:
        return EXT_NAMES.get(k, "UnknownUnknown")
    if k == END_OF_FUNCTIONALITY:
        return "UnknownUnknown"
    if END_OF_FUNCTIONALITY < k <= END_OF_RUNTIME:
        func = to_functionality_key(k)
        backend = to_backend_component(k)
        return _PREFIX[func] + (BACKENDS[backend - 1] if backend else "Undefined")
    if k == 0:
        return "Undefined"
    if k in _NAMES:
        return _NAMES[k]
    return "UnknownUnknown"


# Canonical names of the non-per-backend values (enum iteration skips aliases like CatchAll).
_NAMES = {
    m.value: m.name
    for m in DispatchKey
    if m.value < END_OF_FUNCTIONALITY or m.value >= START_OF_ALIAS
}


#: All runtime keys in dispatch-table order (the order PyTorch's FULL key set iterates in).
def runtime_keys() -> list[int]:
    out: list[int] = []
    backends = range(1, NUM_BACKENDS + len(EXT_BACKENDS) + 1)
    for func in ORDER:
        if is_per_backend_functionality(func):
            out.extend(to_runtime_key(func, b) for b in backends)
        else:
            out.append(func)
    return out


# ----------------------------------------------------------------------------- run-time keys
# Filled by dispatcher/open_keys.py only (Note [run-time keys]); lists are changed in place so
# that every module holding them sees the new keys.

EXT_START = 256
#: Run-time backend component i (17, 18, ...) is key-set bit EXT_BACKEND_SHIFT + i.
EXT_BACKEND_SHIFT = 49
MAX_EXT_BACKENDS = 64
#: Run-time functionality keys take bits from USER_KEY_SHIFT up.
USER_KEY_SHIFT = 66 + MAX_EXT_BACKENDS
MAX_USER_KEYS = 128
EXT_BACKENDS: list[str] = []
#: Functionality keys in ascending priority: builtin values, run-time ones where inserted.
ORDER: list[int] = list(range(1, END_OF_FUNCTIONALITY))
USER_KEYS: dict[int, int] = {}  # run-time functionality key -> its key-set bit
USER_PER_BACKEND: set[int] = set()
EXT_RUNTIME: dict[int, tuple[int, int]] = {}  # run-time runtime key -> (functionality, backend)
RUNTIME_OF: dict[tuple[int, int], int] = {}  # the inverse
EXT_NAMES: dict[int, str] = {}

RUNTIME_KEYS: list[int] = runtime_keys()
#: Table slots: Undefined first, then every runtime key (137 builtin ones).
TABLE_KEYS: list[int] = [0, *RUNTIME_KEYS]


def _parse_table() -> dict[str, int]:
    # What c10::parseDispatchKey accepts: the functionality keys (building blocks included),
    # the Dense/Autograd runtime keys of every backend, the runtime Quantized/Sparse/SparseCsr/
    # NestedTensor keys PyTorch lists by name, and the alias keys. Not "CatchAll".
    table: dict[str, int] = {}
    for v in range(0, END_OF_FUNCTIONALITY):
        table[DispatchKey(v).name] = v
    for b, backend in enumerate(BACKENDS, start=1):
        table[backend] = int(DK.StartOfDenseBackends) + b
    autograd_names = (
        "CPU",
        "CUDA",
        "XLA",
        "Lazy",
        "Meta",
        "MPS",
        "IPU",
        "XPU",
        "HPU",
        "PrivateUse1",
        "PrivateUse2",
        "PrivateUse3",
    )
    for backend in autograd_names:
        table["Autograd" + backend] = int(DK["Autograd" + backend])
    for name in ("QuantizedCPU", "QuantizedCUDA", "QuantizedXPU", "QuantizedPrivateUse1"):
        table[name] = int(DK[name])
    sparse = ("CPU", "CUDA", "MPS", "Meta", "XPU", "HIP", "VE", "PrivateUse1")
    for backend in sparse:
        table["Sparse" + backend] = int(DK["Sparse" + backend])
    for backend in ("CPU", "CUDA", "Meta", "XPU", "HIP", "MPS", "VE", "PrivateUse1"):
        table["SparseCsr" + backend] = int(DK["SparseCsr" + backend])
    for backend in ("CPU", "CUDA", "XPU", "HPU", "Meta", "PrivateUse1"):
        table["NestedTensor" + backend] = int(DK["NestedTensor" + backend])
    for alias in (
        "Autograd",
        "CompositeImplicitAutograd",
        "FuncTorchBatchedDecomposition",
        "CompositeImplicitAutogradNestedTensor",
        "CompositeExplicitAutograd",
        "CompositeExplicitAutogradNonFunctional",
    ):
        table[alias] = int(DK[alias])
    return table


_PARSE = _parse_table()


def parse_dispatch_key(name: str) -> DispatchKey:
    """c10::parseDispatchKey: a key from its name (RuntimeError 'could not parse dispatch key');
    run-time keys by their names too."""
    try:
        return DispatchKey(_PARSE[name])
    except KeyError:
        raise RuntimeError(f"could not parse dispatch key: {name}") from None
