"""Record PyTorch's LR schedulers for tests/optim/scheduler_cases.py ->
tests/data/lr_schedulers.json (rates, momenta, warnings and state_dict of every case)."""

from __future__ import annotations

import json
import os
import sys

sys.path.insert(0, os.path.join(os.path.dirname(__file__), ".."))


def main() -> None:
    import torch

    from tests.optim.scheduler_cases import CASES, run

    data = {"torch_version": torch.__version__, "cases": {n: run(torch, n) for n in CASES}}
    out = os.path.join(os.path.dirname(__file__), "..", "tests", "data", "lr_schedulers.json")
    with open(out, "w") as f:
        json.dump(data, f, separators=(",", ":"))
    print(f"recorded {len(CASES)} scheduler cases")


if __name__ == "__main__":
    main()
