"""Record torch 2.13's optim.swa_utils (AveragedModel SWA/EMA averages, SWALR lrs, update_bn's
running statistics) into tests/data/swa_utils.json. Run: python tools/record_swa_utils.py"""

from __future__ import annotations

import json
import pathlib
import sys

sys.path.insert(0, str(pathlib.Path(__file__).resolve().parent.parent))


def main() -> None:
    import torch
    from torch.optim import swa_utils

    out: dict = {}
    w = [[0.5, -1.0], [2.0, 0.25]]
    steps = [[[1.0, 2.0], [3.0, 4.0]], [[-1.0, 0.0], [0.5, 0.5]], [[2.0, 2.0], [1.0, -3.0]]]
    for name, kw in (
        ("swa", {}),
        ("ema", {"multi_avg_fn": swa_utils.get_ema_multi_avg_fn(0.9)}),
        ("ema_fn", {"avg_fn": swa_utils.get_ema_avg_fn(0.8)}),
        ("swa_multi", {"multi_avg_fn": swa_utils.get_swa_multi_avg_fn()}),
    ):
        m = torch.nn.Linear(2, 2, bias=False)
        with torch.no_grad():
            m.weight.copy_(torch.tensor(w))
        avg = swa_utils.AveragedModel(m, **kw)
        seen = []
        for s in steps:
            with torch.no_grad():
                m.weight.copy_(torch.tensor(s))
            avg.update_parameters(m)
            seen.append(avg.module.weight.tolist())
        out[name] = {"weights": seen, "n_averaged": int(avg.n_averaged)}
    out["init"], out["steps"] = w, steps
    for strategy, epochs in (("cos", 3), ("linear", 4), ("cos", 0)):
        p = torch.nn.Parameter(torch.zeros(1))
        q = torch.nn.Parameter(torch.zeros(1))
        opt = torch.optim.SGD([{"params": [p]}, {"params": [q], "lr": 0.5}], lr=1.0)
        sched = swa_utils.SWALR(
            opt, swa_lr=[0.05, 0.1], anneal_epochs=epochs, anneal_strategy=strategy
        )
        lrs = []
        for _ in range(6):
            opt.step()
            sched.step()
            lrs.append([g["lr"] for g in opt.param_groups])
        out[f"swalr_{strategy}_{epochs}"] = lrs
    from tests.optim import update_bn_case

    out["update_bn_data"] = update_bn_case.data()
    out["update_bn"] = update_bn_case.run(torch, out["update_bn_data"])
    path = pathlib.Path(__file__).resolve().parent.parent / "tests/data/swa_utils.json"
    path.write_text(json.dumps(out))


if __name__ == "__main__":
    main()
