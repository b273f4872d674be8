"""Record torch 2.13's SGD/Adam/AdamW with foreach=True and fused=True: parameters and state
after three steps from fixed data, into tests/data/foreach_optim.json.

Run: python tools/record_foreach_optim.py
"""

from __future__ import annotations

import json
import pathlib

CASES = [
    ("SGD", {"lr": 0.1}),
    ("SGD", {"lr": 0.1, "momentum": 0.9, "weight_decay": 0.01}),
    ("SGD", {"lr": 0.1, "momentum": 0.9, "nesterov": True, "maximize": True}),
    ("SGD", {"lr": 0.05, "momentum": 0.5, "dampening": 0.1}),
    ("Adam", {"lr": 0.01}),
    ("Adam", {"lr": 0.01, "weight_decay": 0.1, "amsgrad": True}),
    ("Adam", {"lr": 0.01, "maximize": True, "weight_decay": 0.05}),
    ("AdamW", {"lr": 0.01}),
    ("AdamW", {"lr": 0.01, "amsgrad": True, "weight_decay": 0.2}),
]
MODES = ("single", "foreach", "fused")


def data() -> tuple[list[list[float]], list[list[list[float]]]]:
    """Parameters and three steps of gradients, written out so keyroute reads the same."""
    import numpy as np

    rng = np.random.default_rng(0)
    shapes = [(3, 2), (4,)]
    params = [rng.standard_normal(s).astype(np.float32).tolist() for s in shapes]
    grads = [[rng.standard_normal(s).astype(np.float32).tolist() for s in shapes] for _ in range(3)]
    return params, grads


def run(torch_mod, name, kw, mode, params, grads):  # type: ignore[no-untyped-def]
    ps = [torch_mod.tensor(p, requires_grad=True) for p in params]
    flags = {"single": {"foreach": False}, "foreach": {"foreach": True}, "fused": {"fused": True}}
    opt = getattr(torch_mod.optim, name)(ps, **kw, **flags[mode])
    for step in grads:
        for p, g in zip(ps, step):
            p.grad = torch_mod.tensor(g)
        opt.step()
    state = [
        {k: (v.tolist() if hasattr(v, "tolist") else v) for k, v in opt.state[p].items()}
        for p in ps
    ]
    return {"params": [p.detach().tolist() for p in ps], "state": state}


def main() -> None:
    import torch

    params, grads = data()
    out = {"params": params, "grads": grads, "cases": []}
    for name, kw in CASES:
        rec = {"optim": name, "kwargs": kw}
        for mode in MODES:
            rec[mode] = run(torch, name, kw, mode, params, grads)
        out["cases"].append(rec)
    path = pathlib.Path(__file__).resolve().parent.parent / "tests/data/foreach_optim.json"
    path.write_text(json.dumps(out))
    print(f"wrote {len(out['cases'])} cases to {path.name}")


if __name__ == "__main__":
    main()
