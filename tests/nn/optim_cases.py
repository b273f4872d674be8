"""Optimizer cases shared by tools/record_optim.py (PyTorch) and tests/nn/test_optim.py."""

from __future__ import annotations

from typing import Any

import numpy as np

CASES: dict[str, tuple[str, dict[str, Any]]] = {
    "sgd": ("SGD", {"lr": 0.1}),
    "sgd_momentum": ("SGD", {"lr": 0.1, "momentum": 0.9}),
    "sgd_momentum_dampening_wd": (
        "SGD",
        {"lr": 0.05, "momentum": 0.8, "dampening": 0.3, "weight_decay": 0.01},
    ),
    "sgd_nesterov": ("SGD", {"lr": 0.1, "momentum": 0.9, "nesterov": True, "weight_decay": 1e-3}),
    "sgd_maximize": ("SGD", {"lr": 0.1, "momentum": 0.5, "maximize": True}),
    "adam": ("Adam", {"lr": 1e-2}),
    "adam_wd": ("Adam", {"lr": 1e-2, "weight_decay": 0.1, "betas": (0.8, 0.95), "eps": 1e-6}),
    "adam_amsgrad": ("Adam", {"lr": 1e-2, "amsgrad": True}),
    "adamw": ("AdamW", {"lr": 1e-2}),
    "adamw_wd_amsgrad": ("AdamW", {"lr": 3e-3, "weight_decay": 0.5, "amsgrad": True}),
    "adamw_maximize": ("AdamW", {"lr": 1e-2, "maximize": True}),
}
STEPS = 4


def initial(seed: int = 0) -> list[np.ndarray]:
    rng = np.random.default_rng(seed)
    return [
        rng.standard_normal((3, 4)).astype(np.float32),
        rng.standard_normal(4).astype(np.float32),
    ]


def grads(step: int) -> list[np.ndarray]:
    rng = np.random.default_rng(100 + step)
    return [
        rng.standard_normal((3, 4)).astype(np.float32),
        rng.standard_normal(4).astype(np.float32),
    ]


def run(M: Any, name: str) -> list[list[list[float]]]:
    """Parameters after each step, for module M (torch or keyroute)."""
    cls_name, kwargs = CASES[name]
    params = [M.nn.Parameter(M.from_numpy(a.copy())) for a in initial()]
    opt = getattr(M.optim, cls_name)(params, **kwargs)
    out = []
    for step in range(STEPS):
        for p, g in zip(params, grads(step)):
            p.grad = M.from_numpy(g.copy())
        opt.step()
        out.append([p.detach().numpy().reshape(-1).astype(float).tolist() for p in params])
    return out
