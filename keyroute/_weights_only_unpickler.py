"""The unpickler `keyroute.load` uses by default (`weights_only=True`), as PyTorch 2.13's.

A pickle is a small program: GLOBAL imports any name, REDUCE calls it. This unpickler runs
only the opcodes a checkpoint needs, and GLOBAL resolves names only through an allow-list
(tensor rebuild functions, storages, dtypes, `torch.Size`, `torch.device`, OrderedDict and
a few builtins) plus what the user allow-lists with `add_safe_globals` / `safe_globals`.
Names from `os`, `sys`, `posix` and `nt` are refused even when allow-listed. Every refusal is
an `UnpicklingError` worded as PyTorch's, raised before anything from the file has run.

The allow-list is keyed by PyTorch's names (`torch._utils._rebuild_tensor_v2`, ...): a file
from `torch.save` and one from `keyroute.save` name the same globals.
"""

from __future__ import annotations

import _compat_pickle
import warnings
from collections import Counter, OrderedDict
from collections.abc import Callable
from pickle import UnpicklingError, decode_long
from struct import unpack
from sys import maxsize
from typing import Any

__all__ = [
    "Unpickler",
    "UnpicklingError",
    "allowed_globals",
    "user_allowed_globals",
    "BLOCKED_MODULES",
]

#: Modules whose names are never resolved, even when the user allow-lists them.
BLOCKED_MODULES = ("sys", "os", "posix", "nt")

_marked_safe_globals: set[Any] = set()

# PyTorch's dtypes keyroute does not have: allow-listed (a file may name them), but a tensor of
# one cannot be rebuilt (keyroute._utils._check_dtype says so).
_ABSENT_DTYPES = (
    ["uint16", "uint32", "uint64", "complex32", "float8_e4m3fn", "float8_e5m2"]
    + ["float8_e4m3fnuz", "float8_e5m2fnuz", "float8_e8m0fnu", "float4_e2m1fn_x2"]
    + ["qint8", "quint8", "qint32", "quint4x2", "quint2x4", "bits1x8", "bits2x4", "bits4x2"]
    + ["bits8", "bits16"]
    + [f"uint{i}" for i in range(1, 8)]
    + [f"int{i}" for i in range(1, 8)]
)


class _AbsentDtype:
    """A PyTorch dtype keyroute lacks; loading a tensor of it raises a clear error."""

    def __init__(self, name: str) -> None:
        self.name = name

    def __repr__(self) -> str:
        return f"torch.{self.name}"


class _Unsupported:
    """An allow-listed PyTorch rebuild function for a tensor kind keyroute has no form of."""

    def __init__(self, name: str, what: str) -> None:
        self.__name__ = name
        self.what = what

    def __call__(self, *args: Any) -> Any:
        raise RuntimeError(f"keyroute.load: {self.what} ({self.__name__}) are not supported")

    def __repr__(self) -> str:
        return f"<function {self.__name__}>"


class StorageType:
    """What a legacy storage class name (`torch.FloatStorage`) unpickles to: its dtype."""

    def __init__(self, name: str, dtype: Any) -> None:
        self.name = name
        self.dtype = dtype

    def __repr__(self) -> str:
        return f"StorageType(dtype={self.dtype})"


_ALLOWED: dict[str, Any] | None = None


def allowed_globals() -> dict[str, Any]:
    """PyTorch's default allow-list, each name mapped to keyroute's object of that role."""
    global _ALLOWED
    if _ALLOWED is not None:
        return _ALLOWED
    from _codecs import encode

    from . import _utils
    from .nn.parameter import Parameter
    from .storage import STORAGE_DTYPES, TypedStorage, UntypedStorage
    from .tensor._tensor import Size, Tensor
    from .tensor.device import device
    from .tensor.dtype import ALL_DTYPES

    rc: dict[str, Any] = {
        "collections.OrderedDict": OrderedDict,
        "collections.Counter": Counter,
        "torch.nn.parameter.Parameter": Parameter,
        "torch.serialization._get_layout": _utils._get_layout,
        "torch.Size": Size,
        "torch.Tensor": Tensor,
        "torch.device": device,
        "_codecs.encode": encode,
        "builtins.bytearray": bytearray,
        "builtins.set": set,
        "builtins.complex": complex,
        "torch.storage.UntypedStorage": UntypedStorage,
        "torch.storage.TypedStorage": TypedStorage,
        "torch._tensor._rebuild_from_type_v2": _utils._rebuild_from_type_v2,
    }
    for d in ALL_DTYPES:
        rc[f"torch.{d.name}"] = d
    for name in _ABSENT_DTYPES:
        rc[f"torch.{name}"] = _AbsentDtype(name)
    for name, d in STORAGE_DTYPES.items():
        rc[f"torch.{name}"] = StorageType(name, d)
    for name in ("QUInt8Storage", "QInt8Storage", "QInt32Storage", "QUInt4x2Storage"):
        rc[f"torch.{name}"] = StorageType(name, _AbsentDtype(name[:-7].lower()))
    for q in ("per_tensor_affine", "per_tensor_symmetric", "per_channel_affine"):
        rc[f"torch.{q}"] = _AbsentDtype(q)
    rc["torch.per_channel_symmetric"] = _AbsentDtype("per_channel_symmetric")
    rc["torch.per_channel_affine_float_qparams"] = _AbsentDtype("per_channel_affine_float_qparams")
    for fn in _utils._REBUILDERS:
        rc[f"torch._utils.{fn.__name__}"] = fn
    for name, what in (
        ("_rebuild_qtensor", "quantized tensors"),
        ("_rebuild_sparse_tensor", "sparse tensors"),
        ("_rebuild_nested_tensor", "nested tensors"),
        ("_rebuild_wrapper_subclass", "wrapper tensor subclasses"),
    ):
        rc[f"torch._utils.{name}"] = _Unsupported(f"torch._utils.{name}", what)
    _ALLOWED = rc
    return rc


def user_allowed_globals() -> dict[str, Any]:
    """The user's allow-list: 'module.qualname' (or the given name) to the object."""
    rc: dict[str, Any] = {}
    for f in _marked_safe_globals:
        if isinstance(f, tuple):
            if len(f) != 2:
                raise ValueError(
                    "Expected tuple of length 2 (global, str of callable full path), but got "
                    f"tuple of length: {len(f)}"
                )
            if type(f[1]) is not str:
                raise TypeError(
                    "Expected second item in tuple to be str of callable full path, but got: "
                    f"{type(f[1])}"
                )
            rc[f[1]] = f[0]
        else:
            rc[f"{f.__module__}.{f.__qualname__}"] = f
    return rc


def _contains(values: Any, obj: Any) -> bool:
    # Identity, not equality: an allow-listed object is that object (no __eq__ is run).
    return any(v is obj for v in values)


def _read_global(readline: Callable[[], bytes]) -> tuple[str, str]:
    module = readline()[:-1].decode("utf-8")
    name = readline()[:-1].decode("utf-8")
    # Protocol-2 pickles name Python 2 modules (`__builtin__`); map them as pickle does.
    if (module, name) in _compat_pickle.NAME_MAPPING:
        module, name = _compat_pickle.NAME_MAPPING[(module, name)]
    elif module in _compat_pickle.IMPORT_MAPPING:
        module = _compat_pickle.IMPORT_MAPPING[module]
    return module, name


def _refuse_global(full_path: str, module: str) -> UnpicklingError:
    if module in BLOCKED_MODULES:
        return UnpicklingError(
            f"Trying to load unsupported GLOBAL {full_path} whose module {module} is blocked."
        )
    if full_path.startswith("builtins"):
        rest = full_path[len("builtins") :]
        full_path = rest[1:] if rest[:1] == "." else "builtins" + rest
    return UnpicklingError(
        f"Unsupported global: GLOBAL {full_path} was not an allowed global by default. "
        f"Please use `torch.serialization.add_safe_globals([{full_path}])` or the "
        f"`torch.serialization.safe_globals([{full_path}])` context manager to allowlist this "
        "global if you trust this class/function."
    )


class Unpickler:
    """Reads one pickle, running only allow-listed globals (torch._weights_only_unpickler)."""

    def __init__(self, file: Any, *, encoding: str = "bytes") -> None:
        self.encoding = encoding
        self.readline = file.readline
        self.read = file.read
        self.memo: dict[int, Any] = {}
        self.proto = -1

    def persistent_load(self, pid: Any) -> Any:
        raise UnpicklingError("unsupported persistent id encountered")

    def _pop_mark(self) -> list[Any]:
        items = self.stack
        self.stack = self.metastack.pop()
        return items

    def _check_set_item_target(self, opcode: str) -> None:
        if type(self.stack[-1]) not in (dict, OrderedDict, Counter):
            raise UnpicklingError(
                f"Can only {opcode} for dict, collections.OrderedDict, collections.Counter, but "
                f"got {type(self.stack[-1])}"
            )

    def load(self) -> Any:
        from .nn.parameter import Parameter
        from .tensor._tensor import Tensor

        allowed = allowed_globals()
        user = user_allowed_globals()
        self.metastack: list[list[Any]] = []
        self.stack: list[Any] = []
        read = self.read
        while True:
            key = read(1)
            if not key:
                raise EOFError("pickle data was truncated")
            op = key[0]
            stack = self.stack
            if op == 0x63:  # GLOBAL
                module, name = _read_global(self.readline)
                full_path = f"{module}.{name}"
                if module in BLOCKED_MODULES:
                    raise _refuse_global(full_path, module)
                if full_path in allowed:
                    stack.append(allowed[full_path])
                elif full_path in user:
                    stack.append(user[full_path])
                else:
                    raise _refuse_global(full_path, module)
            elif op == 0x81:  # NEWOBJ
                args = stack.pop()
                cls = stack.pop()
                if cls is Parameter:
                    stack.append(Parameter(*args))
                elif _contains(user.values(), cls) or _contains(allowed.values(), cls):
                    stack.append(cls.__new__(cls, *args))
                else:
                    raise UnpicklingError(
                        "Can only create new object for nn.Parameter or classes allowlisted via "
                        f"`add_safe_globals` but got {cls}"
                    )
            elif op == 0x52:  # REDUCE
                args = stack.pop()
                func = stack[-1]
                if not _contains(allowed.values(), func) and not _contains(user.values(), func):
                    msg = f"Trying to call reduce for unrecognized function {func}"
                    if hasattr(func, "__self__"):
                        msg += f" which belongs to {func.__self__}"
                    raise UnpicklingError(msg)
                if not isinstance(args, tuple):
                    raise UnpicklingError(f"REDUCE arguments must be a tuple, got {type(args)}")
                stack[-1] = func(*args)
            elif op == 0x62:  # BUILD
                state = stack.pop()
                inst = stack[-1]
                self._build(inst, state, Tensor, Parameter, allowed, user)
            elif op == 0x61:  # APPEND
                item = stack.pop()
                if type(stack[-1]) is not list:
                    raise UnpicklingError(f"Can only append to lists, but got {type(stack[-1])}")
                stack[-1].append(item)
            elif op == 0x65:  # APPENDS
                items = self._pop_mark()
                if type(self.stack[-1]) is not list:
                    raise UnpicklingError(f"Can only extend lists, but got {type(self.stack[-1])}")
                self.stack[-1].extend(items)
            elif op == 0x73:  # SETITEM
                v, k = stack.pop(), stack.pop()
                self._check_set_item_target("SETITEM")
                stack[-1][k] = v
            elif op == 0x75:  # SETITEMS
                items = self._pop_mark()
                self._check_set_item_target("SETITEMS")
                target = self.stack[-1]
                for i in range(0, len(items) - 1, 2):
                    target[items[i]] = items[i + 1]
            elif op == 0x28:  # MARK
                self.metastack.append(self.stack)
                self.stack = []
            elif op == 0x74:  # TUPLE
                items = self._pop_mark()
                self.stack.append(tuple(items))
            elif op == 0x85:  # TUPLE1
                stack[-1] = (stack[-1],)
            elif op == 0x86:  # TUPLE2
                stack[-2:] = [(stack[-2], stack[-1])]
            elif op == 0x87:  # TUPLE3
                stack[-3:] = [(stack[-3], stack[-2], stack[-1])]
            elif op == 0x4E:  # NONE
                stack.append(None)
            elif op == 0x89:  # NEWFALSE
                stack.append(False)
            elif op == 0x88:  # NEWTRUE
                stack.append(True)
            elif op == 0x29:  # EMPTY_TUPLE
                stack.append(())
            elif op == 0x5D:  # EMPTY_LIST
                stack.append([])
            elif op == 0x7D:  # EMPTY_DICT
                stack.append({})
            elif op == 0x8F:  # EMPTY_SET
                stack.append(set())
            elif op == 0x4A:  # BININT
                stack.append(unpack("<i", self._exact(4))[0])
            elif op == 0x4B:  # BININT1
                stack.append(self._exact(1)[0])
            elif op == 0x4D:  # BININT2
                stack.append(unpack("<H", self._exact(2))[0])
            elif op == 0x47:  # BINFLOAT
                stack.append(unpack(">d", self._exact(8))[0])
            elif op == 0x58:  # BINUNICODE
                n = unpack("<I", self._exact(4))[0]
                if n > maxsize:
                    raise UnpicklingError("String is too long")
                stack.append(str(self._exact(n), "utf-8", "surrogatepass"))
            elif op == 0x55:  # SHORT_BINSTRING
                data = self._exact(self._exact(1)[0])
                stack.append(data if self.encoding == "bytes" else data.decode(self.encoding))
            elif op == 0x51:  # BINPERSID
                pid = stack.pop()
                if type(pid) is not tuple and type(pid) is not int:
                    raise UnpicklingError(
                        f"persistent_load id must be tuple or int, but got {type(pid)}"
                    )
                if type(pid) is tuple and len(pid) > 0 and _ascii(pid[0]) != "storage":
                    raise UnpicklingError(
                        f"Only persistent_load of storage is allowed, but got {type(pid[0])}"
                    )
                stack.append(self.persistent_load(pid))
            elif op in (0x68, 0x6A):  # BINGET, LONG_BINGET
                idx = self._exact(1)[0] if op == 0x68 else unpack("<I", self._exact(4))[0]
                if idx not in self.memo:
                    raise UnpicklingError(f"Memo value not found at index {idx}")
                stack.append(self.memo[idx])
            elif op in (0x71, 0x72):  # BINPUT, LONG_BINPUT
                idx = self._exact(1)[0] if op == 0x71 else unpack("<I", self._exact(4))[0]
                self.memo[idx] = stack[-1]
            elif op == 0x8A:  # LONG1
                stack.append(decode_long(self._exact(self._exact(1)[0])))
            elif op == 0x80:  # PROTO
                self.proto = self._exact(1)[0]
                if self.proto != 2:
                    warnings.warn(
                        f"Detected pickle protocol {self.proto} in the checkpoint, which was not "
                        "the default pickle protocol used by `torch.load` (2). The weights_only "
                        "Unpickler might not support all instructions implemented by this "
                        "protocol, please file an issue for adding support if you encounter "
                        "this.",
                        stacklevel=2,
                    )
            elif op == 0x2E:  # STOP
                return self.stack.pop()
            else:
                raise UnpicklingError(f"Unsupported operand {op}")

    def _exact(self, n: int) -> bytes:
        data = self.read(n)
        if len(data) != n:
            raise UnpicklingError("pickle data was truncated")
        return data

    def _build(
        self, inst: Any, state: Any, tensor_cls: type, param_cls: type, allowed: Any, user: Any
    ) -> None:
        if type(inst) is tensor_cls or type(inst) is param_cls:
            # Legacy tensor state (requires_grad, _, backward_hooks): hooks are never loaded.
            if isinstance(state, tuple) and len(state) == 3:
                if state[0]:
                    inst.requires_grad_(True)
                return
            from ._utils import _set_obj_state

            try:
                _set_obj_state(inst, state)
            except RuntimeError as e:
                raise UnpicklingError(str(e)) from None
        elif type(inst) is OrderedDict:
            if not isinstance(state, dict):
                raise UnpicklingError(f"Invalid OrderedDict state {type(state)}")
            inst.__dict__.update(state)
        elif _contains(user.values(), type(inst)) or _contains(allowed.values(), type(inst)):
            if hasattr(inst, "__setstate__"):
                inst.__setstate__(state)
                return
            slotstate = None
            if isinstance(state, tuple) and len(state) == 2:
                state, slotstate = state
            if state:
                inst.__dict__.update(state)
            if slotstate:
                for k, v in slotstate.items():
                    setattr(inst, k, v)
        else:
            raise UnpicklingError(
                "Can only build Tensor, Parameter, OrderedDict or types allowlisted via "
                f"`add_safe_globals`, but got {type(inst)}"
            )


def _ascii(s: Any) -> Any:
    return s.decode("ascii") if isinstance(s, bytes) else s


def get_globals_in_pkl(data: bytes) -> set[str]:
    """Every GLOBAL a pickle names, found without running it."""
    import pickletools

    out: set[str] = set()
    try:
        for opcode, arg, _ in pickletools.genops(data):
            if opcode.name == "GLOBAL":
                module, _, name = str(arg).partition(" ")
                if (module, name) in _compat_pickle.NAME_MAPPING:
                    module, name = _compat_pickle.NAME_MAPPING[(module, name)]
                elif module in _compat_pickle.IMPORT_MAPPING:
                    module = _compat_pickle.IMPORT_MAPPING[module]
                out.add(f"{module}.{name}")
    except (ValueError, EOFError) as e:
        raise UnpicklingError(str(e)) from None
    return out
