"""PyTorch's PrivateUse1 route, observed the same way on keyroute and on PyTorch.

`python privateuse1.py keyroute` (or `torch`, which tools/record_privateuse1.py runs) prints one
JSON line of observations. Only the API is observed here (PyTorch's CPU build has no PrivateUse1
kernels); keyroute's tensors on the renamed backend are checked in the keyroute-only part."""

from __future__ import annotations

import importlib
import json
import sys
import types
from typing import Any


def attempt(fn: Any) -> str:
    try:
        out = fn()
    except Exception as e:  # noqa: BLE001 - an observation records any error's text
        return f"{type(e).__name__}: {e}".replace("keyroute", "torch")
    return f"ok: {out}"


def observe(torch: Any) -> dict[str, Any]:
    seen: dict[str, Any] = {}
    seen["name_before"] = torch._C._get_privateuse1_backend_name()
    seen["device_before"] = attempt(lambda: torch.device("npu"))
    seen["rename_in_tree"] = attempt(lambda: torch.utils.rename_privateuse1_backend("cuda"))
    torch.utils.rename_privateuse1_backend("npu")
    seen["name_after"] = torch._C._get_privateuse1_backend_name()
    seen["devices"] = [
        str(torch.device("npu:0")),
        repr(torch.device("npu", 1)),
        str(torch.device("privateuseone")),
        str(torch.device("privateuseone:1")),
        torch.device("npu:0") == torch.device("privateuseone:0"),
    ]
    seen["rename_again_same"] = attempt(lambda: torch.utils.rename_privateuse1_backend("npu"))
    seen["rename_again_other"] = attempt(lambda: torch.utils.rename_privateuse1_backend("foo"))
    seen["before_methods"] = [hasattr(torch.Tensor, "npu"), hasattr(torch.nn.Module, "npu")]
    torch.utils.generate_methods_for_privateuse1_backend()
    rnn = torch.nn.utils.rnn
    seen["methods"] = [
        hasattr(torch.Tensor, "npu"),
        hasattr(torch.Tensor, "is_npu"),
        hasattr(torch.nn.Module, "npu"),
        hasattr(rnn.PackedSequence, "npu"),
        hasattr(rnn.PackedSequence, "is_npu"),
        hasattr(torch.storage.TypedStorage, "npu"),  # for_storage=False by default
        torch.Tensor.npu.__name__,
    ]
    seen["cpu_is_npu"] = torch.ones(2).is_npu
    seen["generate_twice"] = attempt(torch.utils.generate_methods_for_privateuse1_backend)
    seen["wrong_device"] = attempt(lambda: torch.ones(2).npu("cpu"))
    module = types.ModuleType("npu_runtime")
    module.current_device = lambda: 0
    torch._register_device_module("npu", module)
    seen["module"] = [torch.npu is module, sys.modules[torch.__name__ + ".npu"] is module]
    again = attempt(lambda: torch._register_device_module("npu", module))
    seen["module_twice"] = again.split(" with ")[0]
    return seen


def keyroute_only(torch: Any) -> dict[str, Any]:
    """The renamed backend running: kernels on PrivateUse1 plus the CPU fallback."""
    import warnings

    import numpy as np

    from keyroute.library import Library, cpu_fallback
    from keyroute.tensor._tensor import make_tensor
    from keyroute.tensor.subclass import keys_for_device

    keys = keys_for_device(torch.device("npu"))

    def empty(size, dtype=None, layout=None, device=None, pin_memory=None, memory_format=None):
        dtype = dtype or torch.get_default_dtype()
        return make_tensor(np.empty(tuple(size), dtype=dtype.np), dtype, keys)

    def copy_(self, src, non_blocking=False):
        np.copyto(self._data, np.asarray(src._data), casting="unsafe")
        return self

    lib = Library("aten", "IMPL")
    lib.impl("empty.memory_format", empty, "PrivateUse1")
    lib.impl("copy_", copy_, "PrivateUse1")
    fallback = Library("_", "IMPL")
    fallback.fallback(cpu_fallback, "PrivateUse1")
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        a = torch.tensor([1.0, 2.0]).npu()
        m = torch.nn.Linear(2, 1).npu()
        out = m(a)
        return {
            "tensor": [str(a.device), a.is_npu, (a * 2).tolist()],
            "factory": str(torch.ones(2, device="npu").device),
            "module": [str(m.weight.device), str(out.device)],
            "back": [str(a.to("cpu").device), a.cpu().tolist()],
        }


def main() -> None:
    which = sys.argv[1] if len(sys.argv) > 1 else "keyroute"
    torch = importlib.import_module(which)
    seen = observe(torch)
    if which == "keyroute":
        seen["running"] = keyroute_only(torch)
    print(json.dumps(seen))


if __name__ == "__main__":
    main()
