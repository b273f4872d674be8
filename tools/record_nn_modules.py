"""Record PyTorch's module outputs and gradients for tests/nn/module_cases.py ->
tests/data/nn_modules.json.gz, and nn.utils results for tests/nn/utils_cases.py ->
tests/data/nn_utils.json.gz (float32 values rounded to 7 significant digits)."""

from __future__ import annotations

import gzip
import json
import os
import sys

sys.path.insert(0, os.path.join(os.path.dirname(__file__), ".."))


def _round(v: object) -> object:
    if isinstance(v, float):
        return float(f"{v:.7g}")
    if isinstance(v, list):
        return [_round(x) for x in v]
    if isinstance(v, dict):
        return {k: _round(x) for k, x in v.items()}
    return v


def main() -> None:
    import torch

    from tests.nn.module_cases import CASES, run

    torch.set_num_threads(1)
    cases = {}
    for name in CASES:
        init = run(torch, name)["init"]
        rec = run(torch, name, init)
        rec["init"] = init
        cases[name] = _round(rec)
    data = {"torch_version": torch.__version__, "cases": cases}
    out = os.path.join(os.path.dirname(__file__), "..", "tests", "data", "nn_modules.json.gz")
    with gzip.open(out, "wt") as f:
        json.dump(data, f, separators=(",", ":"))
    print(f"recorded {len(CASES)} module cases")
    from tests.nn import utils_cases

    data = {
        "torch_version": torch.__version__,
        "cases": {name: _round(utils_cases.run(torch, name)) for name in utils_cases.CASES},
    }
    out = os.path.join(os.path.dirname(__file__), "..", "tests", "data", "nn_utils.json.gz")
    with gzip.open(out, "wt") as f:
        json.dump(data, f, separators=(",", ":"))
    print(f"recorded {len(utils_cases.CASES)} nn.utils cases")


if __name__ == "__main__":
    main()
