"""What the meta cache (kernels/meta.py, Note [meta cache]) and FakeTensorMode's cache
(subclasses/fake_tensor.py, Note [fake cache]) share: how an argument becomes part of a key, how
an output becomes a cache entry, and how an entry becomes outputs again.

An entry is a small tree:

- ``("new", meta)``: a tensor on a fresh storage;
- ``("view", where, meta)``: a tensor on the storage of argument ``where`` (an index into the
  positional arguments, or a keyword's name), for operators whose schema returns aliases;
- ``("value", v)``: a Python scalar or None;
- ``(list | tuple, entries)``: a container of entries.

``meta`` is what each cache needs to rebuild the tensor (shape, strides, storage size, dtype,
plus key set and class for meta, device for fake); each cache gives its own ``meta_of`` and
``make``. The caches keep their hot paths (key building, the "new" hit) inline in their own
modules; only the slower, shared logic is here.
"""

from __future__ import annotations

import warnings
from collections.abc import Callable
from typing import Any

from ..tensor._tensor import Tensor
from ..tensor.device import Device
from ..tensor.dtype import dtype as _dtype_cls
from ..tensor.layout import layout as _layout_cls
from ..tensor.layout import memory_format as _memory_format_cls


class Uncacheable(Exception):
    """This call has no cache rule (its key or its output); `reason` is counted by the fake
    cache's bypass statistics."""

    def __init__(self, reason: str = "") -> None:
        super().__init__(reason)
        self.reason = reason


#: Argument types keyed by (type, value): immutable, hashable, compared by value. 1, 1.0 and
#: True differ by type, so they never share an entry.
ATOMS = frozenset(
    {
        int,
        float,
        bool,
        complex,
        str,
        type(None),
        Device,
        _dtype_cls,
        _layout_cls,
        _memory_format_cls,
    }
)

_VALUES = (int, float, bool, type(None))


def sequence_key(cls: type, v: Any, key: Callable[[Any], Any]) -> Any:
    """The key of a list or tuple argument: its ints as they are (sizes, dims: the common
    case), else each element through `key`."""
    for x in v:
        if x.__class__ is not int:
            return (cls, tuple([key(x) for x in v]))
    return (cls, tuple(v))


def tensor_storages(args: tuple[Any, ...], kwargs: dict[str, Any]) -> list[tuple[Any, Any]]:
    """(where, storage) for each tensor argument: where is an index or a keyword's name."""
    found = [(i, a._data.storage) for i, a in enumerate(args) if isinstance(a, Tensor)]
    found += [(k, a._data.storage) for k, a in kwargs.items() if isinstance(a, Tensor)]
    return found


def describe(
    out: Any,
    storages: list[tuple[Any, Any]],
    views: bool,
    meta_of: Callable[[Tensor], Any],
    seen: set[int] | None = None,
) -> Any:
    """The cache entry of `out`, or raise Uncacheable. `storages` are the arguments' (see
    tensor_storages); `views`: the schema returns aliases, so an output on an argument's
    storage is rebuilt as a view of it (a functional op returning an input's storage has no
    rule). Two fresh outputs on one storage have no rule either."""
    if seen is None:
        seen = set()
    cls = out.__class__
    if cls is list or cls is tuple:
        return (cls, tuple([describe(x, storages, views, meta_of, seen) for x in out]))
    if isinstance(out, Tensor):
        meta = meta_of(out)
        storage = out._data.storage
        for where, s in storages:
            if s is storage:
                if not views:
                    raise Uncacheable("output aliases an input")
                return ("view", where, meta)
        if id(storage) in seen:
            raise Uncacheable("outputs share a storage")
        seen.add(id(storage))
        return ("new", meta)
    if cls in _VALUES:
        return ("value", out)
    raise Uncacheable("unsupported output")


def rebuild(
    entry: Any, args: tuple[Any, ...], kwargs: dict[str, Any], make: Callable[[Any, Any], Any]
) -> Any:
    """The outputs an entry describes: `make(meta, storage)` builds one tensor (storage None
    for a fresh one, else the viewed argument's)."""
    tag = entry[0]
    if tag == "new":
        return make(entry[1], None)
    if tag == "view":
        where = entry[1]
        src = args[where] if where.__class__ is int else kwargs[where]
        return make(entry[2], src._data.storage)
    if tag == "value":
        return entry[1]
    return tag(rebuild(e, args, kwargs, make) for e in entry[1])


def run_recording_warnings(call: Callable[[], Any]) -> tuple[Any, bool]:
    """(out, warned): run `call` with its warnings held back. A call that warned is not
    cached, and the caller runs it again, so its warnings (or its error) go out as usual and
    a later cache hit cannot swallow them; an error without warnings propagates here."""
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        try:
            out = call()
        except Exception:
            if not caught:
                raise
            out = None
    return out, bool(caught)
