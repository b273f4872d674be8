"""The swa_utils.update_bn program, shared by tools/record_swa_utils.py (torch) and
tests/optim/test_swa_utils.py (keyroute). No torch or keyroute import here."""

from __future__ import annotations

from typing import Any

import numpy as np


def data() -> dict[str, Any]:
    rng = np.random.default_rng(7)
    return {
        "w1": rng.standard_normal((4, 3)).astype(np.float32).tolist(),
        "w2": rng.standard_normal((2, 4)).astype(np.float32).tolist(),
        "batches": [rng.standard_normal((5, 3)).astype(np.float32).tolist() for _ in range(3)],
    }


def run(M: Any, d: dict[str, Any]) -> dict[str, Any]:
    """A model with two batch-norm layers (one with momentum None), in eval mode; the loader
    yields (input, target) tuples; then a model without batch norm (update_bn returns)."""
    lin1, lin2 = M.nn.Linear(3, 4, bias=False), M.nn.Linear(4, 2, bias=False)
    with M.no_grad():
        lin1.weight.copy_(M.tensor(d["w1"]))
        lin2.weight.copy_(M.tensor(d["w2"]))
    bn1, bn2 = M.nn.BatchNorm1d(4, momentum=0.3), M.nn.BatchNorm1d(2, momentum=None)
    model = M.nn.Sequential(lin1, bn1, M.nn.ReLU(), lin2, bn2).eval()
    loader = [(M.tensor(b), M.zeros(5)) for b in d["batches"]]
    M.optim.swa_utils.update_bn(loader, model)
    out = {
        "training": [model.training, bn1.training],
        "momenta": [bn1.momentum, bn2.momentum],
    }
    for name, bn in (("bn1", bn1), ("bn2", bn2)):
        out[name] = [
            bn.running_mean.tolist(),
            bn.running_var.tolist(),
            int(bn.num_batches_tracked),
        ]
    plain = M.nn.Linear(3, 2)
    M.optim.swa_utils.update_bn([M.tensor(d["batches"][0])], plain)
    out["plain_training"] = plain.training
    return out
