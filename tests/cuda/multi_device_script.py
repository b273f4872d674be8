"""Run by test_backend_on_numpy.py in a fresh process: the CUDA backend on a NumPy array module
that pretends to have two GPUs, so the device guard and `__cuda_array_interface__` input run
without one.

The fake module allocates every new array on its "current device" (a `cuda.Device(i)` context
switches it, as CuPy's does) and a view stays on its base's device; keyroute reads a tensor's
device from its array's `.device.id`, as from a CuPy array. Without the guard, `x + x` of a
tensor on cuda:1 would compute on the current device, cuda:0."""

from __future__ import annotations

import types

import numpy as np

import keyroute as torch
from keyroute.cuda import _gpu
from keyroute.cuda.backend import install


class _Runtime:
    current = 0


class DeviceArray(np.ndarray):
    def __array_finalize__(self, obj: object) -> None:
        base_dev = getattr(obj, "_dev", None)
        self._dev = _Runtime.current if base_dev is None else base_dev

    @property
    def device(self) -> types.SimpleNamespace:
        return types.SimpleNamespace(id=self._dev)


def _on_current(a: object) -> DeviceArray:
    a = np.asanyarray(a)
    if isinstance(a, DeviceArray):
        return a
    out = a.view(DeviceArray)
    out._dev = _Runtime.current
    return out


class _Device:
    def __init__(self, index: int) -> None:
        self.index = index

    def __enter__(self) -> None:
        self.saved, _Runtime.current = _Runtime.current, self.index

    def __exit__(self, *exc: object) -> None:
        _Runtime.current = self.saved


class FakeCuPy(types.ModuleType):
    """NumPy, plus a device per array and `cuda.Device`; `asarray` reads
    `__cuda_array_interface__` objects made by `Producer` below."""

    cuda = types.SimpleNamespace(Device=_Device)

    @staticmethod
    def asnumpy(a: object) -> np.ndarray:
        return np.asarray(a).view(np.ndarray)

    @staticmethod
    def get_default_memory_pool() -> types.SimpleNamespace:
        return types.SimpleNamespace(used_bytes=lambda: 0)

    def __getattr__(self, name: str) -> object:
        return getattr(np, name)

    @staticmethod
    def array(a: object, dtype: object = None, copy: bool = True) -> DeviceArray:
        return _on_current(np.array(np.asarray(a), dtype=dtype, copy=True))

    @staticmethod
    def asarray(a: object, dtype: object = None) -> DeviceArray:
        if isinstance(a, Producer):
            return a.array
        return _on_current(np.asarray(a, dtype=dtype) if dtype is not None else a)


class Producer:
    """Another library's GPU array (as a Numba or JAX device array): only the interface."""

    def __init__(self, array: DeviceArray) -> None:
        self.array = array

    @property
    def __cuda_array_interface__(self) -> dict:
        a = self.array
        return {
            "shape": a.shape,
            "typestr": a.dtype.str,
            "data": (a.ctypes.data, False),
            "version": 3,
        }


def main() -> None:
    xp = FakeCuPy("fake_cupy")
    install(xp)
    a = torch.arange(6.0).reshape(2, 3)
    x = a.to("cuda:1")
    assert x.device == torch.device("cuda", 1), x.device
    assert _Runtime.current == 0  # the guard restored the current device
    assert (x + x).device == torch.device("cuda", 1)  # an xp kernel, under the guard
    assert (x @ x.t()).device == torch.device("cuda", 1)
    assert x.cumsum(1).device == torch.device("cuda", 1)  # the CPU fallback's results
    assert x[1:].device == torch.device("cuda", 1)  # a view keeps its base's device
    assert torch.zeros(2, device="cuda:1").device == torch.device("cuda", 1)  # a factory
    assert torch.zeros(2, device="cuda").device == torch.device("cuda", 0)
    assert x.to("cuda").device == torch.device("cuda", 1)  # "cuda" is x's own device
    assert x.to("cuda:0").device == torch.device("cuda", 0)  # a copy across devices
    np.testing.assert_array_equal((x + x).cpu().numpy(), (a + a).numpy())

    # __cuda_array_interface__ in: as_tensor / asarray share the memory, tensor copies
    _gpu._probe[:] = [xp]  # what cupy_or_none() returns once CuPy found a GPU
    with _Device(1):
        backing = xp.array(np.arange(4, dtype=np.float32))
    p = Producer(backing)
    shared, copied, arr = torch.as_tensor(p), torch.tensor(p), torch.asarray(p)
    assert shared.device == torch.device("cuda", 1) and shared.dtype == torch.float32
    backing[0] = 7.0
    assert shared.cpu().tolist() == [7.0, 1.0, 2.0, 3.0] and arr.cpu().tolist()[0] == 7.0
    assert copied.cpu().tolist() == [0.0, 1.0, 2.0, 3.0]
    assert torch.as_tensor(p, dtype=torch.float64).dtype == torch.float64
    print("ok")


if __name__ == "__main__":
    main()
