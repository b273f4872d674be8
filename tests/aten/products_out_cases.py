"""The out= forms of addr, renorm, trace, huber_loss, smooth_l1_loss and the loss backwards,
per out dtype and out shape (empty or with other elements): the value written or the error.
Run under PyTorch 2.13 (tools/record_products_out.py -> tests/data/products_out.json) and
keyroute (tests/aten/test_products_out.py). No torch or keyroute import here."""

from __future__ import annotations

from typing import Any

import numpy as np

# name -> call over the aten namespace A, inputs a (3x4), t (3x4), g (3x4), v1 (3), v2 (4), out o
CASES: dict[str, str] = {
    "addr": "A.addr.out(a, v1, v2, beta=0.5, alpha=2, out=o)",
    "renorm": "A.renorm.out(a, 2, 0, 1.0, out=o)",
    "trace": "A.trace.out(a, out=o)",
    "huber_loss_mean": "A.huber_loss.out(a, t, 1, 0.5, out=o)",
    "huber_loss_none": "A.huber_loss.out(a, t, 0, 0.5, out=o)",
    "smooth_l1_loss_sum": "A.smooth_l1_loss.out(a, t, 2, 0.5, out=o)",
    "smooth_l1_loss_none": "A.smooth_l1_loss.out(a, t, 0, 0.5, out=o)",
    "huber_loss_backward": "A.huber_loss_backward.out(g, a, t, 0, 0.5, grad_input=o)",
    "smooth_l1_loss_backward": (
        "A.smooth_l1_loss_backward.grad_input(g, a, t, 1, 0.5, grad_input=o)"
    ),
}
OUT_DTYPES = ("float32", "float64", "int64", "float16")
OUT_SHAPES = {"empty": (0,), "other": (5,)}


def run_case(name: str, torch: Any, out_dtype: str, out_shape: str) -> dict[str, Any]:
    def t(*shape: int, k: float) -> Any:
        n = int(np.prod(shape))
        return torch.tensor(np.sin(np.arange(n) * k + 0.3).reshape(shape).astype(np.float32))

    env = {
        "A": torch.ops.aten,
        "a": t(3, 4, k=1.0),
        "t": t(3, 4, k=0.7),
        "g": t(3, 4, k=0.4),
        "v1": t(3, k=1.3),
        "v2": t(4, k=0.9),
        "o": torch.zeros(OUT_SHAPES[out_shape], dtype=getattr(torch, out_dtype)),
    }
    import warnings

    with warnings.catch_warnings():
        warnings.simplefilter("ignore")  # the resize warning is resize_output's, tested elsewhere
        try:
            r = eval(CASES[name], env)
        except RuntimeError as e:
            return {"error": str(e).split("\n")[0]}
    o = env["o"]
    return {
        "same": r is o,
        "shape": list(o.shape),
        "dtype": str(o.dtype).split(".")[-1],
        "value": [round(float(x), 3) for x in o.double().reshape(-1).tolist()],
    }
