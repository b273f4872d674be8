"""`keyroute.save` / `keyroute.load` in PyTorch's file format, both ways.

A checkpoint is PyTorch's zip archive (keyroute/_zip_archive.py): `data.pkl` (the object,
pickled with every storage replaced by a persistent id `("storage", torch.FloatStorage, key,
location, numel)`), `data/<key>` (each storage's bytes), `byteorder`, `.format_version`,
`.storage_alignment`, `version`, `.data/serialization_id`. The pickle names PyTorch's globals
(`torch._utils._rebuild_tensor_v2`, `torch.float32`, `torch.Size`, ...) whichever library wrote
it, so a file saved here loads in PyTorch and one saved by PyTorch loads here without it.

Loading defaults to `weights_only=True`, as PyTorch 2.13: the allow-listed unpickler of
keyroute/_weights_only_unpickler.py, which refuses any other global with PyTorch's message.

>>> import io, keyroute
>>> buf = io.BytesIO()
>>> keyroute.save({"w": keyroute.arange(3.)}, buf)
>>> _ = buf.seek(0)
>>> keyroute.load(buf)
{'w': tensor([0., 1., 2.])}
"""

from __future__ import annotations

import io
import mmap as _mmap
import os
import pickle
import re
import sys
from collections import OrderedDict
from collections.abc import Callable
from typing import IO, Any, Union

import numpy as np

from . import _utils
from . import _weights_only_unpickler as _wo
from ._zip_archive import ArchiveReader, ArchiveWriter, archive_name_for
from .storage import TypedStorage, UntypedStorage, storage_type_name
from .tensor._tensor import Size, Tensor, _address, _root_array
from .tensor.device import Device
from .tensor.dtype import dtype as _dtype_cls
from .tensor.dtype import uint8
from .tensor.layout import layout as _layout_cls
from .tensor.meta_array import MetaArray, contiguous_strides

__all__ = [
    "save",
    "load",
    "add_safe_globals",
    "get_safe_globals",
    "clear_safe_globals",
    "safe_globals",
    "get_unsafe_globals_in_checkpoint",
    "DEFAULT_PROTOCOL",
    "StorageType",
]

DEFAULT_PROTOCOL = 2
StorageType = _wo.StorageType
FileLike = Union[str, os.PathLike, IO[bytes]]  # noqa: UP007 (a runtime alias, as PyTorch's)
MAP_LOCATION = Union[Callable[..., Any], Device, str, dict, None]  # noqa: UP007

UNSAFE_MESSAGE = (
    "In PyTorch 2.6, we changed the default value of the `weights_only` argument in `torch.load` "
    "from `False` to `True`. Re-running `torch.load` with `weights_only` set to `False` will "
    "likely succeed, but it can result in arbitrary code execution. Do it only if you got the "
    "file from a trusted source."
)
_DOCS_MESSAGE = (
    "\n\nCheck the documentation of torch.load to learn more about types accepted by default "
    "with weights_only https://pytorch.org/docs/stable/generated/torch.load.html."
)
# PyTorch's legacy (pre-1.6) format starts with this number, pickled as a protocol-2 LONG1.
_LEGACY_MAGIC = b"\x80\x02\x8a\x0a\x6c\xfc\x9c\x46\xf9\x20\x6a\xa8\x50\x19"


# -- the user's allow-list ----------------------------------------------------------------------
def add_safe_globals(safe_globals: list[Any]) -> None:
    """Allow-list globals for `weights_only=True` loads (objects, or (object, "full.name"))."""
    _wo._marked_safe_globals.update(safe_globals)


def get_safe_globals() -> list[Any]:
    """The globals the user has allow-listed."""
    return list(_wo._marked_safe_globals)


def clear_safe_globals() -> None:
    """Forget every allow-listed global."""
    _wo._marked_safe_globals.clear()


class safe_globals:  # noqa: N801 (PyTorch's name)
    """A context manager allow-listing globals for the `weights_only` loads inside it."""

    def __init__(self, safe_globals: list[Any]) -> None:
        self.safe_globals = safe_globals

    def __enter__(self) -> None:
        self._added = [g for g in self.safe_globals if g not in _wo._marked_safe_globals]
        _wo._marked_safe_globals.update(self._added)

    def __exit__(self, *exc: Any) -> None:
        _wo._marked_safe_globals.difference_update(self._added)


_get_layout = _utils._get_layout  # torch.serialization._get_layout


# -- saving -------------------------------------------------------------------------------------
class _Global:
    """A name the pickle refers to by module and name: PyTorch's, not keyroute's."""

    __slots__ = ("module", "name")
    _cache: dict[tuple[str, str], _Global] = {}

    def __new__(cls, module: str, name: str) -> _Global:
        key = (module, name)
        obj = cls._cache.get(key)
        if obj is None:
            obj = object.__new__(cls)
            obj.module, obj.name = module, name
            cls._cache[key] = obj
        return obj

    def __call__(self, *args: Any) -> Any:  # pickle requires reduce functions be callable
        raise TypeError(f"{self.module}.{self.name} is a name in a checkpoint, not a function")


_G_REBUILD_V2 = _Global("torch._utils", "_rebuild_tensor_v2")
_G_PARAM = _Global("torch._utils", "_rebuild_parameter")
_G_PARAM_STATE = _Global("torch._utils", "_rebuild_parameter_with_state")
_G_META = _Global("torch._utils", "_rebuild_meta_tensor_no_storage")
_G_FROM_TYPE = _Global("torch._tensor", "_rebuild_from_type_v2")
_G_TENSOR = _Global("torch", "Tensor")
_G_DEVICE = _Global("torch", "device")
_G_SIZE = _Global("torch", "Size")
_G_LAYOUT = _Global("torch.serialization", "_get_layout")
_G_UNTYPED = _Global("torch.storage", "UntypedStorage")


class _StorageRef:
    """One storage to write: pickled as its persistent id, its bytes written as data/<key>."""

    __slots__ = ("type_global", "key", "location", "numel")

    def __init__(self, type_global: _Global, key: str, location: str, numel: int) -> None:
        self.type_global, self.key, self.location, self.numel = (
            type_global,
            key,
            location,
            numel,
        )


class _TorchPickler(pickle._Pickler):  # type: ignore[name-defined,misc]
    """The pure-Python pickler, writing keyroute's tensors, dtypes, devices and sizes under
    PyTorch's global names (the C pickler cannot write a global it cannot import)."""

    def __init__(self, file: IO[bytes], protocol: int) -> None:
        super().__init__(file, protocol)
        self.storages: dict[str, np.ndarray] = {}
        self._ids: dict[int, tuple[str, str, np.ndarray]] = {}  # id(root) -> key, dtype, root

    def save(self, obj: Any, save_persistent_id: bool = True) -> None:
        cls = type(obj)
        if cls is _Global or cls is _dtype_cls:
            self._save_global_name(obj)
            return
        super().save(obj, save_persistent_id)

    def _save_global_name(self, obj: Any) -> None:
        hit = self.memo.get(id(obj))
        if hit is not None:
            self.write(self.get(hit[0]))
            return
        if type(obj) is _Global:
            module, name = obj.module, obj.name
        else:
            module, name = "torch", obj.name
        if self.proto >= 4:
            self.save(module)
            self.save(name)
            self.write(pickle.STACK_GLOBAL)
        else:
            self.write(pickle.GLOBAL + module.encode() + b"\n" + name.encode() + b"\n")
        self.memoize(obj)

    def persistent_id(self, obj: Any) -> Any:
        if type(obj) is _StorageRef:
            return ("storage", obj.type_global, obj.key, obj.location, obj.numel)
        if isinstance(obj, (UntypedStorage, TypedStorage)):
            return self.persistent_id(self._storage_object(obj))
        return None

    def reducer_override(self, obj: Any) -> Any:
        if isinstance(obj, Tensor):
            return self._reduce_tensor(obj)
        cls = type(obj)
        if cls is Device:
            args = (obj.type,) if obj.index is None else (obj.type, obj.index)
            return (_G_DEVICE, args)
        if cls is Size:
            return (_G_SIZE, (tuple(obj),))
        if cls is _layout_cls:
            return (_G_LAYOUT, (f"torch.{obj.name}" if hasattr(obj, "name") else str(obj),))
        return NotImplemented

    # tensors ----------------------------------------------------------------------------------
    def _reduce_tensor(self, t: Tensor) -> Any:
        from .nn.parameter import Buffer, Parameter

        state = dict(t.__dict__) if t.__dict__ else None
        if type(t) is Parameter or isinstance(t, Parameter):
            data = t.detach()
            if state:
                state.pop("_is_param", None)
            if state:
                return (_G_PARAM_STATE, (data, t.requires_grad, OrderedDict(), state))
            return (_G_PARAM, (data, t.requires_grad, OrderedDict()))
        func, args = self._plain_tensor_args(t)
        if isinstance(t, Buffer):
            # A registered buffer is a plain tensor in PyTorch (nn.Buffer only marks it).
            return (func, args)
        if type(t) is Tensor and not state:
            return (func, args)
        new_type = _G_TENSOR if type(t) is Tensor else type(t)
        return (_G_FROM_TYPE, (func, new_type, args, state))

    def _plain_tensor_args(self, t: Tensor) -> tuple[_Global, tuple[Any, ...]]:
        data = t._data
        if data.__class__ is MetaArray:
            return (_G_META, (t._dtype, tuple(data.shape), tuple(data.stride), t.requires_grad))
        if not isinstance(data, np.ndarray):
            raise RuntimeError(
                f"keyroute.save: cannot save a tensor on device {t.device} (only cpu and meta)"
            )
        root, offset, stride = self._storage_geometry(data)
        ref = self._storage_ref(root, t._dtype, data.itemsize)
        args = (ref, offset, tuple(data.shape), stride, t.requires_grad, OrderedDict())
        return (_G_REBUILD_V2, args)

    @staticmethod
    def _storage_geometry(data: np.ndarray) -> tuple[np.ndarray, int, tuple[int, ...]]:
        """(storage, element offset, element strides) of a tensor's data; a compact copy
        when its memory is not a flat run of its own elements (negative or odd strides)."""
        item = data.itemsize
        root = _root_array(data)
        delta = _address(data) - _address(root)
        strides = data.strides
        if (
            root.flags.c_contiguous
            and root.nbytes % item == 0
            and 0 <= delta <= root.nbytes
            and delta % item == 0
            and all(s >= 0 and s % item == 0 for s in strides)
        ):
            return root, delta // item, tuple(s // item for s in strides)
        compact = np.ascontiguousarray(data)
        return compact, 0, contiguous_strides(compact.shape)

    def _storage_ref(self, root: np.ndarray, dt: _dtype_cls, item: int) -> _StorageRef:
        hit = self._ids.get(id(root))
        if hit is not None:
            key, dname, _ = hit
            if dname != dt.name:
                raise RuntimeError(
                    "Cannot save multiple tensors or storages that view the same data as "
                    "different types"
                )
        else:
            key = str(len(self._ids))
            self._ids[id(root)] = (key, dt.name, root)  # keeps root alive: ids stay unique
            self.storages[key] = root
        return _StorageRef(_Global("torch", storage_type_name(dt)), key, "cpu", root.nbytes // item)

    def _storage_object(self, s: Any) -> _StorageRef:
        us = s._untyped_storage if isinstance(s, TypedStorage) else s
        dt = s.dtype if isinstance(s, TypedStorage) else uint8
        if us._root is None:
            raise RuntimeError("keyroute.save: cannot save a storage on the meta device")
        root = us._root
        if not root.flags.c_contiguous:
            raise RuntimeError("keyroute.save: the storage is not contiguous memory")
        ref = self._storage_ref(root, dt, dt.itemsize)
        if not isinstance(s, TypedStorage):
            ref.type_global = _G_UNTYPED
        return ref


def _is_path(f: Any) -> bool:
    return isinstance(f, (str, os.PathLike))


def save(
    obj: object,
    f: FileLike,
    pickle_module: Any = pickle,
    pickle_protocol: int = DEFAULT_PROTOCOL,
    _use_new_zipfile_serialization: bool = True,
    _disable_byteorder_record: bool = False,
) -> None:
    """Save `obj` to a path or a writable binary file in PyTorch's checkpoint format."""
    if not _is_path(f) and not hasattr(f, "write"):
        raise AttributeError(
            "expected 'f' to be string, path, or a file-like object with a 'write' attribute"
        )
    if not _use_new_zipfile_serialization:
        raise RuntimeError(
            "keyroute.save writes only the zip format (PyTorch's default since 1.6); "
            "_use_new_zipfile_serialization=False is not supported"
        )
    if pickle_module is not pickle:
        raise RuntimeError("keyroute.save: only the standard pickle module is supported")
    if not isinstance(pickle_protocol, int) or not 0 <= pickle_protocol <= pickle.HIGHEST_PROTOCOL:
        raise ValueError(f"pickle protocol must be <= {pickle.HIGHEST_PROTOCOL}")
    # Pickle first: an object that cannot be saved leaves no file behind.
    buf = io.BytesIO()
    pickler = _TorchPickler(buf, pickle_protocol)
    pickler.dump(obj)
    if _is_path(f):
        path = os.fspath(f)
        name = archive_name_for(path)
        with open(path, "wb") as out:
            _write_archive(out, name, buf, pickler.storages, _disable_byteorder_record)
    else:
        if not callable(getattr(f, "write", None)):
            kind = str(type(f)).strip("<>")
            raise TypeError(f"Buffer of {kind} has no callable attribute 'write'")
        _write_archive(f, "archive", buf, pickler.storages, _disable_byteorder_record)  # type: ignore[arg-type]
        flush = getattr(f, "flush", None)
        if callable(flush):
            flush()


def _write_archive(
    out: IO[bytes], name: str, pkl: io.BytesIO, storages: dict[str, np.ndarray], no_bo: bool
) -> None:
    w = ArchiveWriter(out, name)
    w.write_record("data.pkl", pkl.getbuffer())
    w.write_record(".format_version", b"1")
    w.write_record(".storage_alignment", b"64")
    if not no_bo:
        w.write_record("byteorder", sys.byteorder.encode())
    for key, root in storages.items():
        w.write_record(f"data/{key}", root.reshape(-1).view(np.uint8))
    w.finish()


# -- loading ------------------------------------------------------------------------------------
def _current_map_device(location: str) -> Device:
    """Where a tensor rebuilt from a device name goes, after the active map_location."""
    return _utils._restore_device(location)


def _restore_name(map_location: Any, location: str) -> str:
    if map_location is None or callable(map_location) and not isinstance(map_location, Device):
        return location
    if isinstance(map_location, dict):
        return str(map_location.get(location, location))
    if isinstance(map_location, bytes):
        return map_location.decode()
    return str(map_location)


def _default_restore(storage: UntypedStorage, location: str) -> UntypedStorage:
    if location == "cpu":
        return storage
    if location == "meta":
        return UntypedStorage(None, storage.nbytes(), Device("meta"))
    m = re.match(r"(cuda|mps|xpu|hpu|mtia|privateuseone)(:|[0-9]+|$)", location)
    if m:
        backend = m.group(1)
        raise RuntimeError(
            f"Attempting to deserialize object on a {backend.upper()} device but "
            f"torch.{backend}.is_available() is False. If you are running on a CPU-only "
            "machine, please use torch.load with map_location=torch.device('cpu') to map your "
            "storages to the CPU."
        )
    raise RuntimeError(
        "don't know how to restore data location of torch.storage.UntypedStorage (tagged with "
        f"{location})"
    )


def _restore_location(map_location: Any) -> Callable[[UntypedStorage, str], UntypedStorage]:
    if map_location is None:
        return _default_restore
    if isinstance(map_location, dict):
        return lambda s, loc: _default_restore(s, str(map_location.get(loc, loc)))
    if isinstance(map_location, (str, bytes, Device)):
        name = _restore_name(map_location, "")
        return lambda s, loc: _default_restore(s, name)
    if callable(map_location):

        def restore(s: UntypedStorage, loc: str) -> UntypedStorage:
            out = map_location(s, loc)
            if out is None:
                return _default_restore(s, loc)
            if isinstance(out, TypedStorage):
                return out._untyped_storage
            if not isinstance(out, UntypedStorage):
                raise RuntimeError(
                    f"map_location must return a storage or None, got {type(out).__name__}"
                )
            return out

        return restore
    raise TypeError(
        "map_location should be a str, a device, a dict or a callable, got "
        f"{type(map_location).__name__}"
    )


def _is_meta_location(map_location: Any) -> bool:
    if isinstance(map_location, str):
        return map_location == "meta"
    return isinstance(map_location, Device) and map_location.type == "meta"


def _wo_message(message: str) -> str:
    """PyTorch's wording around a weights-only refusal."""
    if re.search(r"GLOBAL (\S+) was not an allowed global by default.", message):
        return (
            "Weights only load failed. This file can still be loaded, to do so you have two "
            "options, \033[1mdo those steps only if you trust the source of the checkpoint"
            f"\033[0m. \n\t(1) {UNSAFE_MESSAGE}\n\t(2) Alternatively, to load with "
            "`weights_only=True` please check the recommended steps in the following error "
            "message.\n\tWeightsUnpickler error: " + message + _DOCS_MESSAGE
        )
    out = f"Weights only load failed. {UNSAFE_MESSAGE}\n"
    if not re.search(r"whose module (\S+) is blocked", message):
        out += (
            "Please file an issue with the following so that we can make `weights_only=True` "
            "compatible with your use case: WeightsUnpickler error: "
        )
    return out + "\n\n" + message + _DOCS_MESSAGE


class _Loader:
    """One load of one archive: reads each storage once, on first reference."""

    def __init__(self, reader: ArchiveReader, map_location: Any, mm: Any) -> None:
        self.reader = reader
        self.restore = _restore_location(map_location)
        self.meta = _is_meta_location(map_location)
        self.mm = mm
        self.loaded: dict[str, TypedStorage] = {}
        self.swap = False
        if reader.has_record("byteorder"):
            order = reader.get_record("byteorder")
            if order not in (b"little", b"big"):
                raise ValueError("Unknown endianness type: " + order.decode(errors="replace"))
            self.swap = order.decode() != sys.byteorder

    def persistent_load(self, saved_id: Any) -> Any:
        if not isinstance(saved_id, tuple) or len(saved_id) != 5:
            raise RuntimeError(f"keyroute.load: invalid persistent id {saved_id!r}")
        typename, storage_type, key, location, numel = saved_id
        typename = _wo._ascii(typename)
        if typename != "storage":
            raise RuntimeError(
                f"Unknown typename for persistent_load, expected 'storage' but got '{typename}'"
            )
        key, location = _wo._ascii(key), _wo._ascii(location)
        if storage_type is UntypedStorage:
            dt: Any = uint8
        elif isinstance(storage_type, StorageType):
            dt = storage_type.dtype
        else:
            raise RuntimeError(f"keyroute.load: invalid storage type {storage_type!r}")
        if not isinstance(key, str) or not isinstance(location, str):
            raise RuntimeError(f"keyroute.load: invalid persistent id {saved_id!r}")
        if type(numel) is not int or numel < 0:
            raise RuntimeError(f"keyroute.load: invalid storage size {numel!r}")
        hit = self.loaded.get(key)
        if hit is not None:
            return hit
        from ._utils import _check_dtype

        dt = _check_dtype(dt)
        storage = TypedStorage(self.restore(self._read(key, dt, numel), location), dt)
        self.loaded[key] = storage
        return storage

    def _read(self, key: str, dt: _dtype_cls, numel: int) -> UntypedStorage:
        name = f"data/{key}"
        nbytes = numel * dt.itemsize
        size = self.reader.record_size(name)
        if size != nbytes:
            raise RuntimeError(
                f"record size ({size} bytes) does not match expected size ({nbytes} bytes = "
                f"{nbytes} elements * 1 bytes/element) for dtype Byte"
            )
        if self.meta:
            return UntypedStorage(None, nbytes, Device("meta"))
        if self.mm is not None:
            start = self.reader.data_offset(name)
            raw = np.frombuffer(self.mm, dtype=np.uint8, count=nbytes, offset=start)
            root = raw if dt.itemsize == 1 else raw.view(dt.np)
        else:
            root = np.empty(numel, dtype=dt.np)
            self.reader.read_into(name, root.view(np.uint8))
        if self.swap and dt.itemsize > 1:
            typed = root.view(dt.np)
            parts = 2 if dt.is_complex else 1
            typed.view(f"u{dt.itemsize // parts}").byteswap(inplace=True)
        return UntypedStorage(_root_array(root), nbytes, Device("cpu"))


def _unpickler_class(pickle_module: Any, loader: _Loader) -> Any:
    allowed = _wo.allowed_globals()

    class UnpicklerWrapper(pickle_module.Unpickler):  # type: ignore[name-defined,misc]
        def find_class(self, module: str, name: str) -> Any:
            hit = allowed.get(f"{module}.{name}")
            if hit is not None:
                return hit
            if module == "torch" or module.startswith("torch."):
                import importlib

                mod = "keyroute" + module[len("torch") :]
                if mod == "keyroute.tensor":  # PyTorch moved torch.tensor to torch._tensor
                    mod = "keyroute"
                try:
                    return getattr(importlib.import_module(mod), name)
                except (ImportError, AttributeError):
                    raise pickle.UnpicklingError(
                        f"keyroute.load: the checkpoint needs {module}.{name}, which keyroute "
                        "does not have"
                    ) from None
            return super().find_class(module, name)

        def persistent_load(self, pid: Any) -> Any:
            return loader.persistent_load(pid)

    return UnpicklerWrapper


def _open_for_read(f: FileLike) -> tuple[IO[bytes], bool]:
    if _is_path(f):
        return open(os.fspath(f), "rb"), True
    if not hasattr(f, "read"):
        raise AttributeError(
            "expected 'f' to be string, path, or a file-like object with a 'read' attribute"
        )
    try:
        f.seek(f.tell())  # type: ignore[union-attr]
    except (AttributeError, OSError, io.UnsupportedOperation):
        return io.BytesIO(f.read()), False  # type: ignore[union-attr]
    return f, False  # type: ignore[return-value]


def load(
    f: FileLike,
    map_location: MAP_LOCATION = None,
    pickle_module: Any = None,
    *,
    weights_only: bool | None = None,
    mmap: bool | None = None,
    **pickle_load_args: Any,
) -> Any:
    """Load an object saved by `keyroute.save` or `torch.save` (weights_only by default)."""
    true = ("1", "y", "yes", "true")
    force_wo = os.getenv("TORCH_FORCE_WEIGHTS_ONLY_LOAD", "0").lower() in true
    force_no = os.getenv("TORCH_FORCE_NO_WEIGHTS_ONLY_LOAD", "0").lower() in true
    if force_wo and force_no:
        raise RuntimeError(
            "Only one of `TORCH_FORCE_WEIGHTS_ONLY_LOAD` or `TORCH_FORCE_NO_WEIGHTS_ONLY_LOAD` "
            "should be set, but both were set."
        )
    if weights_only is None:
        weights_only = not force_no and pickle_module is None
    elif force_wo:
        weights_only = True
    if force_wo:
        weights_only = True
    if weights_only and pickle_module is not None:
        raise RuntimeError("Can not safely load weights when explicit pickle_module is specified")
    if pickle_module is None:
        pickle_module = pickle
    if pickle_load_args and weights_only:
        import warnings

        warnings.warn("pickle_load_args only works if `weights_only=False`.", stacklevel=2)
    pickle_load_args.setdefault("encoding", "utf-8")
    if mmap and not _is_path(f):
        raise ValueError("f must be a file path in order to use the mmap argument")
    opened, owned = _open_for_read(f)
    try:
        start = opened.tell()
        head = opened.read(len(_LEGACY_MAGIC))
        opened.seek(start)
        if head[:4] != b"PK\x03\x04":
            _refuse_non_zip(head, f)
        reader = ArchiveReader(opened)
        if reader.has_record("constants.pkl"):
            raise RuntimeError(
                "keyroute.load: this is a TorchScript archive (torch.jit.save), which keyroute "
                "cannot load"
            )
        mm = None
        if mmap:
            fd = os.open(os.fspath(f), os.O_RDONLY)  # type: ignore[arg-type]
            try:
                size = os.fstat(fd).st_size
                mm = _mmap.mmap(fd, size, access=_mmap.ACCESS_COPY) if size else None
            finally:
                os.close(fd)
        loader = _Loader(reader, map_location, mm)
        data = reader.get_record("data.pkl")
        _utils._tls.map_location = map_location
        try:
            if weights_only:
                up = _wo.Unpickler(io.BytesIO(data), encoding=pickle_load_args["encoding"])
                up.persistent_load = loader.persistent_load  # type: ignore[method-assign]
                try:
                    return up.load()
                except pickle.UnpicklingError as e:
                    raise pickle.UnpicklingError(_wo_message(str(e))) from None
            cls = _unpickler_class(pickle_module, loader)
            return cls(io.BytesIO(data), **pickle_load_args).load()
        finally:
            _utils._tls.map_location = None
    finally:
        if owned:
            opened.close()


def _refuse_non_zip(head: bytes, f: Any) -> None:
    if not head:
        raise EOFError("Ran out of input")
    if head.startswith(_LEGACY_MAGIC):
        raise RuntimeError(
            "keyroute.load: this file is in PyTorch's legacy format (torch.save before 1.6, or "
            "_use_new_zipfile_serialization=False), which keyroute does not read. Re-save it "
            "with torch.save(torch.load(path), path) in PyTorch."
        )
    raise RuntimeError("Invalid magic number; corrupt file?")


def get_unsafe_globals_in_checkpoint(f: FileLike) -> list[str]:
    """The globals a checkpoint names that the weights-only unpickler would refuse."""
    opened, owned = _open_for_read(f)
    try:
        data = ArchiveReader(opened).get_record("data.pkl")
    finally:
        if owned:
            opened.close()
    safe = set(_wo.allowed_globals()) | set(_wo.user_allowed_globals())
    return sorted(g for g in _wo.get_globals_in_pkl(data) if g not in safe)
