"""Record the `grad_fn._saved_*` attributes PyTorch 2.13 exposes on the nodes of common
operators -> tests/data/saved_attrs.json (for tests/autograd/test_saved_attrs.py).

Each case is an expression over inputs built from arange (the same in keyroute); for the
grad_fn of its result we record the node's name and every `_saved_<name>` attribute with its
value (tensors as dtype, shape and values; sizes and dims as lists).

    python tools/record_saved_attrs.py
"""

from __future__ import annotations

import json
import os
from typing import Any

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
OUT = os.path.join(ROOT, "tests", "data", "saved_attrs.json")

# name -> expression; `x` (2, 3), `y` (2, 3), `w` (3, 4), `v` (3,), `z` (4, 3), `p` (2, 3)
# positive, `i` int64 indices (2,), `im` (1, 2, 4, 4), `k` (3, 2, 3, 3); `T` is the library.
CASES = {
    "add": "x + y",
    "add_alpha": "T.add(x, y, alpha=2)",
    "add_scalar": "x + 2",
    "sub": "x - y",
    "mul": "x * y",
    "mul_scalar": "x * 3",
    "div": "x / p",
    "div_scalar": "x / 3",
    "neg": "-x",
    "exp": "x.exp()",
    "log": "p.log()",
    "sqrt": "p.sqrt()",
    "rsqrt": "p.rsqrt()",
    "sin": "x.sin()",
    "tanh": "x.tanh()",
    "sigmoid": "x.sigmoid()",
    "relu": "x.relu()",
    "gelu": "T.nn.functional.gelu(x)",
    "silu": "T.nn.functional.silu(x)",
    "pow_scalar": "p ** 2",
    "pow_tensor": "p ** y",
    "abs": "x.abs()",
    "clamp": "x.clamp(-1, 1)",
    "where": "T.where(x > 0, x, y)",
    "mm": "x @ w",
    "bmm": "T.bmm(x[None], w[None])",
    "addmm": "T.addmm(T.ones(4), x, w)",
    "linear": "T.nn.functional.linear(x, z)",
    "sum": "x.sum()",
    "sum_dim": "x.sum(1)",
    "sum_dim_keepdim": "x.sum(0, keepdim=True)",
    "mean": "x.mean()",
    "mean_dim": "x.mean(1)",
    "amax": "x.amax(1)",
    "max_dim": "x.max(1)[0]",
    "prod": "p.prod()",
    "softmax": "x.softmax(1)",
    "log_softmax": "x.log_softmax(-1)",
    "view": "x.view(3, 2)",
    "reshape": "x.reshape(6)",
    "transpose": "x.transpose(0, 1)",
    "t": "x.t()",
    "permute": "x.permute(1, 0)",
    "unsqueeze": "x.unsqueeze(1)",
    "squeeze": "x.unsqueeze(0).squeeze(0)",
    "expand": "v.expand(2, 3)",
    "select": "x[1]",
    "slice": "x[:, 1:]",
    "index": "x[i // 2]",
    "index_select": "x.index_select(1, i)",
    "gather": "x.gather(1, i[None].expand(2, 2))",
    "cat": "T.cat([x, y])",
    "stack": "T.stack([x, y])",
    "mse_loss": "T.nn.functional.mse_loss(x, y)",
    "nll_loss": "T.nn.functional.nll_loss(x.log_softmax(1), i)",
    "layer_norm": "T.nn.functional.layer_norm(x, (3,))",
    "embedding": "T.nn.functional.embedding(i, w.t())",
    "conv2d": "T.nn.functional.conv2d(im, k)",
    "dropout_eval": "T.nn.functional.dropout(x, 0.5, training=False) * 1",
}


def encode(v: Any) -> Any:
    import torch

    if isinstance(v, torch.Tensor):
        return {
            "dtype": str(v.dtype).replace("torch.", ""),
            "shape": list(v.shape),
            "values": v.detach().reshape(-1).tolist(),
        }
    if isinstance(v, (tuple, list, torch.Size)):
        return [encode(x) for x in v]
    if isinstance(v, (torch.dtype, torch.device, torch.layout, torch.memory_format)):
        return str(v)
    if isinstance(v, (bool, int, float, str)) or v is None:
        return v
    if hasattr(v, "__int__") and type(v).__name__ == "SymInt":
        return int(v)
    return repr(v)


def inputs(T: Any) -> dict[str, Any]:
    """The named inputs every case uses (the same construction runs under keyroute)."""

    def leaf(n: int, *shape: int, scale: float = 0.25, shift: float = -0.7) -> Any:
        return (T.arange(n, dtype=T.float32) * scale + shift).reshape(*shape).requires_grad_()

    return {
        "T": T,
        "x": leaf(6, 2, 3),
        "y": leaf(6, 2, 3, scale=-0.5, shift=1.1),
        "p": leaf(6, 2, 3, scale=0.5, shift=0.3),
        "w": leaf(12, 3, 4, scale=0.1),
        "z": leaf(12, 4, 3, scale=-0.1, shift=0.4),
        "v": leaf(3, 3),
        "i": T.tensor([2, 0]),
        "im": leaf(32, 1, 2, 4, 4, scale=0.05),
        "k": leaf(54, 3, 2, 3, 3, scale=0.02),
    }


def saved_attrs(node: Any) -> dict[str, Any]:
    out = {}
    for name in dir(node):
        if name.startswith("_saved_"):
            try:
                out[name] = encode(getattr(node, name))
            except Exception as e:  # a freed or undefined saved value
                out[name] = {"error": type(e).__name__}
    return out


def main() -> None:
    import torch

    cases = {}
    for name, expr in CASES.items():
        env = inputs(torch)
        node = eval(expr, env).grad_fn
        cases[name] = {"expr": expr, "node": type(node).__name__, "saved": saved_attrs(node)}
    with open(OUT, "w", encoding="utf-8") as f:
        json.dump({"torch_version": torch.__version__, "cases": cases}, f, indent=0, sort_keys=True)
    print(f"{len(cases)} cases -> {os.path.relpath(OUT, ROOT)}")


if __name__ == "__main__":
    main()
