"""Record PyTorch's optimizer steps for tests/nn/optim_cases.py -> tests/data/optim_steps.json."""

from __future__ import annotations

import json
import os
import sys

sys.path.insert(0, os.path.join(os.path.dirname(__file__), ".."))

import torch  # noqa: E402

from tests.nn.optim_cases import CASES, run  # noqa: E402


def main() -> None:
    torch.set_num_threads(1)
    data = {"torch_version": torch.__version__, "cases": {name: run(torch, name) for name in CASES}}
    out = os.path.join(os.path.dirname(__file__), "..", "tests", "data", "optim_steps.json")
    with open(out, "w") as f:
        json.dump(data, f)
    print(f"recorded {len(CASES)} optimizer cases")


if __name__ == "__main__":
    main()
