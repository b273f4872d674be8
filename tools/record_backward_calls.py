"""Record the aten calls a TorchDispatchMode sees during each backward pass of
tests/autograd/backward_calls_programs.py -> tests/data/backward_calls.json.

    python tools/record_backward_calls.py
"""

from __future__ import annotations

import json
import os
import sys

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
OUT = os.path.join(ROOT, "tests", "data", "backward_calls.json")


def main() -> None:
    import torch

    sys.path.insert(0, ROOT)
    from tests.autograd.backward_calls_programs import NAMES, backward_log

    torch.set_num_threads(1)
    data = {"torch": torch.__version__, "logs": {n: backward_log(torch, n) for n in NAMES}}
    with open(OUT, "w", encoding="utf-8") as f:
        json.dump(data, f, indent=0, sort_keys=True)
        f.write("\n")
    print(f"{len(NAMES)} backward logs -> {os.path.relpath(OUT, ROOT)}")


if __name__ == "__main__":
    main()
