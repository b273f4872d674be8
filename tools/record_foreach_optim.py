"""Record torch 2.13's optimizers with foreach=True (and fused=True for SGD/Adam/AdamW):
parameters and state after three steps from fixed data, and the aten calls a dispatch mode
sees during the foreach steps, into tests/data/foreach_optim.json.

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
    ("RMSprop", {"lr": 0.01}),
    ("RMSprop", {"lr": 0.01, "momentum": 0.9, "centered": True, "weight_decay": 0.1}),
    ("RMSprop", {"lr": 0.01, "maximize": True, "weight_decay": 0.1}),
    ("Adagrad", {"lr": 0.1}),
    ("Adagrad", {"lr": 0.1, "lr_decay": 0.01, "weight_decay": 0.1}),
    ("Adagrad", {"lr": 0.1, "maximize": True}),
    ("Adadelta", {"lr": 1.0}),
    ("Adadelta", {"lr": 0.5, "weight_decay": 0.1, "maximize": True}),
    ("Adamax", {"lr": 0.01}),
    ("Adamax", {"lr": 0.01, "weight_decay": 0.1}),
    ("Adamax", {"lr": 0.01, "maximize": True}),
    ("NAdam", {"lr": 0.01}),
    ("NAdam", {"lr": 0.01, "weight_decay": 0.1, "decoupled_weight_decay": True}),
    ("NAdam", {"lr": 0.01, "weight_decay": 0.1, "maximize": True}),
    ("RAdam", {"lr": 0.01}),
    ("RAdam", {"lr": 0.01, "weight_decay": 0.1, "decoupled_weight_decay": True}),
    ("RAdam", {"lr": 0.01, "weight_decay": 0.1, "maximize": True}),
    ("ASGD", {"lr": 0.01}),
    ("ASGD", {"lr": 0.01, "weight_decay": 0.1, "t0": 1.0}),
    ("ASGD", {"lr": 0.01, "weight_decay": 0.1, "maximize": True, "t0": 1.0}),
    ("Rprop", {"lr": 0.01}),
    ("Rprop", {"lr": 0.05, "maximize": True}),
]
MODES = ("single", "foreach", "fused")
FUSED = ("SGD", "Adam", "AdamW")


def data() -> tuple[list[list[float]], list[list[list[float]]]]:
    """Parameters and three steps of gradients, written out so keyroute reads the same."""
    import numpy as np

    rng = np.random.default_rng(0)
    shapes = [(3, 2), (4,)]
    params = [rng.standard_normal(s).astype(np.float32).tolist() for s in shapes]
    grads = [[rng.standard_normal(s).astype(np.float32).tolist() for s in shapes] for _ in range(3)]
    return params, grads


def run(torch_mod, name, kw, mode, params, grads, log=None):  # type: ignore[no-untyped-def]
    """Three steps; `log` (a dispatch mode class) records the aten calls of the steps."""
    ps = [torch_mod.tensor(p, requires_grad=True) for p in params]
    flags = {"single": {"foreach": False}, "foreach": {"foreach": True}, "fused": {"fused": True}}
    opt = getattr(torch_mod.optim, name)(ps, **kw, **flags[mode])
    calls: list[str] = []
    for step in grads:
        for p, g in zip(ps, step):
            p.grad = torch_mod.tensor(g)
        if log is None:
            opt.step()
        else:
            with log(calls):
                opt.step()
    state = [
        {k: (v.tolist() if hasattr(v, "tolist") else v) for k, v in opt.state[p].items()}
        for p in ps
    ]
    out = {"params": [p.detach().tolist() for p in ps], "state": state}
    if log is not None:
        out["calls"] = calls
    return out


def logging_mode(base):  # type: ignore[no-untyped-def]
    """A dispatch mode class (on `base`, TorchDispatchMode) appending str(func) to a list."""

    class Log(base):
        def __init__(self, calls):  # type: ignore[no-untyped-def]
            super().__init__()
            self.calls = calls

        def __torch_dispatch__(self, func, types, args=(), kwargs=None):  # type: ignore[no-untyped-def]
            self.calls.append(str(func))
            return func(*args, **(kwargs or {}))

    return Log


def main() -> None:
    import torch
    from torch.utils._python_dispatch import TorchDispatchMode

    params, grads = data()
    out = {"params": params, "grads": grads, "cases": []}
    for name, kw in CASES:
        rec = {"optim": name, "kwargs": kw}
        for mode in MODES:
            if mode == "fused" and name not in FUSED:
                continue
            log = logging_mode(TorchDispatchMode) if mode == "foreach" else None
            rec[mode] = run(torch, name, kw, mode, params, grads, log)
        out["cases"].append(rec)
    path = pathlib.Path(__file__).resolve().parent.parent / "tests/data/foreach_optim.json"
    path.write_text(json.dumps(out))
    print(f"wrote {len(out['cases'])} cases to {path.name}")


if __name__ == "__main__":
    main()
