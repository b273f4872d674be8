"""Record PyTorch's gradients for tests/autograd/grad_cases.py -> tests/data/grads.json.gz."""

from __future__ import annotations

import gzip
import json
import os
import sys

sys.path.insert(0, os.path.join(os.path.dirname(__file__), ".."))

import torch  # noqa: E402

from tests.autograd.grad_cases import CASES  # noqa: E402
from tests.autograd.grad_harness import run_case  # noqa: E402


def main() -> None:
    torch.set_num_threads(1)
    data = {"torch_version": torch.__version__, "cases": {}}
    for name in CASES:
        data["cases"][name] = run_case(torch, name)
    out = os.path.join(os.path.dirname(__file__), "..", "tests", "data", "grads.json.gz")
    with gzip.open(out, "wt") as f:
        json.dump(data, f)
    print(f"recorded {len(CASES)} gradient cases")


if __name__ == "__main__":
    main()
