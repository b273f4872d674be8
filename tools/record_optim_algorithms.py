"""Record PyTorch's optimizer steps for tests/optim/cases.py -> tests/data/optim_algorithms.json:
parameters after each step, the aten calls a TorchDispatchMode sees in the first two steps, and
the final state_dict, for every case in CASES and LBFGS_CASES."""

from __future__ import annotations

import json
import os
import sys

sys.path.insert(0, os.path.join(os.path.dirname(__file__), ".."))


def main() -> None:
    import torch

    from tests.optim.cases import CASES, LBFGS_CASES, run, run_lbfgs

    torch.set_num_threads(1)
    data = {
        "torch_version": torch.__version__,
        "cases": {name: run(torch, name) for name in CASES},
        "lbfgs": {name: run_lbfgs(torch, name) for name in LBFGS_CASES},
    }
    out = os.path.join(os.path.dirname(__file__), "..", "tests", "data", "optim_algorithms.json")
    with open(out, "w") as f:
        json.dump(data, f, separators=(",", ":"))
    print(f"recorded {len(CASES)} optimizer and {len(LBFGS_CASES)} LBFGS cases")


if __name__ == "__main__":
    main()
