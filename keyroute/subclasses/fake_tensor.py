"""FakeTensor and FakeTensorMode: tensors that report a real device and hold no data.

Under `FakeTensorMode()` every operator runs on metadata only: the mode (a dispatch mode, below
autograd) swaps fake arguments for meta tensors, runs the operator's meta function (custom
operators run their fake implementation), and wraps the results as FakeTensors on the inputs'
device. Factories make FakeTensors. Outputs of operators that neither view nor write their
inputs are cached per operator and input metadata.

>>> import keyroute
>>> with FakeTensorMode():
...     x = keyroute.empty(4, 128, 8192)
...     h = keyroute.nn.functional.silu(x @ keyroute.empty(8192, 28672))
>>> type(h).__name__, tuple(h.shape)
('FakeTensor', (4, 128, 28672))
"""

from __future__ import annotations

from typing import Any

from ..dispatcher.keys import DispatchKey
from ..dispatcher.keyset import REQUIRES_GRAD_BIT, VISIBLE_MASK, key_bits
from ..tensor._tensor import META_KEYS, Tensor, make_tensor
from ..tensor.device import Device
from ..tensor.meta_array import MetaArray
from ..tensor.subclass import PYTHON_KEYS, keys_for_device
from ..utils.python_dispatch import TorchDispatchMode

__all__ = [
    "FakeTensor",
    "FakeTensorMode",
    "DataDependentOutputException",
    "DynamicOutputShapeException",
    "UnsupportedFakeTensorException",
]


class UnsupportedFakeTensorException(RuntimeError):
    pass


class DataDependentOutputException(RuntimeError):
    """An operator's result depends on tensor values, which fake tensors do not have."""

    def __init__(self, func: Any) -> None:
        super().__init__(
            f"{func}: the result depends on the tensor's data, which a FakeTensor does not have "
            f"(data-dependent output)"
        )
        self.func = func


class DynamicOutputShapeException(RuntimeError):
    """An operator's output *shape* depends on tensor values (nonzero, masked_select...)."""

    def __init__(self, func: Any) -> None:
        super().__init__(
            f"{func}: the output shape depends on the tensor's data (dynamic output shape), "
            f"which a FakeTensor does not have"
        )
        self.func = func


_DATA_DEPENDENT = {"aten::_local_scalar_dense", "aten::item", "aten::equal", "aten::allclose"}
_DYNAMIC_SHAPE = {
    "aten::nonzero", "aten::masked_select", "aten::unique", "aten::_unique2", "aten::nonzero_static",
    "aten::repeat_interleave.Tensor", "aten::index_put_", "aten::nonzero_numpy",
}  # fmt: skip


class FakeTensor(Tensor):
    """A tensor with metadata only, reporting `fake_device` as its device."""

    fake_mode: FakeTensorMode
    fake_device: Device

    @property
    def device(self) -> Device:  # type: ignore[override]
        return self.fake_device

    @property
    def is_meta(self) -> bool:  # type: ignore[override]
        return False

    @property
    def is_cpu(self) -> bool:  # type: ignore[override]
        return self.fake_device.type == "cpu"

    @property
    def is_cuda(self) -> bool:  # type: ignore[override]
        return self.fake_device.type == "cuda"

    def __repr__(self, **kwargs: Any) -> str:
        return f"FakeTensor(..., device='{self.fake_device}', size={tuple(self.shape)}" + (
            f", dtype={self._dtype}" if self._dtype.name != "float32" else ""
        ) + (", requires_grad=True" if self.requires_grad else "") + ")"

    @classmethod
    def __torch_dispatch__(cls, func: Any, types: Any, args: Any = (), kwargs: Any = None) -> Any:
        # Used outside its mode: re-enter the mode the tensors belong to.
        mode = _find_mode(args, kwargs or {})
        with mode:
            return mode.__torch_dispatch__(func, types, args, kwargs)

    def numpy(self, *, force: bool = False) -> Any:
        raise DataDependentOutputException("Tensor.numpy()")

    def tolist(self) -> Any:
        raise DataDependentOutputException("Tensor.tolist()")


def _find_mode(args: Any, kwargs: dict[str, Any]) -> FakeTensorMode:
    for v in list(args) + list(kwargs.values()):
        items = v if isinstance(v, (list, tuple)) else (v,)
        for x in items:
            if isinstance(x, FakeTensor):
                return x.fake_mode
    raise RuntimeError("no FakeTensor among the arguments")


def _fake_keys(device: Device) -> int:
    return keys_for_device(device) | PYTHON_KEYS


class FakeTensorMode(TorchDispatchMode):
    """Run every operator on metadata only; results are FakeTensors (torch's FakeTensorMode)."""

    def __init__(self, *, allow_non_fake_inputs: bool = False, allow_fallback_kernels: bool = True,
                 shape_env: Any = None, static_shapes: Any = None, export: bool = False) -> None:  # fmt: skip
        super().__init__()
        self.allow_non_fake_inputs = allow_non_fake_inputs
        self.cache: dict[Any, Any] = {}
        self.cache_hits = 0
        self.cache_misses = 0
        self.cache_enabled = True

    # -- conversions -------------------------------------------------------------------------
    def from_tensor(self, t: Tensor, *, static_shapes: Any = None) -> FakeTensor:
        """A FakeTensor with t's metadata and device (t may be real, meta or fake)."""
        if isinstance(t, FakeTensor):
            if t.fake_mode is not self:
                raise RuntimeError("Mixing fake modes NYI")
            return t
        data = t._data
        if isinstance(data, MetaArray):
            meta = MetaArray(data.shape, data.stride, data.dtype, data.offset, data.storage_nbytes,
                             data.storage)  # fmt: skip
        else:
            from ..tensor._tensor import _root_array

            meta = MetaArray(tuple(data.shape), t.stride(), data.dtype, t.storage_offset(),
                             _root_array(data).nbytes)  # fmt: skip
        fake = self._wrap_meta(make_tensor(meta, t._dtype, META_KEYS), t.device)
        if t._ks & REQUIRES_GRAD_BIT:
            fake._ks |= REQUIRES_GRAD_BIT
        return fake

    from_real_tensor = from_tensor

    def _wrap_meta(self, m: Tensor, device: Device) -> FakeTensor:
        ks = _fake_keys(device)
        if m._ks & REQUIRES_GRAD_BIT:
            ks |= REQUIRES_GRAD_BIT
        f = make_tensor(m._data, m._dtype, ks, FakeTensor)
        f.fake_mode = self
        f.fake_device = device
        return f

    def _to_meta(self, f: FakeTensor) -> Tensor:
        m = make_tensor(f._data, f._dtype, META_KEYS, Tensor)
        m._vc = f._vc
        return m

    # -- dispatch ------------------------------------------------------------------------------
    def __torch_dispatch__(self, func: Any, types: Any, args: Any = (), kwargs: Any = None) -> Any:
        kwargs = kwargs or {}
        name = func.qualified_name()
        base_name = name.split(".")[0]
        if name in _DATA_DEPENDENT or base_name in _DATA_DEPENDENT:
            raise DataDependentOutputException(func)
        if name in _DYNAMIC_SHAPE or base_name in _DYNAMIC_SHAPE:
            raise DynamicOutputShapeException(func)
        devices: list[tuple[Device, bool]] = []  # (device, is a zero-dim tensor)
        fakes: dict[int, FakeTensor] = {}

        def convert(v: Any) -> Any:
            if isinstance(v, (list, tuple)):
                return type(v)(convert(x) for x in v)
            if isinstance(v, FakeTensor):
                if v.fake_mode is not self:
                    raise RuntimeError(
                        "Mixing fake modes NYI: an argument belongs to another FakeTensorMode"
                    )
                devices.append((v.fake_device, v._data.shape == ()))
                m = self._to_meta(v)
                fakes[id(m)] = v
                return m
            if isinstance(v, Tensor):
                if not (self.allow_non_fake_inputs or v.is_meta):
                    raise RuntimeError(
                        f"Please convert all Tensors to FakeTensors first or instantiate "
                        f"FakeTensorMode with 'allow_non_fake_inputs'. Found in {func}(*args, "
                        f"**kwargs) a real tensor of shape {tuple(v.shape)}"
                    )
                return convert(self.from_tensor(v))
            return v

        if name == "aten::lift_fresh":
            return self.from_tensor(args[0])
        margs = convert(args)
        mkwargs = {k: convert(v) for k, v in kwargs.items()}
        device = _common_device(func, devices)
        if device is None:
            device = self._factory_device(mkwargs)
            if "device" in mkwargs:
                mkwargs["device"] = Device("meta")
            elif _is_factory(func):
                mkwargs["device"] = Device("meta")
        key = self._cache_key(func, margs, mkwargs) if self.cache_enabled else None
        if key is not None and key in self.cache:
            self.cache_hits += 1
            return self._from_cached(self.cache[key], device)
        out = func(*margs, **mkwargs)
        if key is not None:
            self.cache_misses += 1
            self.cache[key] = _describe(out)
        return self._wrap_outputs(out, device, fakes)

    def _factory_device(self, kwargs: dict[str, Any]) -> Device:
        from ..tensor.device import default_device

        dev = kwargs.get("device")
        d = Device(dev) if dev is not None else default_device()
        return Device("cpu") if d.type == "meta" else d

    def _wrap_outputs(self, out: Any, device: Device, fakes: dict[int, FakeTensor]) -> Any:
        if isinstance(out, (list, tuple)):
            return type(out)(self._wrap_outputs(x, device, fakes) for x in out)
        if isinstance(out, Tensor):
            original = fakes.get(id(out))
            if original is not None:  # an in-place op returned its (meta alias of the) input
                original._data = out._data
                return original
            f = self._wrap_meta(out, device)
            if out._base is not None:
                base = fakes.get(id(out._base))
                f._base = base if base is not None else None
                f._vc = out._vc
            return f
        return out

    # -- cache ---------------------------------------------------------------------------------
    def _cache_key(self, func: Any, args: Any, kwargs: dict[str, Any]) -> Any:
        schema = func._schema
        if schema is None or any(a.alias_info is not None for a in schema.arguments):
            return None
        if any(r.alias_info is not None for r in schema.returns):
            return None
        if "nondeterministic_seeded" in str(getattr(func, "tags", ())) or _is_random(func):
            return None
        try:
            return (func, _meta_key(args), _meta_key(tuple(sorted(kwargs.items()))))
        except TypeError:
            return None

    def _from_cached(self, desc: Any, device: Device) -> Any:
        if isinstance(desc, list):
            return [self._from_cached(d, device) for d in desc]
        if isinstance(desc, tuple) and desc and desc[0] == "__tensor__":
            _, shape, stride, dt, offset = desc
            m = make_tensor(MetaArray(shape, stride, dt.np, offset), dt, META_KEYS)
            return self._wrap_meta(m, device)
        if isinstance(desc, tuple) and desc and desc[0] == "__tuple__":
            return tuple(self._from_cached(d, device) for d in desc[1])
        return desc

    def __enter__(self) -> FakeTensorMode:
        return super().__enter__()  # type: ignore[return-value]


def _common_device(func: Any, devices: list[tuple[Device, bool]]) -> Device | None:
    """PyTorch's rule: one device, except that zero-dim CPU tensors go along with any."""
    if not devices:
        return None
    distinct = {d for d, _ in devices}
    if len(distinct) == 1:
        return devices[0][0]
    non_scalar_cpu = {d for d, zero in devices if not (zero and d.type == "cpu")}
    if len(non_scalar_cpu) == 1:
        return next(iter(non_scalar_cpu))
    a, b = sorted(distinct, key=str)[:2]
    raise RuntimeError(
        f"Unhandled FakeTensor Device Propagation for {func}, found two different devices "
        f"{a}, {b}"
    )


def _describe(out: Any) -> Any:
    if isinstance(out, Tensor):
        return ("__tensor__", tuple(out._data.shape), tuple(out.stride()), out._dtype, out.storage_offset())
    if isinstance(out, tuple):
        return ("__tuple__", tuple(_describe(x) for x in out))
    if isinstance(out, list):
        return [_describe(x) for x in out]
    return out


def _meta_key(v: Any) -> Any:
    if isinstance(v, Tensor):
        return ("T", tuple(v._data.shape), tuple(v.stride()), v._dtype.name, v.storage_offset(),
                bool(v._ks & REQUIRES_GRAD_BIT))  # fmt: skip
    if isinstance(v, (list, tuple)):
        return (type(v).__name__, tuple(_meta_key(x) for x in v))
    if isinstance(v, (int, float, bool, str, type(None), complex)):
        return v
    if isinstance(v, Device):
        return ("D", str(v))
    if hasattr(v, "scalar_type") or hasattr(v, "value"):
        return ("O", repr(v))
    hash(v)
    return v


def _is_factory(func: Any) -> bool:
    schema = func._schema
    return schema is not None and not any(a.kind for a in schema.arguments)


def _is_random(func: Any) -> bool:
    name = func._opname
    return name.startswith(("rand", "normal", "uniform", "bernoulli", "dropout", "native_dropout",
                            "random", "multinomial", "exponential"))  # fmt: skip


del DispatchKey, VISIBLE_MASK, key_bits
