"""FakeTensor and FakeTensorMode: tensors that report a real device and hold no data.

Under `FakeTensorMode()` every operator runs on metadata only: the mode (a dispatch mode, below
autograd) runs the operator's Meta kernel on meta aliases of its fake arguments (a custom
operator runs its fake implementation on the fake tensors themselves) and wraps the results as
FakeTensors on the arguments' common device (PyTorch's device rule). Factories make
FakeTensors. Output metadata is cached per operator and input metadata (Note [fake cache]).

>>> import keyroute
>>> with FakeTensorMode():
...     x = keyroute.empty(4, 128, 8192)
...     h = keyroute.nn.functional.silu(x @ keyroute.empty(8192, 28672))
>>> type(h).__name__, tuple(h.shape)
('FakeTensor', (4, 128, 28672))

Note [fake cache]: per operator, the key is the default dtype and for each argument its
metadata (shape, strides, offset, storage size, dtype, device) or its value; the entry is each
output's metadata and device, or for a view which argument's storage it aliases. Operators that
write an argument, random operators, custom operators, calls with a non-fake tensor, a
constant-carrying fake or an argument of unknown type bypass it; a call that raises or warns
is not stored. `FakeTensorMode.cache_info()` counts hits, misses and bypasses by reason, as
PyTorch's; the cache is shared by all modes, as PyTorch's.
"""

from __future__ import annotations

import weakref
from collections import namedtuple
from typing import Any

from ..dispatcher.keys import DispatchKey
from ..dispatcher.keyset import REQUIRES_GRAD_BIT, key_bits
from ..kernels._output_cache import (
    ATOMS,
    Uncacheable,
    describe,
    rebuild,
    run_recording_warnings,
    sequence_key,
    tensor_storages,
)
from ..profiler import _state as _prof
from ..tensor._tensor import META_KEYS, Tensor, _root_array
from ..tensor.device import Device, default_device
from ..tensor.dtype import _default_dtype
from ..tensor.dtype import dtype as _dtype_cls
from ..tensor.meta_array import MetaArray, MetaStorage, new_meta_array
from ..tensor.subclass import PYTHON_KEYS, keys_for_device
from ..utils.python_dispatch import TorchDispatchMode

__all__ = [
    "FakeTensor",
    "FakeTensorMode",
    "FakeTensorConverter",
    "DataDependentOutputException",
    "DynamicOutputShapeException",
    "FakeTensorDeviceMismatchError",
    "UnsupportedFakeTensorException",
    "DispatchCacheInfo",
    "CONSTANT_NUMEL_LIMIT",
]

_new = object.__new__
_META_ONLY = key_bits(DispatchKey.Meta)
#: A tensor made by `keyroute.tensor(...)` under the mode with at most this many elements keeps
#: its value (PyTorch's constant), so that `.item()` on it works.
CONSTANT_NUMEL_LIMIT = 1
#: Entries per operator before its table is emptied (a loop over scalar values would grow it).
CACHE_LIMIT = 2048

DispatchCacheInfo = namedtuple("DispatchCacheInfo", ["hits", "misses", "bypasses", "size"])


# -- errors (PyTorch's types; the message starts with PyTorch's, then says why) -------------
class UnsupportedFakeTensorException(RuntimeError):
    """An operation fake tensors cannot model."""

    def __init__(self, reason: str) -> None:
        super().__init__(reason)
        self.reason = reason


class DataDependentOutputException(RuntimeError):
    """An operator's result depends on tensor values, which fake tensors do not have."""

    def __init__(self, func: Any) -> None:
        super().__init__(
            f"{func}: the result depends on the tensor's data (data-dependent output), and a "
            f"FakeTensor holds no data"
        )
        self.func = func


class DynamicOutputShapeException(RuntimeError):
    """An operator's output shape depends on tensor values (nonzero, masked_select...)."""

    def __init__(self, func: Any) -> None:
        super().__init__(
            f"{func}: the output's shape depends on the tensor's data (dynamic output shape), "
            f"and a FakeTensor holds no data"
        )
        self.func = func


class FakeTensorDeviceMismatchError(RuntimeError):
    """Two fake arguments on different devices (other than a zero-dim CPU tensor)."""

    def __init__(self, func: Any, common_device: Device, device: Device) -> None:
        super().__init__(
            f"Expected all tensors to be on the same device, but found at least two devices, "
            f"{common_device} and {device}!"
        )
        self.func = func
        self.common_device = common_device
        self.device = device


# Operators whose output depends on data (checked on a miss only: they are never cached).
_DATA_DEPENDENT = frozenset(
    {
        "aten::_local_scalar_dense",
        "aten::equal",
        "aten::allclose",
        "aten::is_nonzero",
    }
)
_DYNAMIC_SHAPE = frozenset(
    {
        "aten::nonzero",
        "aten::masked_select",
        "aten::unique",
        "aten::_unique",
        "aten::_unique2",
        "aten::unique_dim",
        "aten::unique_consecutive",
        "aten::unique_dim_consecutive",
        "aten::bincount",
        "aten::repeat_interleave.Tensor",
        "aten::nonzero_numpy",
        "aten::_ragged_idx",
    }
)
_RANDOM_PREFIXES = (
    "rand",
    "normal",
    "uniform",
    "bernoulli",
    "dropout",
    "native_dropout",
    "random",
    "multinomial",
    "exponential",
    "poisson",
    "cauchy",
    "geometric",
    "log_normal",
)
_ATOMS = ATOMS


_Bypass = Uncacheable  # with the reason counted in FakeTensorMode.cache_bypasses


# Devices are interned (one object per type and index, never freed), so the hot paths key on
# their identity: Device.__hash__ is a Python-level hash of a tuple.
_fake_keys_by_device: dict[int, int] = {}


def _fake_keys(device: Device) -> int:
    ks = _fake_keys_by_device.get(id(device))
    if ks is None:
        ks = _fake_keys_by_device[id(device)] = keys_for_device(device) | PYTHON_KEYS
    return ks


def _make_fake(mode: FakeTensorMode, data: MetaArray, dt: _dtype_cls, device: Device) -> FakeTensor:
    f = _new(FakeTensor)
    f._data = data
    f._dtype = dt
    f._key_set = _fake_keys(device)
    f._autograd_meta = None
    f._base = None
    f._version_counter = None
    f.fake_mode = mode
    f.fake_device = device
    return f


class FakeTensor(Tensor):
    """A tensor with metadata only, reporting `fake_device` as its device.

    `FakeTensor(fake_mode, elem, device)` wraps the meta tensor `elem` (PyTorch's signature)."""

    fake_mode: FakeTensorMode
    fake_device: Device
    #: A real tensor with this fake's value (at most CONSTANT_NUMEL_LIMIT elements), or None.
    constant: Tensor | None = None

    def __new__(
        cls,
        fake_mode: Any = None,
        elem: Any = None,
        device: Any = None,
        constant: Tensor | None = None,
    ) -> FakeTensor:
        if (
            not isinstance(fake_mode, FakeTensorMode)
            or not isinstance(elem, Tensor)
            or (not isinstance(elem._data, MetaArray))
        ):
            raise TypeError("FakeTensor(fake_mode, elem, device): elem must be a meta tensor")
        f = _make_fake(fake_mode, elem._data, elem._dtype, Device(device))
        if constant is not None:
            f.constant = constant
        return f

    @property
    def device(self) -> Device:  # type: ignore[override]
        return self.fake_device

    @property
    def is_meta(self) -> bool:  # type: ignore[override]
        return self.fake_device.type == "meta"

    @property
    def is_cpu(self) -> bool:  # type: ignore[override]
        return self.fake_device.type == "cpu"

    @property
    def is_cuda(self) -> bool:  # type: ignore[override]
        return self.fake_device.type == "cuda"

    def __repr__(self, *, tensor_contents: Any = None) -> str:
        from ..tensor.repr import tensor_repr

        return tensor_repr(self)

    @classmethod
    def __torch_dispatch__(cls, func: Any, types: Any, args: Any = (), kwargs: Any = None) -> Any:
        # Used outside any mode: run under the mode of the first fake argument (the mode
        # checks that every tensor argument is one of its fakes).
        mode = _first_fake(args, kwargs or {}).fake_mode
        with mode:
            return mode.__torch_dispatch__(func, types, args, kwargs)

    def numpy(self, *, force: bool = False) -> Any:
        raise RuntimeError(".numpy() is not supported for tensor subclasses.")

    def tolist(self) -> Any:
        if self.constant is not None:
            return self.constant.tolist()
        shape = self._data.shape
        if 0 in shape:
            return _empty_lists(shape)
        from .._ops import ops

        raise DataDependentOutputException(ops.aten._local_scalar_dense.default)


def _empty_lists(shape: tuple[int, ...]) -> list[Any]:
    if not shape or shape[0] == 0:
        return []
    return [_empty_lists(shape[1:]) for _ in range(shape[0])]


def _first_fake(args: Any, kwargs: dict[str, Any]) -> FakeTensor:
    for v in (*args, *kwargs.values()):
        for x in v if isinstance(v, (list, tuple)) else (v,):
            if isinstance(x, FakeTensor):
                return x
    raise AssertionError("FakeTensor.__torch_dispatch__ called without a FakeTensor argument")


def _forget(memo: dict[int, Any], key: int) -> Any:
    """A weakref callback dropping memo[key] if it still is the entry of the object that died
    (its id may already name a newer object's entry)."""

    def callback(ref: Any) -> None:
        entry = memo.get(key)
        if entry is not None and entry[0] is ref:
            del memo[key]

    return callback


class FakeTensorConverter:
    """Real (or meta, or another mode's fake) tensors to FakeTensors, memoised per tensor:
    converting the same tensor twice gives the same FakeTensor, and views of one storage
    share one fake storage."""

    def __init__(self) -> None:
        self.tensor_memo: dict[int, tuple[weakref.ref[Any], FakeTensor]] = {}
        self.storage_memo: dict[int, tuple[weakref.ref[Any], MetaStorage]] = {}

    def from_real_tensor(
        self, fake_mode: FakeTensorMode, t: Tensor, *, make_constant: bool = False, **ignored: Any
    ) -> FakeTensor:
        hit = self.tensor_memo.get(id(t))
        if hit is not None and hit[0]() is t and hit[1].fake_mode is fake_mode:
            f = hit[1]
            if f._data.shape == tuple(t._data.shape) and f.stride() == t.stride():
                return f
        base = None
        if t._base is not None:
            base = self.from_real_tensor(fake_mode, t._base)
        data = t._data
        if isinstance(data, MetaArray):
            if base is not None:
                storage = base._data.storage
            else:
                storage = self._storage(data.storage, data.storage_nbytes)
            meta = new_meta_array(
                data.shape, data.stride, data.dtype, data.offset, data.storage_nbytes, storage
            )
        else:
            root = _root_array(data)
            storage = base._data.storage if base is not None else self._storage(root, root.nbytes)
            meta = new_meta_array(
                tuple(data.shape),
                tuple(t.stride()),
                data.dtype,
                t.storage_offset(),
                root.nbytes,
                storage,
            )
        f = _make_fake(fake_mode, meta, t._dtype, t.device)
        if base is not None:
            f._base = base
        if make_constant and t.numel() <= CONSTANT_NUMEL_LIMIT and not isinstance(data, MetaArray):
            from .._api.creation import empty_like

            c = empty_like(t)
            c.copy_(t)
            f.constant = c
        if t._key_set & REQUIRES_GRAD_BIT:
            f.requires_grad_(True)
        try:
            ref = weakref.ref(t, _forget(self.tensor_memo, id(t)))
        except TypeError:
            return f
        self.tensor_memo[id(t)] = (ref, f)
        return f

    def _storage(self, real_storage: Any, nbytes: int) -> MetaStorage:
        hit = self.storage_memo.get(id(real_storage))
        if hit is not None and hit[0]() is real_storage:
            return hit[1]
        s = MetaStorage(nbytes)
        try:
            ref = weakref.ref(real_storage, _forget(self.storage_memo, id(real_storage)))
        except TypeError:
            return s
        self.storage_memo[id(real_storage)] = (ref, s)
        return s


class FakeTensorMode(TorchDispatchMode):
    """Run every operator on metadata only; results are FakeTensors (torch's FakeTensorMode)."""

    # The dispatch cache is shared by every mode, as PyTorch's (one table per operator, kept
    # on the operator: see _op_cache).
    cache_hits = 0
    cache_misses = 0
    cache_bypasses: dict[str, int] = {}

    def __init__(
        self,
        *,
        allow_fallback_kernels: bool = True,
        allow_non_fake_inputs: bool = False,
        shape_env: Any = None,
        static_shapes: Any = None,
        export: bool = False,
        **ignored: Any,
    ) -> None:
        super().__init__()
        self.allow_fallback_kernels = allow_fallback_kernels
        self.allow_non_fake_inputs = allow_non_fake_inputs
        self.shape_env = shape_env
        self.static_shapes = True if static_shapes is None else static_shapes
        self.export = export
        self.fake_tensor_converter = FakeTensorConverter()
        self.cache_enabled = True

    # -- conversions -------------------------------------------------------------------------
    def from_tensor(
        self,
        tensor: Tensor,
        *,
        static_shapes: Any = None,
        source: Any = None,
        symbolic_context: Any = None,
        trace: bool = True,
    ) -> FakeTensor:
        """A FakeTensor of this mode with `tensor`'s metadata and device (memoised)."""
        if isinstance(tensor, FakeTensor) and tensor.fake_mode is self:
            return tensor
        return self.fake_tensor_converter.from_real_tensor(self, tensor)

    def from_real_tensor(self, tensor: Tensor) -> FakeTensor:
        """`fake_tensor_converter.from_real_tensor(self, tensor)` (PyTorch spells it on the
        converter; keyroute also offers it on the mode)."""
        return self.fake_tensor_converter.from_real_tensor(self, tensor)

    def is_our_fake(self, t: Any) -> bool:
        return isinstance(t, FakeTensor) and t.fake_mode is self

    @classmethod
    def cache_info(cls) -> DispatchCacheInfo:
        """Hits, misses, bypasses by reason and entries of the shared dispatch cache."""
        size = sum(len(c) for c in _op_caches.values())
        return DispatchCacheInfo(
            FakeTensorMode.cache_hits,
            FakeTensorMode.cache_misses,
            dict(FakeTensorMode.cache_bypasses),
            size,
        )

    @classmethod
    def cache_clear(cls) -> None:
        """Empty the shared dispatch cache and reset its counters."""
        FakeTensorMode.cache_hits = 0
        FakeTensorMode.cache_misses = 0
        FakeTensorMode.cache_bypasses = {}
        for c in _op_caches.values():
            c.clear()

    def __enter__(self) -> FakeTensorMode:
        return super().__enter__()  # type: ignore[return-value]

    # -- dispatch ------------------------------------------------------------------------------
    def __torch_dispatch__(self, func: Any, types: Any, args: Any = (), kwargs: Any = None) -> Any:
        if _prof.collector is not None:  # PyTorch's handler's own events (profiler/_fake_events)
            from ..profiler._fake_events import record

            return record(self, func, types, args, kwargs)
        return self._torch_dispatch(func, types, args, kwargs)

    def _torch_dispatch(self, func: Any, types: Any, args: Any = (), kwargs: Any = None) -> Any:
        if kwargs is None:
            kwargs = {}
        if self.cache_enabled:
            # The hot path (Note [fake cache]): key straight from the fake arguments.
            try:
                cache = func._fake_cache
            except AttributeError:
                cache = _op_cache(func)
            if _META_ONLY not in func._rcache:
                # A registration since the last miss dropped the operator's dispatch caches:
                # its Meta kernel may have changed, so may its results.
                cache.clear()
            try:
                parts: list[Any] = [_default_dtype[0]]
                for a in args:
                    if a.__class__ is FakeTensor:
                        if a.fake_mode is not self or a.constant is not None:
                            raise _Bypass(
                                "non-fake tensor" if a.fake_mode is not self else "constant"
                            )
                        d = a._data
                        parts.append(
                            (
                                d.shape,
                                d.stride,
                                d.offset,
                                d.storage_nbytes,
                                a._dtype,
                                id(a.fake_device),
                            )
                        )
                    else:
                        parts.append(self._key(a))
                if kwargs:
                    for name in sorted(kwargs):
                        parts.append((name, self._key(kwargs[name])))
                key = tuple(parts)
                entry = cache.get(key)
            except _Bypass as b:
                _bypass(b.reason)
                return self._dispatch(func, args, kwargs, None, None)
            if entry is not None:
                FakeTensorMode.cache_hits += 1
                if entry[0] == "new":  # the common case, inline
                    shape, stride, npdt, offset, nbytes, dt, device = entry[1]
                    f = _new(FakeTensor)
                    f._data = new_meta_array(shape, stride, npdt, offset, nbytes)
                    f._dtype = dt
                    f._key_set = _fake_keys_by_device[id(device)]
                    f._autograd_meta = f._base = f._version_counter = None
                    f.fake_mode = self
                    f.fake_device = device
                    return f
                return self._rebuild(entry, args, kwargs)
            return self._dispatch(func, args, kwargs, key, cache)
        return self._dispatch(func, args, kwargs, None, None)

    def _key(self, v: Any) -> Any:
        cls = v.__class__
        if cls in _ATOMS:
            return (cls, v)
        if cls is FakeTensor:
            if v.fake_mode is not self:
                raise _Bypass("non-fake tensor")
            if v.constant is not None:
                raise _Bypass("constant")
            d = v._data
            return (d.shape, d.stride, d.offset, d.storage_nbytes, v._dtype, id(v.fake_device))
        if cls is list or cls is tuple:
            return sequence_key(cls, v, self._key)
        if isinstance(v, Tensor):
            raise _Bypass("non-fake tensor")
        raise _Bypass("unhashable argument")

    def _rebuild(self, entry: Any, args: tuple[Any, ...], kwargs: dict[str, Any]) -> Any:
        def make(meta: tuple[Any, ...], storage: Any) -> FakeTensor:
            shape, stride, npdt, offset, nbytes, dt, device = meta
            data = new_meta_array(shape, stride, npdt, offset, nbytes, storage)
            return _make_fake(self, data, dt, device)

        return rebuild(entry, args, kwargs, make)

    def _dispatch(
        self,
        func: Any,
        args: tuple[Any, ...],
        kwargs: dict[str, Any],
        key: Any,
        cache: dict[Any, Any] | None,
    ) -> Any:
        """The full path: checks, conversion to meta, the Meta kernel, wrapping (and caching
        when `key` is given and the call can be cached)."""
        name = func.qualified_name()
        if name in _DATA_DEPENDENT:
            const = self._constant_scalar(func, args)
            if const is not None:
                return const[0]
            raise DataDependentOutputException(func)
        if name in _DYNAMIC_SHAPE or name.partition(".")[0] in _DYNAMIC_SHAPE:
            raise DynamicOutputShapeException(func)
        if name == "aten::index.Tensor" and _has_mask_index(args):
            # A mask index turns into nonzero's indices (PyTorch names nonzero too).
            from .._ops import ops

            raise DynamicOutputShapeException(ops.aten.nonzero.default)
        if name == "aten::lift_fresh" or name == "aten::lift":
            return self.fake_tensor_converter.from_real_tensor(self, args[0], make_constant=True)
        fakes = self._validate(func, args, kwargs)
        if func.namespace != "aten":
            fake_kernel = _fake_kernel_of(func)
            if fake_kernel is not None:
                return self._run_fake_impl(func, fake_kernel, args, kwargs)
        device = self._output_device(func, fakes, kwargs)
        if any(f.constant is not None for f in fakes):
            return self._dispatch_constants(func, args, kwargs, fakes, device)
        metas: dict[int, FakeTensor] = {}
        margs = tuple([self._to_meta(a, metas) for a in args])
        mkwargs = {k: self._to_meta(v, metas) for k, v in kwargs.items()}
        if "device" in mkwargs and mkwargs["device"] is not None:
            mkwargs["device"] = Device("meta")
        elif not fakes and _has_device_argument(func):
            mkwargs["device"] = Device("meta")
        cacheable = key is not None and _cacheable(func)
        if not cacheable:
            if key is not None:
                _bypass("uncacheable operator")
            out = func.redispatch(_META_ONLY, *margs, **mkwargs)
            return self._wrap(out, device, metas)
        FakeTensorMode.cache_misses += 1
        out, warned = run_recording_warnings(lambda: func.redispatch(_META_ONLY, *margs, **mkwargs))
        if warned:  # not cached; run again so that its warnings (or error) go out as usual
            out = func.redispatch(_META_ONLY, *margs, **mkwargs)
            return self._wrap(out, device, metas)
        try:
            entry = describe(
                out, tensor_storages(margs, mkwargs), _returns_alias(func), _meta_of(device)
            )
        except _Bypass as b:
            _bypass(b.reason)
        else:
            assert cache is not None
            if len(cache) >= CACHE_LIMIT:
                cache.clear()
            cache[key] = entry
        return self._wrap(out, device, metas)

    def _validate(
        self, func: Any, args: tuple[Any, ...], kwargs: dict[str, Any]
    ) -> list[FakeTensor]:
        """The fake tensor arguments (lists flattened); a real or foreign fake tensor is an
        error unless allow_non_fake_inputs (then it is converted, in place in the lists)."""
        fakes: list[FakeTensor] = []
        for v in (*args, *kwargs.values()):
            for x in v if isinstance(v, (list, tuple)) else (v,):
                if not isinstance(x, Tensor):
                    continue
                if isinstance(x, FakeTensor) and x.fake_mode is self:
                    fakes.append(x)
                    continue
                if not self.allow_non_fake_inputs:
                    if isinstance(x, FakeTensor):
                        raise AssertionError(
                            f"Mixing fake modes NYI x.fake_mode={x.fake_mode} vs self={self}"
                        )
                    raise AssertionError(
                        "Please convert all Tensors to FakeTensors first or instantiate "
                        "FakeTensorMode with 'allow_non_fake_inputs'. Found in "
                        + _render_call(func, args, kwargs)
                    )
                fakes.append(self.fake_tensor_converter.from_real_tensor(self, x))
        return fakes

    def _to_meta(self, v: Any, metas: dict[int, FakeTensor]) -> Any:
        cls = v.__class__
        if cls is list or cls is tuple:
            return cls(self._to_meta(x, metas) for x in v)
        if isinstance(v, Tensor):
            f = v if (isinstance(v, FakeTensor) and v.fake_mode is self) else self.from_tensor(v)
            m = _new(Tensor)
            m._data = f._data
            m._dtype = f._dtype
            m._key_set = META_KEYS
            m._autograd_meta = None
            m._base = None
            m._version_counter = f._version_counter
            metas[id(m)] = f
            return m
        return v

    def _output_device(self, func: Any, fakes: list[FakeTensor], kwargs: dict[str, Any]) -> Device:
        dev = kwargs.get("device")
        if dev is not None:
            return _indexed(Device(dev))
        if not fakes:
            return _indexed(default_device())
        if func.qualified_name() == "aten::copy_":
            return fakes[0].fake_device  # copy_ writes across devices
        return _common_device(func, fakes)

    def _wrap(self, out: Any, device: Device, metas: dict[int, FakeTensor]) -> Any:
        cls = out.__class__
        if cls is list or cls is tuple:
            return cls(self._wrap(x, device, metas) for x in out)
        if isinstance(out, Tensor):
            original = metas.get(id(out))
            if original is not None:  # an in-place op returned its argument (its meta alias)
                original._data = out._data
                return original
            if not isinstance(out._data, MetaArray):
                raise UnsupportedFakeTensorException(
                    "a meta kernel returned a tensor with data; fake tensors cannot hold it"
                )
            return _make_fake(self, out._data, out._dtype, device)
        return out

    # -- custom operators -------------------------------------------------------------------
    def _run_fake_impl(
        self, func: Any, kernel: Any, args: tuple[Any, ...], kwargs: dict[str, Any]
    ) -> Any:
        """A custom operator's fake implementation, on the fake tensors with this mode active
        (factories inside it make fakes, as in PyTorch)."""
        with self:
            out = kernel(*args, **kwargs)
        return _check_fake_impl_output(func, out, self)

    # -- constants ------------------------------------------------------------------------------
    def _constant_scalar(self, func: Any, args: tuple[Any, ...]) -> tuple[Any] | None:
        if func.qualified_name() == "aten::_local_scalar_dense" and args:
            a = args[0]
            if isinstance(a, FakeTensor) and a.constant is not None:
                return (a.constant.item(),)
        return None

    def _dispatch_constants(
        self,
        func: Any,
        args: tuple[Any, ...],
        kwargs: dict[str, Any],
        fakes: list[FakeTensor],
        device: Device,
    ) -> Any:
        """Some argument carries a value: run the metadata path, and also the real operator
        on the values when every tensor argument has one (PyTorch's constant propagation)."""
        _bypass("constant")
        metas: dict[int, FakeTensor] = {}
        margs = tuple([self._to_meta(a, metas) for a in args])
        mkwargs = {k: self._to_meta(v, metas) for k, v in kwargs.items()}
        out = self._wrap(func.redispatch(_META_ONLY, *margs, **mkwargs), device, metas)
        schema = func._schema
        written = [i for i, a in enumerate(schema.arguments) if a.is_write] if schema else []
        if all(f.constant is not None for f in fakes) and not _is_random(func):

            def real(v: Any) -> Any:
                if isinstance(v, (list, tuple)):
                    return type(v)(real(x) for x in v)
                return v.constant if isinstance(v, FakeTensor) else v

            from ..utils.python_dispatch import _disable_current_modes

            with _disable_current_modes():
                value = func(*real(args), **{k: real(v) for k, v in kwargs.items()})
            _attach_constants(out, value)
        else:
            for i in written:  # a value written from unknown values is unknown
                if i < len(args) and isinstance(args[i], FakeTensor):
                    args[i].constant = None
        return out


def _attach_constants(out: Any, value: Any) -> None:
    if isinstance(out, (list, tuple)):
        for o, v in zip(out, value):
            _attach_constants(o, v)
    elif isinstance(out, FakeTensor) and isinstance(value, Tensor):
        out.constant = value if value.numel() <= CONSTANT_NUMEL_LIMIT else None


def _indexed(device: Device) -> Device:
    """An accelerator device without an index means the current one (0), as PyTorch's fake
    tensors report it: cuda -> cuda:0."""
    if device.index is None and device.type not in ("cpu", "meta"):
        return Device(device.type, 0)
    return device


def _has_mask_index(args: tuple[Any, ...]) -> bool:
    indices = args[1] if len(args) > 1 else ()
    return any(isinstance(t, Tensor) and t._dtype.name in ("bool", "uint8") for t in indices or ())


_op_caches: dict[int, dict[Any, Any]] = {}


def _op_cache(func: Any) -> dict[Any, Any]:
    """The operator's table in the dispatch cache, kept on the operator object so that the hot
    path finds it without hashing the operator (OpOverload.__hash__ is Python-level)."""
    cache: dict[Any, Any] = {}
    func._fake_cache = cache
    _op_caches[id(func)] = cache
    return cache


def _bypass(reason: str) -> None:
    FakeTensorMode.cache_bypasses[reason] = FakeTensorMode.cache_bypasses.get(reason, 0) + 1


def _common_device(func: Any, fakes: list[FakeTensor]) -> Device:
    """PyTorch's rule: one device, except that a zero-dim CPU tensor goes along with any."""
    common = None
    common_is_cpu_scalar = False
    for t in fakes:
        dev = t.fake_device
        is_cpu_scalar = dev.type == "cpu" and not t._data.shape
        if common is None:
            common, common_is_cpu_scalar = dev, is_cpu_scalar
            continue
        if dev == common:
            if common_is_cpu_scalar:
                common_is_cpu_scalar = is_cpu_scalar
            continue
        if is_cpu_scalar:
            continue
        if common_is_cpu_scalar:
            common, common_is_cpu_scalar = dev, is_cpu_scalar
            continue
        raise FakeTensorDeviceMismatchError(func, common, dev)
    assert common is not None
    return common


def _meta_of(device: Device) -> Any:
    """What a cached fake output is rebuilt from (kernels/_output_cache.py's entries)."""

    def meta_of(out: Tensor) -> tuple[Any, ...]:
        d = out._data
        if d.__class__ is not MetaArray:
            raise _Bypass("non-meta output")
        return (d.shape, d.stride, d.dtype, d.offset, d.storage_nbytes, out._dtype, device)

    return meta_of


_cacheable_ops: dict[Any, bool] = {}


def _cacheable(func: Any) -> bool:
    ok = _cacheable_ops.get(func)
    if ok is None:
        schema = func._schema
        ok = (
            func.namespace == "aten"
            and schema is not None
            and not schema.is_mutable
            and not _is_random(func)
        )
        _cacheable_ops[func] = ok
    return ok


def _returns_alias(func: Any) -> bool:
    schema = func._schema
    return schema is not None and any(r.alias_info is not None for r in schema.returns)


def _has_device_argument(func: Any) -> bool:
    schema = func._schema
    return schema is not None and any(a.name == "device" for a in schema.arguments)


def _is_random(func: Any) -> bool:
    tags = getattr(func, "tags", ())
    if any("nondeterministic_seeded" in str(t) for t in tags):
        return True
    return func._opname.lstrip("_").startswith(_RANDOM_PREFIXES)


def _fake_kernel_of(func: Any) -> Any:
    """The custom operator's fake implementation (its Meta kernel from custom_op), if any."""
    from .._library.custom_ops import _FakeKernel

    k = func.kernel_for_key(DispatchKey.Meta)
    return k if isinstance(k, _FakeKernel) else None


def _check_fake_impl_output(func: Any, out: Any, mode: FakeTensorMode) -> Any:
    for x in out if isinstance(out, (list, tuple)) else (out,):
        if isinstance(x, Tensor) and not mode.is_our_fake(x):
            raise UnsupportedFakeTensorException(
                f"{func}: the fake implementation returned a {type(x).__name__} that is not a "
                f"FakeTensor of this mode (create outputs with empty_like/new_empty)"
            )
    return out


def _render_call(func: Any, args: tuple[Any, ...], kwargs: dict[str, Any]) -> str:
    """func(args..., k=v) with tensors printed without their values (PyTorch's render_call)."""
    from ..tensor.repr import printoptions

    with printoptions(threshold=0, edgeitems=0):
        parts = [repr(a) for a in args] + [f"{k}={v!r}" for k, v in kwargs.items()]
    return f"{func}({', '.join(parts)})"
