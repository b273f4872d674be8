"""The Meta backend: every operator's meta function, registered on the Meta key.

A meta tensor has a shape, strides, a dtype and no data: running an operator on it runs only
the operator's meta function (keyroute/aten), which returns meta tensors describing the
outputs. Meta functions are registered after every operator module has loaded.

Note [meta cache]: a meta function's result depends only on its inputs' metadata (shape,
strides, storage offset and size, dtype, key set) and its non-tensor arguments, so each
registered kernel remembers, per operator, the outputs' metadata for each input signature and
rebuilds fresh outputs from it on a repeat (a model's blocks repeat the same shapes). Only
operators that write no argument are cached; a view's output is rebuilt on its input's
storage. A call that raises or warns is never cached (it runs in full every time), nor one
with a non-meta tensor, an argument of unknown type, or no tensor argument at all (factories
read the default device). `tests/subclasses/test_caches.py` checks cached results against a
fresh computation over every operator sample.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from ..aten._define import META_FUNCTIONS
from ..dispatcher.keys import DispatchKey
from ..dispatcher.operator import OpOverload
from ..dispatcher.registration import Library
from ..tensor._tensor import Tensor
from ..tensor.dtype import _default_dtype
from ..tensor.meta_array import MetaArray, MetaStorage, new_meta_array
from ._output_cache import (
    ATOMS,
    Uncacheable,
    describe,
    rebuild,
    run_recording_warnings,
    sequence_key,
    tensor_storages,
)

__all__ = ["register_all", "meta_lib", "cache_info", "cache_clear", "set_cache_enabled"]

meta_lib = Library._internal("aten", "IMPL")
_registered: set = set()
_new = object.__new__

#: Entries per operator before its table is emptied (NaN scalars never match; a loop over
#: scalar values would otherwise grow it without bound).
CACHE_LIMIT = 2048
_caches: dict[OpOverload, dict[Any, Any]] = {}
_stats = {"hits": 0, "misses": 0, "bypasses": 0}
_enabled = [True]


_Uncacheable = Uncacheable


def register_all() -> None:
    """Register every meta function not yet registered (idempotent)."""
    for op, fn in META_FUNCTIONS.items():
        if op in _registered:
            continue
        # A CompositeImplicitAutograd op decomposes on meta too: no Meta kernel (as PyTorch).
        if op.has_kernel_for_dispatch_key(DispatchKey.CompositeImplicitAutograd):
            continue
        meta_lib.impl(op, _cached_kernel(op, fn), "Meta")
        _registered.add(op)


def cache_info() -> dict[str, int]:
    """Hits, misses, bypasses (calls that cannot be cached) and entries of the meta cache."""
    return dict(_stats, size=sum(len(c) for c in _caches.values()))


def cache_clear() -> None:
    """Empty every operator's meta cache and reset the counters."""
    for c in _caches.values():
        c.clear()
    for k in _stats:
        _stats[k] = 0


def set_cache_enabled(enabled: bool) -> bool:
    """Turn the meta cache on or off (returns the previous setting): off, every call runs its
    meta function."""
    prev = _enabled[0]
    _enabled[0] = bool(enabled)
    return prev


# -- keys ------------------------------------------------------------------------------------
_ATOMS = ATOMS


def _key(v: Any) -> Any:
    """A hashable description of an argument, exact enough that equal keys give equal meta
    results (1, 1.0 and True differ by type)."""
    cls = v.__class__
    if isinstance(v, Tensor):
        d = v._data
        if d.__class__ is not MetaArray:
            raise _Uncacheable  # a CPU scalar tensor next to meta ones: its value may matter
        return (d.shape, d.stride, d.offset, d.storage_nbytes, v._dtype, v._key_set, cls)
    if cls in _ATOMS:
        return (cls, v)
    if cls is list or cls is tuple:
        return sequence_key(cls, v, _key)
    raise _Uncacheable  # generators, callables, anything whose identity may matter


# -- outputs -----------------------------------------------------------------------------------
def _meta_of(out: Tensor) -> tuple[Any, ...]:
    """What a cached meta output is rebuilt from (kernels/_output_cache.py's entries)."""
    d = out._data
    if d.__class__ is not MetaArray or out._base is not None or out._autograd_meta is not None:
        raise _Uncacheable
    cls = out.__class__
    return (d.shape, d.stride, d.dtype, d.offset, d.storage_nbytes, out._dtype, out._key_set, cls)


def _make(meta: tuple[Any, ...], storage: Any) -> Tensor:
    shape, stride, npdt, offset, nbytes, dt, ks, cls = meta
    t = _new(cls)
    t._data = new_meta_array(shape, stride, npdt, offset, nbytes, storage)
    t._dtype = dt
    t._key_set = ks
    t._autograd_meta = None
    t._base = None
    t._version_counter = None
    return t


def _cacheable(op: OpOverload) -> bool:
    schema = op._schema
    if schema is None or schema.is_mutable:
        return False
    # A returned alias must be of an argument (a view); anything else has no rebuild rule.
    return all(a.alias_info is None or not a.alias_info.is_write for a in schema.arguments)


def _cached_kernel(op: OpOverload, fn: Callable[..., Any]) -> Callable[..., Any]:
    """`fn` behind the per-operator metadata cache (Note [meta cache])."""
    if not _cacheable(op):
        return fn
    cache: dict[Any, Any] = {}
    _caches[op] = cache
    views = any(r.alias_info is not None for r in op._schema.returns)
    stats = _stats
    enabled = _enabled
    default_dtype = _default_dtype

    def kernel(*args: Any, **kwargs: Any) -> Any:
        if not enabled[0]:
            return fn(*args, **kwargs)
        key = [default_dtype[0]]
        append = key.append
        has_tensor = False
        try:
            for a in args:
                if isinstance(a, Tensor):
                    d = a._data
                    if d.__class__ is not MetaArray:
                        raise _Uncacheable
                    append(
                        (
                            d.shape,
                            d.stride,
                            d.offset,
                            d.storage_nbytes,
                            a._dtype,
                            a._key_set,
                            a.__class__,
                        )
                    )
                    has_tensor = True
                else:
                    cls = a.__class__
                    if cls in _ATOMS:
                        append((cls, a))
                    else:
                        append(_key(a))
                        if not has_tensor and (cls is list or cls is tuple):
                            has_tensor = any(isinstance(x, Tensor) for x in a)
            if kwargs:
                for name in sorted(kwargs):
                    v = kwargs[name]
                    append((name, _key(v)))
                    if isinstance(v, Tensor):
                        has_tensor = True
            if not has_tensor:
                raise _Uncacheable
        except _Uncacheable:
            stats["bypasses"] += 1
            return fn(*args, **kwargs)
        key = tuple(key)
        entry = cache.get(key)
        if entry is None:
            return _miss(fn, cache, key, args, kwargs, views)
        stats["hits"] += 1
        if entry[0] == "new":  # the common case, inline (see _make)
            shape, stride, npdt, offset, nbytes, dt, ks, cls = entry[1]
            m = _new(MetaArray)
            m.shape = shape
            m.stride = stride
            m.dtype = npdt
            m.offset = offset
            m.storage_nbytes = nbytes
            storage = m.storage = _new(MetaStorage)
            storage.nbytes = nbytes
            t = _new(cls)
            t._data = m
            t._dtype = dt
            t._key_set = ks
            t._autograd_meta = t._base = t._version_counter = None
            return t
        return rebuild(entry, args, kwargs, _make)

    kernel.__name__ = getattr(fn, "__name__", "meta")
    kernel.__qualname__ = f"meta[{op}]"
    kernel.__wrapped__ = fn  # type: ignore[attr-defined]
    return kernel


def _miss(
    fn: Callable[..., Any],
    cache: dict[Any, Any],
    key: Any,
    args: tuple[Any, ...],
    kwargs: dict[str, Any],
    views: bool,
) -> Any:
    """Run the meta function; remember its outputs unless it warned (a rerun must warn too)."""
    _stats["misses"] += 1
    out, warned = run_recording_warnings(lambda: fn(*args, **kwargs))
    if warned:
        # Run it again outside the recorder so that its warnings (and error) go out as usual.
        return fn(*args, **kwargs)
    try:
        entry = describe(out, tensor_storages(args, kwargs), views, _meta_of)
    except _Uncacheable:
        return out
    if len(cache) >= CACHE_LIMIT:
        cache.clear()
    cache[key] = entry
    return out
