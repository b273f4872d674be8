"""Record PyTorch's FakeTensorMode behaviour for keyroute's fake-tensor tests.

    python tools/record_fake.py

Writes tests/data/fake_cases.json: each case is a small program run with `M = torch` and
`FakeTensorMode` = torch._subclasses.fake_tensor.FakeTensorMode; it leaves its answer in
`result` (or raises). Tests run the same programs with keyroute through `run_case` below, which
imports no torch, so both sides are encoded identically. Strings are recorded with "torch."
spelled "keyroute." and object addresses removed. Needs torch==2.13.0.
"""

# ruff: noqa: E501  (the case table: one program per line reads best)
from __future__ import annotations

import json
import os
import re
import sys
import warnings
from typing import Any

sys.path.insert(0, os.path.join(os.path.dirname(__file__), ".."))

OUT = os.path.join(os.path.dirname(__file__), "..", "tests", "data", "fake_cases.json")

# ----------------------------------------------------------------------------- cases
# id -> program. `msg: "prefix"` cases compare keyroute's message by PyTorch's as a prefix
# (keyroute adds why after PyTorch's words, which name only the operator).
_SETUP = "m = FakeTensorMode()\n"

CASES: list[dict[str, Any]] = [
    # factories and metadata
    {"id": "empty-cpu", "code": "with m:\n    result = M.empty(3, 4)"},
    {"id": "empty-cuda", "code": "with m:\n    result = M.empty(3, 4, device='cuda:0')"},
    {"id": "empty-cuda1", "code": "with m:\n    result = M.empty(2, device='cuda:1')"},
    {"id": "empty-meta", "code": "with m:\n    result = M.empty(2, device='meta')"},
    {"id": "zeros-bf16", "code": "with m:\n    result = M.zeros(2, 3, dtype=M.bfloat16)"},
    {"id": "randn-cuda", "code": "with m:\n    result = M.randn(2, 3, device='cuda')"},
    {"id": "arange", "code": "with m:\n    result = M.arange(5)"},
    {"id": "full", "code": "with m:\n    result = M.full((2,), 3.0)"},
    {"id": "tensor-list", "code": "with m:\n    result = M.tensor([1.0, 2.0, 3.0])"},
    {
        "id": "default-device-meta",
        "code": "with M.device('meta'):\n    with m:\n        result = M.empty(2)",
    },
    {
        "id": "device-props",
        "code": "with m:\n    c = M.empty(2, device='cuda')\n    x = M.empty(2)\n"
        "result = [c.is_cuda, c.is_cpu, c.is_meta, x.is_cpu, x.is_cuda, str(c.device)]",
    },
    {"id": "type-name", "code": "with m:\n    result = type(M.empty(2)).__name__"},
    {
        "id": "dispatch-keys-cpu",
        "code": "with m:\n    x = M.empty(2)\nresult = str(M._C._dispatch_keys(x))",
    },
    {
        "id": "numel-storage",
        "code": "with m:\n    x = M.empty(3, 4)\n    result = [x.numel(), x.element_size(), x.dim()]",
    },
    {"id": "repr-cpu", "code": "with m:\n    result = repr(M.empty(3, 4))"},
    {"id": "repr-cuda", "code": "with m:\n    result = repr(M.empty(3, 4, device='cuda:0'))"},
    {
        "id": "repr-bf16-grad",
        "code": "with m:\n    result = repr(M.empty(2, dtype=M.bfloat16, device='cuda', requires_grad=True))",
    },
    {"id": "repr-meta", "code": "with m:\n    result = repr(M.empty(2, device='meta'))"},
    {"id": "repr-int64", "code": "with m:\n    result = repr(M.empty(2, dtype=M.int64))"},
    {"id": "repr-outside", "code": "f = m.from_tensor(M.ones(3, 4))\nresult = str(f)"},
    # operators
    {"id": "add", "code": "with m:\n    x = M.empty(3, 4)\n    result = x + x"},
    {"id": "add-cuda", "code": "with m:\n    x = M.empty(3, 4, device='cuda')\n    result = x + 1"},
    {
        "id": "matmul-silu",
        "code": "with m:\n    x = M.empty(4, 128, 64)\n    result = M.nn.functional.silu(x @ M.empty(64, 96))",
    },
    {
        "id": "rmsnorm",
        "code": "with m:\n    x = M.empty(2, 16, device='cuda')\n    w = M.ones(16, device='cuda')\n"
        "    result = x * M.rsqrt(x.pow(2).mean(-1, keepdim=True) + 1e-6) * w",
    },
    {"id": "sum-int", "code": "with m:\n    result = M.empty(3, dtype=M.int32).sum()"},
    {"id": "transpose-strides", "code": "with m:\n    result = M.empty(3, 4).t()"},
    {"id": "contiguous", "code": "with m:\n    result = M.empty(3, 4).t().contiguous()"},
    {"id": "expand", "code": "with m:\n    result = M.empty(3, 1).expand(3, 5)"},
    {"id": "slice-offset", "code": "with m:\n    result = M.empty(6, 4)[2:, 1:]"},
    {
        "id": "view-base",
        "code": "with m:\n    x = M.empty(3, 4)\n    v = x.view(12)\n    result = [v._base is x, v.shape]",
    },
    {
        "id": "inplace-self",
        "code": "with m:\n    x = M.empty(3, 4)\n    y = x.add_(1)\n    result = [y is x, x._version]",
    },
    {"id": "cat", "code": "with m:\n    result = M.cat([M.empty(2, 3), M.empty(4, 3)])"},
    {
        "id": "stack-cuda",
        "code": "with m:\n    result = M.stack([M.empty(2, device='cuda'), M.empty(2, device='cuda')])",
    },
    {"id": "sort", "code": "with m:\n    result = list(M.sort(M.empty(3, 4)))"},
    {"id": "max-dim", "code": "with m:\n    result = list(M.max(M.empty(3, 4), 1))"},
    {
        "id": "softmax",
        "code": "with m:\n    result = M.softmax(M.empty(3, 4, dtype=M.float64), -1)",
    },
    {
        "id": "layer-norm",
        "code": "with m:\n    result = M.nn.functional.layer_norm(M.empty(2, 5, 8), (8,))",
    },
    {
        "id": "linear",
        "code": "with m:\n    result = M.nn.functional.linear(M.empty(2, 8), M.empty(3, 8), M.empty(3))",
    },
    {
        "id": "embedding",
        "code": "with m:\n    result = M.nn.functional.embedding(M.empty(2, 5, dtype=M.int64), M.empty(10, 4))",
    },
    {
        "id": "sdpa",
        "code": "with m:\n    q = M.empty(1, 4, 16, 8, device='cuda')\n"
        "    result = M.nn.functional.scaled_dot_product_attention(q, q, q, is_causal=True)",
    },
    {
        "id": "conv2d",
        "code": "with m:\n    result = M.nn.functional.conv2d(M.empty(1, 3, 16, 16), M.empty(8, 3, 3, 3), padding=1)",
    },
    {
        "id": "index-tensor",
        "code": "with m:\n    x = M.empty(5, 3)\n    result = x[M.tensor([0, 2])]",
    },
    {
        "id": "masked-fill",
        "code": "with m:\n    x = M.empty(3, 4)\n    result = x.masked_fill(x > 0, 1.0)",
    },
    {"id": "where", "code": "with m:\n    x = M.empty(3, 4)\n    result = M.where(x > 0, x, 0.0)"},
    {"id": "to-dtype", "code": "with m:\n    result = M.empty(3, device='cuda').to(M.float16)"},
    {"id": "to-cuda", "code": "with m:\n    result = M.empty(3).to('cuda:0')"},
    {"id": "to-meta", "code": "with m:\n    result = M.empty(3).to('meta')"},
    {"id": "cuda-cpu", "code": "with m:\n    result = M.empty(3, device='cuda').cpu()"},
    {
        "id": "zeros-like-cuda",
        "code": "with m:\n    result = M.zeros_like(M.empty(2, device='cuda'))",
    },
    {
        "id": "setitem-bool",
        "code": "with m:\n    x = M.empty(3, 4)\n    x[x > 0] = 1.0\n    result = x",
    },
    {
        "id": "nonzero-static",
        "code": "with m:\n    result = M.nonzero_static(M.empty(3, 4), size=4)",
    },
    {
        "id": "module-in-mode",
        "code": "with m:\n    lin = M.nn.Linear(4, 5)\n    y = lin(M.empty(2, 4))\n"
        "result = [type(lin.weight).__name__, isinstance(lin.weight, M.nn.Parameter), y]",
    },
    {
        "id": "backward",
        "code": "with m:\n    y = M.empty(3, requires_grad=True)\n    (y * 2).sum().backward()\n"
        "    result = y.grad",
    },
    {
        "id": "requires-grad-output",
        "code": "with m:\n    y = M.empty(3, requires_grad=True)\n    z = y * 2\n"
        "result = [z.requires_grad, type(z.grad_fn).__name__]",
    },
    # devices
    {"id": "dev-cpu-cuda", "code": "with m:\n    result = M.empty(3) + M.empty(3, device='cuda')"},
    {"id": "dev-cuda-cpu", "code": "with m:\n    result = M.empty(3, device='cuda') + M.empty(3)"},
    {
        "id": "dev-cuda-cpu-scalar",
        "code": "with m:\n    result = M.empty(3, device='cuda') + M.tensor(2.0)",
    },
    {
        "id": "dev-cpu-scalar-cuda",
        "code": "with m:\n    result = M.tensor(2.0) + M.empty(3, device='cuda')",
    },
    {
        "id": "dev-cuda-scalar-cpu",
        "code": "with m:\n    result = M.empty((), device='cuda') + M.empty(3)",
    },
    {
        "id": "dev-cat",
        "code": "with m:\n    result = M.cat([M.empty(3), M.empty(3, device='cuda')])",
    },
    {
        "id": "dev-mm-meta",
        "code": "with m:\n    result = M.mm(M.empty(3, 4), M.empty(4, 2, device='meta'))",
    },
    {
        "id": "dev-cuda0-cuda1",
        "code": "with m:\n    result = M.empty(2, device='cuda:0') * M.empty(2, device='cuda:1')",
    },
    {
        "id": "dev-error-type",
        "code": "with m:\n    try:\n        M.empty(3) + M.empty(3, device='cuda')\n    except RuntimeError as e:\n"
        "        result = [type(e).__name__, str(e.common_device), str(e.device)]",
    },
    # data-dependent operators
    {"id": "dd-nonzero", "code": "with m:\n    result = M.empty(3, 4).nonzero()", "msg": "prefix"},
    {
        "id": "dd-masked-select",
        "code": "with m:\n    x = M.empty(3, 4)\n    result = x.masked_select(x > 0)",
        "msg": "prefix",
    },
    {"id": "dd-item", "code": "with m:\n    result = M.empty(3).sum().item()", "msg": "prefix"},
    {"id": "dd-tolist", "code": "with m:\n    result = M.empty(3).tolist()", "msg": "prefix"},
    {"id": "dd-numpy", "code": "with m:\n    result = M.empty(3).numpy()"},
    {"id": "dd-unique", "code": "with m:\n    result = M.unique(M.empty(3))", "msg": "prefix"},
    {
        "id": "dd-bincount",
        "code": "with m:\n    result = M.bincount(M.empty(3, dtype=M.int64))",
        "msg": "prefix",
    },
    {
        "id": "dd-repeat-interleave",
        "code": "with m:\n    result = M.repeat_interleave(M.empty(3, dtype=M.int64))",
        "msg": "prefix",
    },
    {
        "id": "dd-equal",
        "code": "with m:\n    x = M.empty(3)\n    result = M.equal(x, x)",
        "msg": "prefix",
    },
    {"id": "dd-bool", "code": "with m:\n    result = bool(M.empty(3).sum())", "msg": "prefix"},
    {"id": "dd-float", "code": "with m:\n    result = float(M.empty(3).sum())", "msg": "prefix"},
    {"id": "dd-int", "code": "with m:\n    result = int(M.empty(3).sum())", "msg": "prefix"},
    {
        "id": "dd-bool-index",
        "code": "with m:\n    x = M.empty(3, 4)\n    result = x[x > 0]",
        "msg": "prefix",
    },
    {
        "id": "dd-argwhere",
        "code": "with m:\n    result = M.argwhere(M.empty(3, 4))",
        "msg": "prefix",
    },
    {
        "id": "dd-outside-item",
        "code": "f = m.from_tensor(M.ones(3))\nresult = f.sum().item()",
        "msg": "prefix",
    },
    {
        "id": "dd-outside-nonzero",
        "code": "f = m.from_tensor(M.ones(3))\nresult = f.nonzero()",
        "msg": "prefix",
    },
    {"id": "dd-outside-numpy", "code": "f = m.from_tensor(M.ones(3))\nresult = f.numpy()"},
    {"id": "dd-empty-tolist", "code": "with m:\n    result = M.empty(2, 0).tolist()"},
    {"id": "dd-empty1-tolist", "code": "with m:\n    result = M.empty(0).tolist()"},
    {
        "id": "dd-exc-func",
        "code": "with m:\n    try:\n        M.empty(3).nonzero()\n    except RuntimeError as e:\n"
        "        result = [type(e).__name__, str(e.func)]",
    },
    # constants (values of small tensors made by tensor(...) under the mode)
    {"id": "const-item", "code": "with m:\n    result = M.tensor(3.0).item()"},
    {"id": "const-mul-item", "code": "with m:\n    result = (M.tensor(3.0) * 2).item()"},
    {"id": "const-int", "code": "with m:\n    result = int(M.tensor(3))"},
    {"id": "const-tolist", "code": "with m:\n    result = M.tensor([3.0]).tolist()"},
    {"id": "const-bool", "code": "with m:\n    result = bool(M.tensor(True))"},
    {
        "id": "const-inplace",
        "code": "with m:\n    t = M.tensor(5.0)\n    t.add_(1)\n    result = t.item()",
    },
    {"id": "const-not-zeros", "code": "with m:\n    result = M.zeros(()).item()", "msg": "prefix"},
    {
        "id": "const-not-from-tensor",
        "code": "f = m.from_tensor(M.tensor(2.0))\nresult = f.item()",
        "msg": "prefix",
    },
    # mixing real, meta and other modes' tensors
    {"id": "mix-outside", "code": "f = m.from_tensor(M.ones(3, 4))\nresult = f + M.ones(3, 4)"},
    {"id": "mix-outside-rev", "code": "f = m.from_tensor(M.ones(3, 4))\nresult = M.ones(3, 4) + f"},
    {
        "id": "mix-inside",
        "code": "r = M.ones(3, 4, dtype=M.float64)\nwith m:\n    result = M.add(M.empty(3, 4), r, alpha=2)",
    },
    {
        "id": "mix-inside-cat",
        "code": "r = M.ones(3, 4, dtype=M.float64)\nwith m:\n    result = M.cat([M.empty(3, 4), r])",
    },
    {"id": "mix-real-alone", "code": "r = M.ones(3, 4)\nwith m:\n    result = r.sum()"},
    {
        "id": "mix-real-meta",
        "code": "mt = M.empty(3, 4, device='meta')\nwith m:\n    result = mt + M.empty(3, 4)",
    },
    {
        "id": "mix-modes-outside",
        "code": "m2 = FakeTensorMode()\nf = m.from_tensor(M.ones(3))\nf2 = m2.from_tensor(M.ones(3))\n"
        "result = f + f2",
    },
    {
        "id": "mix-modes-inside",
        "code": "m2 = FakeTensorMode()\nf = m.from_tensor(M.ones(3))\nf2 = m2.from_tensor(M.ones(3))\n"
        "with m2:\n    result = f + f2",
    },
    {
        "id": "mix-allow",
        "code": "m2 = FakeTensorMode(allow_non_fake_inputs=True)\nr = M.ones(3, 4, dtype=M.float64)\n"
        "with m2:\n    result = M.empty(3, 4) + r",
    },
    {
        "id": "mix-allow-other-mode",
        "code": "m2 = FakeTensorMode(allow_non_fake_inputs=True)\nf = m.from_tensor(M.ones(2))\n"
        "with m2:\n    y = M.empty(2) + f\nresult = [y, y.fake_mode is m2]",
    },
    # from_tensor
    {"id": "from-tensor", "code": "result = m.from_tensor(M.ones(3, 4, dtype=M.float64))"},
    {
        "id": "from-tensor-memo",
        "code": "r = M.ones(3)\nresult = m.from_tensor(r) is m.from_tensor(r)",
    },
    {
        "id": "from-tensor-view",
        "code": "r = M.ones(3, 4)\nv = r[1:, ::2]\nf = m.from_tensor(v)\n"
        "result = [f, f._base is not None, f._base is m.from_tensor(r)]",
    },
    {
        "id": "from-tensor-grad",
        "code": "f = m.from_tensor(M.ones(2, requires_grad=True))\nresult = [f.requires_grad, f.is_leaf]",
    },
    {"id": "from-tensor-meta", "code": "result = m.from_tensor(M.empty(3, device='meta'))"},
    {
        "id": "from-tensor-other-mode",
        "code": "m2 = FakeTensorMode()\nf = m2.from_tensor(M.ones(3))\ng = m.from_tensor(f)\n"
        "result = [g, g.fake_mode is m]",
    },
    {
        "id": "converter",
        "code": "result = m.fake_tensor_converter.from_real_tensor(m, M.ones(2, device='meta'))",
    },
    # custom operators through their fake implementation
    {
        "id": "custom-op-fake",
        "code": "@M.library.custom_op('fkrec::scale', mutates_args=())\n"
        "def scale(x: M.Tensor, k: float) -> M.Tensor:\n    return x * k\n"
        "@scale.register_fake\ndef _(x, k):\n    return M.empty_like(x)\n"
        "with m:\n    result = M.ops.fkrec.scale(M.empty(4, 3, device='cuda'), 2.0)",
    },
    {
        "id": "custom-op-fake-factory",
        "code": "@M.library.custom_op('fkrec::rows', mutates_args=())\n"
        "def rows(x: M.Tensor) -> M.Tensor:\n    return x.sum(1)\n"
        "@rows.register_fake\ndef _(x):\n    return x.new_empty(x.shape[0])\n"
        "with m:\n    result = M.ops.fkrec.rows(M.empty(5, 3, device='cuda:0'))",
    },
    {
        "id": "custom-op-no-fake",
        "code": "@M.library.custom_op('fkrec::nofake', mutates_args=())\n"
        "def nofake(x: M.Tensor) -> M.Tensor:\n    return x.clone()\n"
        "with m:\n    result = M.ops.fkrec.nofake(M.empty(2))",
    },
    {
        "id": "custom-op-mutating",
        "code": "@M.library.custom_op('fkrec::fill', mutates_args=('x',))\n"
        "def fill(x: M.Tensor) -> None:\n    x.fill_(1)\n"
        "with m:\n    t = M.empty(3, device='cuda')\n    M.ops.fkrec.fill(t)\n    result = t",
    },
]

# ----------------------------------------------------------------------------- evaluation
# (the tests import these helpers: keep them torch-free)

_ADDR = re.compile(r"<[\w.]*FakeTensorMode object at 0x[0-9a-fA-F]+>")


def normalize(s: str) -> str:
    s = _ADDR.sub("<FakeTensorMode>", s)
    return s.replace("torch.", "keyroute.")


def encode(M: Any, v: Any) -> Any:
    """A JSON description of a result (fake tensors: type, metadata and device; no values)."""
    if isinstance(v, M.Tensor):
        return {
            "tensor": {
                "type": type(v).__name__,
                "device": str(v.device),
                "dtype": normalize(str(v.dtype)),
                "shape": list(v.shape),
                "stride": list(v.stride()),
                "offset": v.storage_offset(),
                "requires_grad": bool(v.requires_grad),
            }
        }
    if isinstance(v, (list, tuple)):
        return {"list": [encode(M, x) for x in v]}
    if isinstance(v, str):
        return {"str": normalize(v)}
    if isinstance(v, (bool, int, float)) or v is None:
        return {type(v).__name__: v}
    if isinstance(v, M.Size):
        return {"list": list(v)}
    return {"repr": normalize(repr(v))}


def run_case(M: Any, mode_cls: Any, case: dict[str, Any]) -> dict[str, Any]:
    """Run one case's program with module M and FakeTensorMode class mode_cls."""
    env: dict[str, Any] = {"M": M, "FakeTensorMode": mode_cls}
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        try:
            exec(_SETUP + case["code"], env)
            return {"result": encode(M, env.get("result"))}
        except Exception as e:  # noqa: BLE001 (errors are results here)
            msg = str(e).splitlines()[0] if str(e) else ""
            return {"error": type(e).__name__, "msg": normalize(msg)}


def main() -> None:
    import torch
    from torch._subclasses.fake_tensor import FakeTensorMode

    assert torch.__version__.startswith("2.13"), torch.__version__
    out = []
    for case in CASES:
        got = run_case(torch, FakeTensorMode, case)
        out.append({**case, "expected": got})
        print(case["id"], "->", got)
    with open(OUT, "w") as f:
        json.dump(out, f, indent=0, sort_keys=True)
        f.write("\n")


if __name__ == "__main__":
    main()
