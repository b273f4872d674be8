"""CUDA memory in and out of keyroute: DLPack and `__cuda_array_interface__` both ways, and
the Tensor methods around CUDA and pinned memory (cuda, pin_memory, is_pinned).

Out: a CUDA tensor's `__dlpack__` / `__dlpack_device__` (tensor/_tensor.py) and
`__cuda_array_interface__` are its CuPy array's, so CuPy, Numba or JAX read it in place.
In: `keyroute.from_dlpack(obj)` on a kDLCUDA producer and `keyroute.cuda.as_tensor(obj)` on
any object with `__cuda_array_interface__` view its memory as a CUDA tensor.
"""

from __future__ import annotations

from typing import Any

from ..tensor._tensor import Tensor

__all__ = ["from_cuda_dlpack", "as_tensor", "from_cuda_array_interface"]

_NO_ACCELERATOR = "Cannot access accelerator device when none is available."


def _lazy_init() -> Any:
    from ._gpu import cupy_or_none
    from .backend import NOT_COMPILED

    cp = cupy_or_none()
    if cp is None:
        raise AssertionError(NOT_COMPILED)
    return cp


def from_cuda_dlpack(ext: Any) -> Tensor:
    from .backend import wrap

    cp = _lazy_init()
    return wrap(cp.from_dlpack(ext))


def as_tensor(obj: Any) -> Tensor:
    """A CUDA tensor viewing the memory of an object with `__cuda_array_interface__`."""
    from .backend import wrap

    cp = _lazy_init()
    if not hasattr(obj, "__cuda_array_interface__"):
        raise TypeError(
            f"expected an object with __cuda_array_interface__, got {type(obj).__name__}"
        )
    return wrap(cp.asarray(obj))


def from_cuda_array_interface(
    obj: Any, dtype: Any = None, device: Any = None, copy: bool = False
) -> Tensor:
    """PyTorch's tensor_from_cuda_array_interface, which `torch.as_tensor`, `torch.tensor` and
    `torch.asarray` call for an object with `__cuda_array_interface__`: a CUDA tensor viewing
    its memory, then moved to `dtype` / `device` (a copy only where needed, or with `copy`)."""
    from ._gpu import cupy_or_none
    from .backend import wrap

    cp = cupy_or_none()
    if cp is None:  # PyTorch's CPU build fails here asking for the current CUDA device
        raise RuntimeError("Backend doesn't support getCurrentDevice()")
    src = wrap(cp.asarray(obj))
    return src.to(device=device or src.device, dtype=dtype or src._dtype, copy=copy)


def _cuda_array_interface(self: Tensor) -> Any:
    data = self._data
    if not type(data).__module__.startswith("cupy"):
        raise AttributeError(
            f"Can't get __cuda_array_interface__ on non-CUDA tensor type: {self.type()} If CUDA "
            "data is required use tensor.cuda() to copy tensor to device memory."
        )
    if self.requires_grad:
        raise RuntimeError(
            "Can't get __cuda_array_interface__ on Variable that requires grad. If gradients "
            "aren't required, use var.detach() to get Variable that doesn't require grad."
        )
    return data.__cuda_array_interface__


def _cuda(self: Tensor, device: Any = None, non_blocking: bool = False, **_: Any) -> Tensor:
    if device is None:
        target = "cuda"
    elif isinstance(device, int):
        target = f"cuda:{device}"
    else:
        target = device
    return self.to(target, non_blocking=non_blocking)


def _is_pinned(self: Tensor, device: Any = None) -> bool:
    return bool(self.__dict__.get("_pinned", False))


def _pin_memory(self: Tensor, device: Any = None) -> Tensor:
    from ._gpu import cupy_or_none

    cp = cupy_or_none()
    if cp is None:
        raise RuntimeError(_NO_ACCELERATOR)
    if _is_pinned(self):
        return self
    import cupyx  # type: ignore[import-not-found]

    from ..tensor._tensor import wrap_cpu

    buf = cupyx.empty_pinned(self.shape, dtype=self._dtype.np)  # page-locked host memory
    buf[...] = self.detach().numpy()
    out = wrap_cpu(buf, self._dtype)
    out.__dict__["_pinned"] = True
    return out


def install_methods() -> None:
    Tensor.__cuda_array_interface__ = property(_cuda_array_interface)  # type: ignore[attr-defined]
    Tensor.cuda = _cuda  # type: ignore[attr-defined]
    Tensor.is_pinned = _is_pinned  # type: ignore[attr-defined]
    Tensor.pin_memory = _pin_memory  # type: ignore[attr-defined]
