"""A new backend in one file: "toy", NumPy-backed, five kernels and the CPU fallback.

`register_backend("toy")` gives the backend its own component beyond PyTorch's PrivateUse1-3:
device strings "toy" / "toy:0", the runtime keys Toy / AutogradToy / AutocastToy, factories with
`device="toy"` and `.to("toy")`. The backend writes kernels only (meta functions, autograd and
the composite operators are shared): here allocation, copy and add/mul of its own, and
`cpu_fallback` for everything else, which copies the arguments to CPU, runs the CPU kernel and
copies the results back (PyTorch's at::native::cpu_fallback), so the whole operator set,
autograd included, runs on the new device from day one. Replace fallback operators with real
kernels one at a time. docs/new-backend.md walks through it.

    python examples/new_backend.py
"""

from __future__ import annotations

import warnings
from typing import Any

import numpy as np

import keyroute as torch
from keyroute.dispatcher import register_backend
from keyroute.library import Library, cpu_fallback
from keyroute.tensor._tensor import Tensor, make_tensor
from keyroute.tensor.subclass import keys_for_device

TOY = register_backend("toy")  # keys Toy, AutogradToy, AutocastToy; device type "toy"
KEYS = keys_for_device(torch.device("toy"))  # the key set of a toy tensor
kernels_run: list[str] = []


def on_device(data: np.ndarray, dtype: Any) -> Tensor:
    return make_tensor(data, dtype, KEYS)


# -- the backend's own kernels ----------------------------------------------------------------


def empty(size: Any, dtype: Any = None, layout: Any = None, device: Any = None, **_: Any) -> Tensor:
    dtype = dtype or torch.get_default_dtype()
    kernels_run.append("empty")
    return on_device(np.empty(tuple(size), dtype=dtype.np), dtype)


def empty_strided(size: Any, stride: Any, dtype: Any = None, **_: Any) -> Tensor:
    return empty(size, dtype)


def copy_(self: Tensor, src: Tensor, non_blocking: bool = False) -> Tensor:
    # Both directions: cpu -> toy (.to("toy")) and toy -> cpu (.to("cpu"), the fallback).
    kernels_run.append("copy_")
    np.copyto(self._data, np.asarray(src._data), casting="unsafe")
    return self


def add(a: Tensor, b: Any, *, alpha: Any = 1) -> Tensor:
    kernels_run.append("add")
    other = b._data if isinstance(b, Tensor) else b
    return on_device(np.add(a._data, other * alpha), torch.promote_types(a.dtype, b.dtype))


def mul(a: Tensor, b: Any) -> Tensor:
    kernels_run.append("mul")
    other = b._data if isinstance(b, Tensor) else b
    return on_device(np.multiply(a._data, other), torch.promote_types(a.dtype, b.dtype))


lib = Library("aten", "IMPL")
lib.impl("empty.memory_format", empty, TOY.key.name)
lib.impl("empty_strided", empty_strided, TOY.key.name)
lib.impl("copy_", copy_, TOY.key.name)
lib.impl("add.Tensor", add, TOY.key.name)
lib.impl("mul.Tensor", mul, TOY.key.name)

# -- everything else: through CPU (keep the library: a dropped Library takes its registrations
# with it, PyTorch's rule too) -----------------------------------------------------------------
fallback_lib = Library("_", "IMPL")
fallback_lib.fallback(cpu_fallback, TOY.key.name)


if __name__ == "__main__":
    warnings.simplefilter("ignore")  # the fallback warns once per operator it runs on CPU
    x = torch.ones(2, 3, device="toy", requires_grad=True)
    y = (x + x) * x
    loss = y.sum()
    loss.backward()
    print("device:", y.device, "| loss:", loss.item())
    print("grad:", x.grad.tolist(), x.grad.device)
    print("matmul through the fallback:", (x @ x.t()).tolist())
    print("round trip:", torch.arange(3.0).to("toy").to("cpu").tolist())
    print("own kernels run:", sorted(set(kernels_run)))
