"""Record PyTorch's outcome of every bad-input probe into tests/data/probes.json.

python tools/record_probes.py
"""

from __future__ import annotations

import json
import os
import sys
import warnings

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, HERE)
from probe_cases import probes  # noqa: E402
from record_reliability import run_case  # noqa: E402

OUT = os.path.join(HERE, "..", "tests", "data", "probes.json")


def run_probe(torch, op: str, src: str) -> dict:  # noqa: ANN001
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        return run_case(torch, f"f = torch.{op}\n{src}")


def main() -> None:
    import torch

    data = {"torch_version": torch.__version__, "cases": {}}
    for name, (op, src) in probes().items():
        data["cases"][name] = run_probe(torch, op, src)
    with open(OUT, "w") as f:
        json.dump(data, f, indent=0, sort_keys=True)
        f.write("\n")
    print(f"recorded {len(data['cases'])} probes into {os.path.relpath(OUT)}")


if __name__ == "__main__":
    main()
