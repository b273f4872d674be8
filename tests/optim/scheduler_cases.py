"""LR-scheduler cases shared by tools/record_lr_schedulers.py (PyTorch) and
test_lr_scheduler.py: each builds an optimizer with two param groups, a scheduler, and steps
them, recording every group's lr (and momentum / beta1) after each step, get_last_lr(), the
warnings raised (category and message) and the scheduler's state_dict (JSON-able entries)."""

from __future__ import annotations

import warnings
from typing import Any

STEPS = 25


def _opt(M: Any, kind: str = "sgd") -> Any:  # noqa: N803
    p1 = M.nn.Parameter(M.ones(2))
    p2 = M.nn.Parameter(M.ones(3))
    groups = [{"params": [p1]}, {"params": [p2], "lr": 0.05}]
    if kind == "adam":
        return M.optim.Adam(groups, lr=0.1)
    return M.optim.SGD(groups, lr=0.1, momentum=0.9)


def _sched(M: Any, name: str, opt: Any) -> Any:  # noqa: N803
    S = M.optim.lr_scheduler  # noqa: N806
    table = {
        "lambda": lambda: S.LambdaLR(opt, [lambda e: 0.95**e, lambda e: 1 / (e + 1)]),
        "multiplicative": lambda: S.MultiplicativeLR(opt, lambda e: 0.9),
        "step": lambda: S.StepLR(opt, step_size=3, gamma=0.5),
        "multistep": lambda: S.MultiStepLR(opt, milestones=[2, 5, 5, 11], gamma=0.3),
        "constant": lambda: S.ConstantLR(opt, factor=0.25, total_iters=4),
        "linear": lambda: S.LinearLR(opt, start_factor=0.1, end_factor=0.9, total_iters=7),
        "exponential": lambda: S.ExponentialLR(opt, gamma=0.87),
        "polynomial": lambda: S.PolynomialLR(opt, total_iters=9, power=1.7),
        "cosine": lambda: S.CosineAnnealingLR(opt, T_max=6, eta_min=0.001),
        "cosine_warm_restarts": lambda: S.CosineAnnealingWarmRestarts(opt, T_0=3, T_mult=2),
        "cosine_warm_restarts_eta": lambda: S.CosineAnnealingWarmRestarts(opt, 4, 1, 0.01),
        "cyclic": lambda: S.CyclicLR(opt, 0.01, [0.1, 0.2], step_size_up=4),
        "cyclic_triangular2": lambda: S.CyclicLR(
            opt, 0.01, 0.1, step_size_up=3, step_size_down=5, mode="triangular2"
        ),
        "cyclic_exp_range": lambda: S.CyclicLR(
            opt, 0.01, 0.1, step_size_up=2, mode="exp_range", gamma=0.9, cycle_momentum=False
        ),
        "onecycle": lambda: S.OneCycleLR(opt, max_lr=[0.5, 0.3], total_steps=STEPS + 1),
        "onecycle_linear_3phase": lambda: S.OneCycleLR(
            opt, 0.4, epochs=2, steps_per_epoch=13, anneal_strategy="linear", three_phase=True
        ),
        "sequential": lambda: S.SequentialLR(
            opt,
            [S.LinearLR(opt, 0.2, total_iters=4), S.ExponentialLR(opt, 0.8)],
            milestones=[4],
        ),
        "chained": lambda: S.ChainedScheduler(
            [S.ConstantLR(opt, 0.5, total_iters=3), S.ExponentialLR(opt, 0.9)]
        ),
    }
    return table[name]()


CASES = [
    "lambda",
    "multiplicative",
    "step",
    "multistep",
    "constant",
    "linear",
    "exponential",
    "polynomial",
    "cosine",
    "cosine_warm_restarts",
    "cosine_warm_restarts_eta",
    "cyclic",
    "cyclic_triangular2",
    "cyclic_exp_range",
    "onecycle",
    "onecycle_linear_3phase",
    "sequential",
    "chained",
    "plateau",
    "plateau_max_abs",
    "adam_onecycle",
    "adam_cyclic",
    "step_before_optimizer",
    "get_lr_outside_step",
    "step_with_epoch",
]


def _jsonable(v: Any) -> Any:
    if isinstance(v, (bool, int, float, str)) or v is None:
        return v
    if isinstance(v, (list, tuple)):
        return [_jsonable(x) for x in v]
    if isinstance(v, dict):
        return {str(k): _jsonable(x) for k, x in sorted(v.items(), key=lambda kv: str(kv[0]))}
    return f"<{type(v).__name__}>"


def _group_values(opt: Any) -> list[Any]:
    return [
        [g["lr"], g.get("momentum"), g["betas"][0] if "betas" in g else None]
        for g in opt.param_groups
    ]


def run(M: Any, name: str) -> dict[str, Any]:  # noqa: N803
    out: dict[str, Any] = {"lrs": [], "last": []}
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        opt = _opt(M, "adam" if name.startswith("adam_") else "sgd")
        if name.startswith("plateau"):
            S = M.optim.lr_scheduler  # noqa: N806
            if name == "plateau":
                sched = S.ReduceLROnPlateau(opt, factor=0.5, patience=2, cooldown=1, min_lr=0.004)
            else:
                sched = S.ReduceLROnPlateau(
                    opt, mode="max", threshold=0.1, threshold_mode="abs", patience=1
                )
        else:
            base = {"adam_onecycle": "onecycle", "adam_cyclic": "cyclic"}.get(name, "step")
            sched = _sched(M, name if name in _SCHEDS else base, opt)
        out["lrs"].append(_group_values(opt))
        for i in range(STEPS):
            if name == "get_lr_outside_step" and i == 2:
                out["get_lr"] = sched.get_lr()
            if name == "step_before_optimizer" and i == 0:
                sched.step()
            opt.step()
            if name.startswith("plateau"):
                metric = [1.0, 0.9, 0.95, 0.97, 0.96, 0.99, 0.8, 0.81, 0.82, 0.83][i % 10]
                sched.step(metric if name == "plateau" else -metric)
            elif name == "step_with_epoch" and i in (5, 9):
                sched.step(i * 2)
            else:
                sched.step()
            out["lrs"].append(_group_values(opt))
            out["last"].append(list(sched.get_last_lr()))
    out["warnings"] = [f"{w.category.__name__}: {w.message}" for w in caught]
    sd = sched.state_dict()
    out["state_keys"] = sorted(sd)
    out["state"] = {k: _jsonable(v) for k, v in sd.items() if not callable(v)}
    return out


_SCHEDS = {c for c in CASES if not c.startswith(("plateau", "adam_"))} - {
    "step_before_optimizer",
    "get_lr_outside_step",
    "step_with_epoch",
}
