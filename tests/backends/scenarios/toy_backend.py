"""A backend with five kernels (allocation, copy, add) and the CPU fallback: the facts tests read.

Prints one JSON line; tests/backends/test_register_backend.py checks it."""

from __future__ import annotations

import io
import json
import warnings
from contextlib import redirect_stdout
from typing import Any

import numpy as np

import keyroute as torch
from keyroute.dispatcher import keys as _keys
from keyroute.dispatcher import register_backend
from keyroute.dispatcher.keyset import DispatchKeySet, keyset_repr
from keyroute.library import Library, cpu_fallback
from keyroute.tensor._tensor import make_tensor
from keyroute.tensor.subclass import keys_for_device

facts: dict[str, Any] = {}


def attempt(fn: Any) -> str:
    try:
        fn()
    except Exception as e:  # noqa: BLE001 - the scenario records any error's text
        return f"{type(e).__name__}: {e}"
    return "no error"


info = register_backend("toy")
facts["info"] = [
    info.name,
    info.index,
    info.key.name,
    info.autograd_key.name,
    info.autocast_key.name,
]
facts["values"] = [int(info.key), int(info.autograd_key), int(info.autocast_key)]
KEYS = keys_for_device(torch.device("toy"))
facts["tensor_keys"] = keyset_repr(KEYS)
ran: list[str] = []


def empty(size, dtype=None, layout=None, device=None, pin_memory=None, memory_format=None):
    ran.append("empty")
    dtype = dtype or torch.get_default_dtype()
    return make_tensor(np.empty(tuple(size), dtype=dtype.np), dtype, KEYS)


def empty_strided(size, stride, dtype=None, layout=None, device=None, pin_memory=None):
    ran.append("empty_strided")
    return empty(size, dtype)


def copy_(self, src, non_blocking=False):
    ran.append("copy_")
    np.copyto(self._data, np.asarray(src._data), casting="unsafe")
    return self


def add(a, b, *, alpha=1):
    ran.append("add")
    other = b._data if isinstance(b, torch.Tensor) else b
    return make_tensor(np.add(a._data, other * alpha), a.dtype, KEYS)


lib = Library("aten", "IMPL")
lib.impl("empty.memory_format", empty, "Toy")
lib.impl("empty_strided", empty_strided, "Toy")
lib.impl("copy_", copy_, "Toy")
lib.impl("add.Tensor", add, "Toy")
fallback = Library("_", "IMPL")
fallback.fallback(cpu_fallback, "Toy")

facts["device_strings"] = [str(torch.device("toy:0")), repr(torch.device("toy", 0))]
with warnings.catch_warnings(record=True) as caught:
    warnings.simplefilter("always")
    x = torch.ones(2, 3, device="toy", requires_grad=True)
    facts["factory_device"] = str(x.device)
    y = (x + x) * x
    loss = y.sum()
    loss.backward()
    facts["loss"] = [loss.item(), str(loss.device)]
    facts["grad"] = [x.grad.tolist(), str(x.grad.device)]
    facts["matmul"] = (x @ x.t()).tolist()
    z = torch.zeros(3, device="toy")
    same = z.add_(2)
    z.mul_(3)
    facts["inplace"] = [z.tolist(), same is z, str(z.device)]
    out = torch.empty(0, device="toy")
    torch.mul(torch.ones(4, device="toy"), 5, out=out)
    facts["out"] = [out.tolist(), str(out.device)]
    back = torch.arange(6.0).reshape(2, 3).to("toy")
    facts["to_roundtrip"] = [str(back.device), back.to("cpu").tolist(), str(back.to("cpu").device)]
    facts["mixed"] = (torch.ones(2, device="toy") * torch.tensor(3.0)).tolist()
    for _ in range(3):
        torch.ones(2, device="toy").exp()
facts["warnings"] = [str(w.message) for w in caught]
facts["own_kernels"] = sorted(set(ran))
facts["dump_table_toy"] = [
    line for line in torch._C._dispatch_dump_table("aten::add.Tensor").splitlines() if "Toy" in line
]
facts["to_copy_toy"] = [
    line.split(":")[0] + ":" + line.rsplit("[", 1)[1]
    for line in torch._C._dispatch_dump_table("aten::_to_copy").splitlines()
    if line.startswith("Toy:")
]
facts["highest_with_meta"] = (
    (DispatchKeySet(info.key) | DispatchKeySet(torch._C.DispatchKey.Meta))
    .highestPriorityTypeId()
    .name
)
facts["keyset_repr_two_backends"] = repr(
    DispatchKeySet(info.autograd_key) | DispatchKeySet(torch._C.DispatchKey.CPU)
)
facts["parse"] = [
    torch._C._dispatch_key_parse("AutogradToy").name,
    torch._C._dispatch_key_name(info.key),
]

# Autocast knows the device type; its key is a fallthrough until kernels are registered on it.
with torch.autocast("toy"):
    enabled = [torch.is_autocast_enabled("toy"), str(torch.get_autocast_dtype("toy"))]
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        enabled.append(str((torch.ones(2, device="toy") + 1).dtype))
facts["autocast"] = [*enabled, torch.is_autocast_enabled("toy")]
# torch.compile on toy tensors (ndarrays inside): the results stay on the device.
with warnings.catch_warnings():
    warnings.simplefilter("ignore")
    compiled = torch.compile(lambda a: a * 2 + 1, backend="inductor")(torch.ones(3, device="toy"))
    facts["compiled"] = [str(compiled.device), compiled.tolist()]
# The toy backend's data is a bare ndarray, which names no device: its tensors report index 0.
with warnings.catch_warnings():
    warnings.simplefilter("ignore")
    facts["bare_data_index"] = str(torch.ones(1, device="toy:1").device)

# Bad input: a clear error and nothing changed.
before = (list(_keys.EXT_BACKENDS), len(_keys.TABLE_KEYS), dict(_keys.EXT_NAMES))
facts["errors"] = [
    attempt(lambda: register_backend("toy")),
    attempt(lambda: register_backend("cpu")),
    attempt(lambda: register_backend("Bad-Name")),
    attempt(lambda: register_backend("mkldnn")),
]
facts["unchanged"] = before == (
    list(_keys.EXT_BACKENDS),
    len(_keys.TABLE_KEYS),
    dict(_keys.EXT_NAMES),
)

# A second backend, and the device error of an unknown type.
second = register_backend("toy2")
facts["second"] = [second.index, second.key.name]
facts["unknown_device"] = attempt(lambda: torch.device("toy3"))

# Device indices: a backend whose allocation records its device= argument in the data
# (`__keyroute_device__`, as PyTorch's allocator puts the device in the DataPtr).
idx = register_backend("idx")
IDX_KEYS = keys_for_device(torch.device("idx"))


class IdxArray(np.ndarray):
    def __array_finalize__(self, obj: Any) -> None:  # results of NumPy calls keep the device
        self.__keyroute_device__ = getattr(obj, "__keyroute_device__", None)


def idx_empty(size, dtype=None, layout=None, device=None, pin_memory=None, memory_format=None):
    dtype = dtype or torch.get_default_dtype()
    data = np.empty(tuple(size), dtype=dtype.np).view(IdxArray)
    where = torch.device(device)  # no index: the current device (0 here), as an allocator does
    data.__keyroute_device__ = where if where.index is not None else torch.device(where.type, 0)
    return make_tensor(data, dtype, IDX_KEYS)


def idx_copy_(self, src, non_blocking=False):
    np.copyto(self._data, np.asarray(src._data), casting="unsafe")
    return self


idx_lib = Library("aten", "IMPL")
idx_lib.impl("empty.memory_format", idx_empty, "Idx")
idx_lib.impl("copy_", idx_copy_, "Idx")
idx_fallback = Library("_", "IMPL")
idx_fallback.fallback(cpu_fallback, "Idx")
with warnings.catch_warnings():
    warnings.simplefilter("ignore")
    one = torch.ones(2, device="idx:1")
    moved = torch.arange(3.0).to("idx:2")
    facts["device_index"] = [
        str(one.device),
        repr(one.device),
        str((one * 2).device),  # the CPU fallback brings results to the input's device
        str(moved.device),
        str(moved.to("idx:3").device),
        str(torch.ones(1, device="idx").device),
        str(moved.to("cpu").device),
    ]

buf = io.StringIO()
with redirect_stdout(buf):
    from keyroute.cli import main

    main(["keys"])
facts["cli_keys"] = [line.split()[1] for line in buf.getvalue().splitlines()[1:] if "Toy" in line]
print(json.dumps(facts))
