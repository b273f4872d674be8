"""The CUDA backend on CuPy: kernels of keyroute/kernels/xp_kernels.py on the CUDA key, with
`xp` = cupy, and a boxed CPU fallback for every other operator.

`install(xp)` registers them. keyroute.cuda calls `install(cupy)` when CuPy finds a GPU; the
suite calls it with NumPy in a subprocess (tests/cuda/test_backend_on_numpy.py), so the
adapter, the fallback and the kernels run, as the same source, on the CPU. A tensor on
"cuda" holds an `xp` array; its key set is CUDA, ADInplaceOrView, AutogradCUDA and
AutocastCUDA, so autograd and the view layer run above it as on every device.

Without a GPU nothing is installed and every CUDA kernel reports PyTorch's CPU-build error
(`AssertionError: Torch not compiled with CUDA enabled`).
"""

from __future__ import annotations

import contextlib
import functools
from typing import Any

import numpy as np

from ..dispatcher.registration import Library
from ..kernels import xp_kernels as shared_kernels
from ..tensor._tensor import META_KEYS, Tensor, make_tensor, wrap_cpu
from ..tensor.device import DEVICE_TYPES, Device, StorageDevice
from ..tensor.dtype import to_dtype
from ..tensor.host import COPY_FROM_CPU
from ..tensor.meta_array import MetaArray

__all__ = ["install", "installed", "wrap", "NOT_COMPILED"]

NOT_COMPILED = "Torch not compiled with CUDA enabled"
DEVICE = Device("cuda")
_state: dict[str, Any] = {"xp": None, "libs": [], "peak": 0}


def installed() -> Any:
    """The array module the CUDA kernels run with, or None."""
    return _state["xp"]


def _keys() -> int:
    from ..tensor.subclass import keys_for_device

    return keys_for_device(DEVICE)


def wrap(arr: Any, dtype: Any = None) -> Tensor:
    dt = to_dtype(np.dtype(arr.dtype)) if dtype is None else dtype
    return make_tensor(arr, dt, _keys())


def _is_cuda(v: Any) -> bool:
    return isinstance(v, Tensor) and v.device.type == "cuda"


def _host(xp: Any, arr: Any) -> np.ndarray:
    return arr if xp is np else xp.asnumpy(arr)


def _meta(v: Any) -> Any:
    if isinstance(v, Tensor):
        m = MetaArray(tuple(v._data.shape), v.stride(), v._dtype.np)
        return make_tensor(m, v._dtype, META_KEYS)
    if isinstance(v, (list, tuple)):
        return type(v)(_meta(x) for x in v)
    if isinstance(v, Device) and v.type == "cuda":
        return Device("meta")
    return v


def _unwrap(v: Any) -> Any:
    if isinstance(v, Tensor):
        return v._data
    if isinstance(v, (list, tuple)):
        return type(v)(_unwrap(x) for x in v)
    return v


def _flat(v: Any) -> list[Any]:
    if isinstance(v, Tensor):
        return [v]
    if isinstance(v, (list, tuple)):
        return [t for x in v for t in _flat(x)]
    return []


def _array_index(data: Any) -> int | None:
    """The GPU a CuPy array lives on (None for the suite's NumPy stand-in)."""
    return getattr(getattr(data, "device", None), "id", None)


def _device_index(args: Any, kwargs: dict[str, Any]) -> int | None:
    """The device a kernel runs on, as PyTorch's CUDA device guard picks it: the first cuda
    tensor argument's, else a factory's `device=` (None: the current device)."""
    for v in (*args, *kwargs.values()):
        for t in _flat(v):
            if _is_cuda(t):
                return _array_index(t._data)
    device = kwargs.get("device")
    if device is not None:
        d = Device(device)
        if d.type == "cuda":
            return d.index
    return None


def _guard(xp: Any, index: int | None) -> Any:
    """`with` this around a kernel: CuPy allocates and launches on the current device, so
    switch to the tensor's (a NumPy stand-in has no devices: nothing to switch)."""
    cuda = getattr(xp, "cuda", None)
    if index is None or cuda is None:
        return contextlib.nullcontext()
    return cuda.Device(index)


def _adapter(name: str, kernel: Any, xp: Any, op: Any, *args: Any, **kwargs: Any) -> Any:
    """Run an xp kernel: meta for the outputs' shapes and dtypes, the kernel for the values."""
    meta_out = op(*_meta(args), **{k: _meta(v) for k, v in kwargs.items()})
    if name in shared_kernels.NEEDS_SHAPE:
        kwargs = dict(kwargs, out_shape=tuple(meta_out.shape))
    with _guard(xp, _device_index(args, kwargs)):
        return _adapt_outputs(
            xp, meta_out, kernel(xp, *_unwrap(args), **{k: _unwrap(v) for k, v in kwargs.items()})
        )


def _adapt_outputs(xp: Any, meta_out: Any, res: Any) -> Any:
    metas = _flat(meta_out)
    arrays = list(res) if isinstance(res, tuple) else [res]
    outs = []
    for m, a in zip(metas, arrays):
        a = xp.asarray(a)
        if a.dtype != m._dtype.np:
            a = a.astype(m._dtype.np)
        if tuple(a.shape) != tuple(m.shape):
            a = xp.reshape(a, tuple(m.shape))  # e.g. a 0-dim result NumPy gave as a scalar
        outs.append(wrap(a, m._dtype))
    _note_peak(xp)
    return tuple(outs) if isinstance(meta_out, tuple) else outs[0]


def _note_peak(xp: Any) -> None:
    if xp is not np:
        used = xp.get_default_memory_pool().used_bytes()
        if used > _state["peak"]:
            _state["peak"] = used


# -- copies ----------------------------------------------------------------------------------


def _to_copy(xp: Any, self: Tensor, **kw: Any) -> Tensor:
    dt = self._dtype if kw.get("dtype") is None else to_dtype(kw["dtype"])
    device = kw.get("device")
    target = None if device is None else Device(device)
    if target is not None and target.type == "cpu":
        return wrap_cpu(np.array(_host(xp, self._data), dtype=dt.np), dt)
    index = _array_index(self._data) if target is None or target.index is None else target.index
    with _guard(xp, index):  # .to("cuda:1") copies onto device 1
        return wrap(xp.array(self._data, dtype=dt.np, copy=True), dt)


def _from_cpu(xp: Any, t: Tensor, dtype: Any, device: Any) -> Tensor:
    index = None if device is None else Device(device).index
    with _guard(xp, index):
        return wrap(xp.array(np.asarray(t._data), dtype=dtype.np, copy=True), dtype)


def _copy_(xp: Any, self: Tensor, src: Tensor, non_blocking: bool = False) -> Tensor:
    if _is_cuda(self):
        value = src._data if _is_cuda(src) else xp.asarray(np.asarray(src._data))
        self._data[...] = xp.asarray(value).astype(self._dtype.np)
    else:
        np.copyto(self._data, _host(xp, src._data), casting="unsafe")
    return self


def _local_scalar_dense(xp: Any, self: Tensor) -> Any:
    from .._ops import ops

    return ops.aten._local_scalar_dense.default(wrap_cpu(_host(xp, self._data), self._dtype))


# -- everything else through the CPU ---------------------------------------------------------


def _cpu_fallback(xp: Any, op: Any, *args: Any, **kwargs: Any) -> Any:
    """PyTorch's cpu_fallback: inputs to the host, the CPU kernel, outputs (and written
    arguments) back to the device."""
    cuda_in: dict[int, Tensor] = {}

    def down(v: Any) -> Any:
        if _is_cuda(v):
            host = wrap_cpu(np.array(_host(xp, v._data)), v._dtype)
            cuda_in[id(host)] = v
            return host
        if isinstance(v, (list, tuple)):
            return type(v)(down(x) for x in v)
        if isinstance(v, Device) and v.type == "cuda":
            return Device("cpu")
        return v

    index = _device_index(args, kwargs)
    cargs = down(args)
    ckwargs = {k: down(v) for k, v in kwargs.items()}
    out = op(*cargs, **ckwargs)
    schema = op._schema
    if schema is not None:  # written arguments: copy the host result back into the device
        for i, a in enumerate(schema.arguments):
            if a.alias_info is not None and a.is_write:
                v = cargs[i] if i < len(cargs) else ckwargs.get(a.name)
                for host in _flat(v):
                    orig = cuda_in.get(id(host))
                    if orig is None:
                        continue
                    if orig._data.shape != host._data.shape:
                        # an out= argument the CPU kernel resized (as _copy_from_and_resize)
                        orig._data = xp.array(np.asarray(host._data))
                    else:
                        orig._data[...] = xp.asarray(host._data)

    def up(v: Any) -> Any:
        if isinstance(v, Tensor):
            orig = cuda_in.get(id(v))
            if orig is not None:
                return orig
            return wrap(xp.asarray(np.asarray(v._data)), v._dtype)
        if isinstance(v, (list, tuple)):
            return type(v)(up(x) for x in v)
        return v

    with _guard(xp, index):  # results land on the inputs' device
        return up(out)


def _not_compiled_copy(t: Tensor, dtype: Any, device: Any) -> Any:
    raise AssertionError(NOT_COMPILED)


def install_stub() -> None:
    """No GPU: copies to CUDA raise PyTorch's CPU-build error (factories raise it when they
    parse device=, _api/_args.py). Nothing is registered on the CUDA key, so the computed
    tables stay those of PyTorch's CPU build."""
    if _state["xp"] is None:
        COPY_FROM_CPU["cuda"] = _not_compiled_copy


def install(xp: Any) -> None:
    """Register the xp kernels and the CPU fallback on the CUDA key (replacing the stub)."""
    from .._ops import ops

    for lib in _state["libs"]:
        lib._destroy()
    _state["libs"].clear()
    lib = Library._internal("aten", "IMPL")
    fb = Library._internal("_", "IMPL")
    _state["libs"].extend([lib, fb])
    for name, kernel in shared_kernels.KERNELS.items():
        base, _, overload = name.partition(".")
        packet = getattr(ops.aten, base, None)
        op = getattr(packet, overload or "default", None) if packet is not None else None
        if op is not None:
            lib.impl(op, functools.partial(_adapter, name, kernel, xp, op), "CUDA")
    for name, fn in {
        "_to_copy": _to_copy,
        "copy_": _copy_,
        "_local_scalar_dense": _local_scalar_dense,
    }.items():
        lib.impl(getattr(ops.aten, name).default, functools.partial(fn, xp), "CUDA")
    fb.fallback(functools.partial(_cpu_fallback, xp), "CUDA")
    COPY_FROM_CPU["cuda"] = functools.partial(_from_cpu, xp)
    _state["xp"] = xp
    from ..tensor import _tensor

    # A cuda tensor reports the GPU its CuPy array lives on ("cuda:0"), as PyTorch's do.
    _tensor._DEVICE_BY_BACKEND[DEVICE_TYPES["cuda"]] = _ArrayDevice(Device("cuda", 0))


class _ArrayDevice(StorageDevice):
    """Tensor.device of a cuda tensor: `cuda:<id>` of the CuPy array's device (a NumPy array,
    the suite's stand-in, names none: cuda:0)."""

    __slots__ = ()

    def of(self, data: Any) -> Device:
        index = getattr(getattr(data, "device", None), "id", None)
        return self.default if index is None else Device("cuda", int(index))
