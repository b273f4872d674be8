"""A new backend in one file: "privateuseone", NumPy-backed, with a CPU fallback.

A backend is a set of kernels on its dispatch key. This one registers a handful of its own on
PrivateUse1 (allocation, add, mul) and a boxed fallback for everything else that moves the
arguments to CPU, runs the operator there and moves the results back (PyTorch's cpu_fallback
pattern), so the whole operator set, autograd included, runs on the new device from day one.
Replace fallback operators with real kernels one at a time.

    python examples/new_backend.py
"""

from __future__ import annotations

from typing import Any

import numpy as np

import keyroute as torch
from keyroute.library import Library
from keyroute.tensor._tensor import CPU_KEYS, Tensor, make_tensor
from keyroute.tensor.subclass import keys_for_device

DEVICE = torch.device("privateuseone")
KEYS = keys_for_device(DEVICE)  # PrivateUse1, AutogradPrivateUse1, ADInplaceOrView
lib = Library("aten", "IMPL")
kernels_run: list[str] = []


def on_device(data: np.ndarray, dtype: Any) -> Tensor:
    return make_tensor(data, dtype, KEYS)


# -- the backend's own kernels ----------------------------------------------------------------


def empty(size: Any, dtype: Any = None, layout: Any = None, device: Any = None, **_: Any) -> Tensor:
    dtype = dtype or torch.get_default_dtype()
    kernels_run.append("empty")
    return on_device(np.empty(tuple(size), dtype=dtype.np), dtype)


def add(a: Tensor, b: Tensor, *, alpha: Any = 1) -> Tensor:
    kernels_run.append("add")
    return on_device(np.add(a._data, b._data * alpha), torch.promote_types(a.dtype, b.dtype))


def mul(a: Tensor, b: Tensor) -> Tensor:
    kernels_run.append("mul")
    return on_device(np.multiply(a._data, b._data), torch.promote_types(a.dtype, b.dtype))


lib.impl("empty.memory_format", empty, "PrivateUse1")
lib.impl("add.Tensor", add, "PrivateUse1")
lib.impl("mul.Tensor", mul, "PrivateUse1")


# -- everything else: through CPU ------------------------------------------------------------


def _to_cpu(v: Any) -> Any:
    if isinstance(v, Tensor) and v.device == DEVICE:
        return make_tensor(v._data, v._dtype, CPU_KEYS)  # the same memory, seen as CPU
    if isinstance(v, (list, tuple)):
        return type(v)(_to_cpu(x) for x in v)
    if isinstance(v, torch.device) and v == DEVICE:
        return torch.device("cpu")
    return v


def _back(v: Any, inputs: dict[int, Tensor]) -> Any:
    if isinstance(v, Tensor):
        # An in-place op returns its argument: hand back the caller's tensor, not a new one.
        same = inputs.get(id(v._data))
        return same if same is not None else on_device(v._data, v._dtype)
    if isinstance(v, (list, tuple)):
        return type(v)(_back(x, inputs) for x in v)
    return v


def cpu_fallback(op: Any, *args: Any, **kwargs: Any) -> Any:
    inputs = {id(a._data): a for a in args if isinstance(a, Tensor) and a.device == DEVICE}
    out = op(*_to_cpu(args), **{k: _to_cpu(v) for k, v in kwargs.items()})
    return _back(out, inputs)


# Keep the library: a dropped Library is collected and its registrations go with it (PyTorch's
# rule too).
fallback_lib = Library("_", "IMPL")
fallback_lib.fallback(cpu_fallback, "PrivateUse1")


if __name__ == "__main__":
    x = torch.ones(2, 3, device=DEVICE, requires_grad=True)
    y = (x + x) * x
    loss = y.sum()
    loss.backward()
    print("device:", y.device, "| loss:", loss.item())
    print("grad:", x.grad.tolist(), x.grad.device)
    print("matmul through the fallback:", (x @ x.t()).tolist())
    print("own kernels run:", sorted(set(kernels_run)))
