"""Optimizer cases shared by tools/record_optim_algorithms.py (PyTorch) and test_algorithms.py.

Each case seeds the generator (keyroute's streams are PyTorch's, bit for bit), makes three
parameters (the third never gets a gradient, so it must be skipped), draws fresh gradients for
each step, and runs the optimizer under a TorchDispatchMode that logs every aten call of
`step()` (operator and tensor-argument shapes). The result is the parameters after each step,
the logs of the first two steps, and the final state_dict (state tensors with dtype and shape,
param_groups' hyper-parameters).
"""

from __future__ import annotations

import importlib
from typing import Any

CASES: dict[str, tuple[str, dict[str, Any]]] = {
    "rmsprop": ("RMSprop", {}),
    "rmsprop_centered_momentum": (
        "RMSprop",
        {"lr": 0.01, "alpha": 0.9, "momentum": 0.5, "centered": True, "weight_decay": 0.1},
    ),
    "rmsprop_maximize": ("RMSprop", {"lr": 0.02, "maximize": True, "eps": 1e-6}),
    "adagrad": ("Adagrad", {}),
    "adagrad_decay": (
        "Adagrad",
        {"lr": 0.1, "lr_decay": 0.01, "weight_decay": 0.05, "initial_accumulator_value": 0.1},
    ),
    "adagrad_maximize": ("Adagrad", {"lr": 0.1, "maximize": True}),
    "adadelta": ("Adadelta", {}),
    "adadelta_wd": ("Adadelta", {"lr": 0.5, "rho": 0.8, "eps": 1e-5, "weight_decay": 0.1}),
    "adadelta_maximize": ("Adadelta", {"maximize": True}),
    "adamax": ("Adamax", {}),
    "adamax_wd": ("Adamax", {"lr": 0.01, "betas": (0.8, 0.9), "weight_decay": 0.1}),
    "adamax_maximize": ("Adamax", {"maximize": True}),
    "nadam": ("NAdam", {}),
    "nadam_wd": ("NAdam", {"lr": 0.01, "weight_decay": 0.1, "momentum_decay": 0.01}),
    "nadam_decoupled": ("NAdam", {"weight_decay": 0.1, "decoupled_weight_decay": True}),
    "nadam_maximize": ("NAdam", {"maximize": True}),
    "radam": ("RAdam", {}),
    "radam_wd": ("RAdam", {"lr": 0.01, "weight_decay": 0.1, "betas": (0.5, 0.6)}),
    "radam_decoupled": ("RAdam", {"weight_decay": 0.1, "decoupled_weight_decay": True}),
    "radam_maximize": ("RAdam", {"maximize": True}),
    "asgd": ("ASGD", {}),
    "asgd_t0": ("ASGD", {"lr": 0.05, "lambd": 0.01, "alpha": 0.5, "t0": 1, "weight_decay": 0.1}),
    "asgd_maximize": ("ASGD", {"maximize": True}),
    "rprop": ("Rprop", {}),
    "rprop_bounds": ("Rprop", {"lr": 0.1, "etas": (0.3, 1.5), "step_sizes": (0.01, 0.2)}),
    "rprop_maximize": ("Rprop", {"maximize": True}),
    "rmsprop_foreach": ("RMSprop", {"foreach": False}),
    "adagrad_fused_false": ("Adagrad", {"fused": False}),
}
STEPS = 3


def _pd(M: Any) -> Any:  # noqa: N803
    return importlib.import_module(M.__name__ + ".utils._python_dispatch")


def logging_mode(M: Any, log: list[str]) -> Any:  # noqa: N803
    """A TorchDispatchMode that logs 'op shape shape ...' for every call; the profiler's
    record_function calls PyTorch's Optimizer.step makes are left out (a named gap)."""

    class Log(_pd(M).TorchDispatchMode):
        def __torch_dispatch__(self, func, types, args=(), kwargs=None):  # noqa: ANN001, ANN202
            name = str(func)
            if not name.startswith("profiler."):
                shapes = []
                for a in args:
                    for t in a if isinstance(a, (list, tuple)) else (a,):
                        if isinstance(t, M.Tensor):
                            shapes.append("x".join(map(str, t.shape)) or "()")
                log.append(f"{name} {' '.join(shapes)}".rstrip())
            return func(*args, **(kwargs or {}))

    return Log()


def encode(M: Any, v: Any) -> Any:  # noqa: N803
    """A state or hyper-parameter value as JSON: tensors as dtype, shape and values."""
    if isinstance(v, M.Tensor):
        return {
            "dtype": str(v.dtype).split(".")[-1],
            "shape": list(v.shape),
            "values": v.detach().reshape(-1).double().tolist(),
        }
    if isinstance(v, (list, tuple)):
        return [encode(M, x) for x in v]
    if isinstance(v, dict):
        return {str(k): encode(M, x) for k, x in v.items()}
    return v


def state_dict(M: Any, opt: Any) -> dict[str, Any]:  # noqa: N803
    sd = opt.state_dict()
    return {
        "state": {
            str(k): {key: encode(M, x) for key, x in s.items()} for k, s in sd["state"].items()
        },
        "param_groups": [
            {key: encode(M, x) for key, x in sorted(g.items())} for g in sd["param_groups"]
        ],
    }


def run(M: Any, name: str) -> dict[str, Any]:  # noqa: N803
    cls_name, kwargs = CASES[name]
    M.manual_seed(0)
    params = [M.nn.Parameter(M.randn(3, 4)), M.nn.Parameter(M.randn(5)), M.nn.Parameter(M.randn(2))]
    opt = getattr(M.optim, cls_name)(params, **kwargs)
    out: dict[str, Any] = {"params": [], "logs": []}
    for step in range(STEPS):
        params[0].grad = M.randn(3, 4)
        params[1].grad = M.randn(5)
        log: list[str] = []
        with logging_mode(M, log):
            opt.step()
        out["params"].append([p.detach().reshape(-1).double().tolist() for p in params])
        if step < 2:
            out["logs"].append(log)
    out.update(state_dict(M, opt))
    return out


# -- LBFGS: closures on fixed problems ------------------------------------------------------


def _rosenbrock(M: Any, p: Any) -> Any:  # noqa: N803
    x, y = p[0::2], p[1::2]
    return ((1 - x) ** 2 + 100 * (y - x**2) ** 2).sum()


LBFGS_CASES: dict[str, dict[str, Any]] = {
    "lbfgs": {},
    "lbfgs_strong_wolfe": {"line_search_fn": "strong_wolfe"},
    "lbfgs_history": {"lr": 0.5, "max_iter": 7, "history_size": 3},
    "lbfgs_strong_wolfe_history": {
        "line_search_fn": "strong_wolfe",
        "history_size": 4,
        "max_iter": 10,
        "tolerance_change": 1e-6,
    },
}
LBFGS_STEPS = 3


def run_lbfgs(M: Any, name: str) -> dict[str, Any]:  # noqa: N803
    M.manual_seed(1)
    p = M.nn.Parameter(M.randn(6) * 0.5)
    opt = M.optim.LBFGS([p], **LBFGS_CASES[name])
    out: dict[str, Any] = {"params": [], "losses": [], "logs": [], "counters": []}
    calls = [0]

    def closure() -> Any:
        calls[0] += 1
        opt.zero_grad()
        loss = _rosenbrock(M, p)
        loss.backward()
        return loss

    for step in range(LBFGS_STEPS):
        log: list[str] = []
        if step == 0:
            with logging_mode(M, log):
                loss = opt.step(closure)
            out["logs"].append(log)
        else:
            loss = opt.step(closure)
        out["losses"].append(float(loss.detach()))
        out["params"].append(p.detach().double().tolist())
        st = opt.state[p]
        out["counters"].append([st["func_evals"], st["n_iter"], len(st["old_dirs"])])
    out["closure_calls"] = calls[0]
    st = opt.state_dict()["state"][0]
    out["state"] = {
        "func_evals": st["func_evals"],
        "n_iter": st["n_iter"],
        "t": float(st["t"]),
        "prev_loss": st["prev_loss"],
        "d": encode(M, st["d"]),
        "H_diag": encode(M, st["H_diag"]),
        "old_dirs": len(st["old_dirs"]),
        "ro": encode(M, st["ro"]),
    }
    return out
