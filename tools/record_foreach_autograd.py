"""Record PyTorch's autograd behaviour of the `_foreach_*` operators (tests/autograd/
foreach_cases.py) -> tests/data/foreach_autograd.json.gz.

    python tools/record_foreach_autograd.py
"""

from __future__ import annotations

import gzip
import json
import os
import sys

sys.path.insert(0, os.path.join(os.path.dirname(__file__), ".."))


def main() -> None:
    import torch

    from tests.autograd.foreach_cases import CASES, run

    torch.set_num_threads(1)
    data = {"torch_version": torch.__version__, "cases": {n: run(torch, n) for n in CASES}}
    out = os.path.join(os.path.dirname(__file__), "..", "tests", "data", "foreach_autograd.json.gz")
    with gzip.open(out, "wt") as f:
        json.dump(data, f, separators=(",", ":"), sort_keys=True)
    print(f"recorded {len(CASES)} foreach autograd cases")


if __name__ == "__main__":
    main()
