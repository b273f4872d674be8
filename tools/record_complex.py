"""Record PyTorch's complex tensors through the operator families, with their gradients
(tests/layers/complex_cases.py) -> tests/data/complex.json.

    python tools/record_complex.py
"""

from __future__ import annotations

import json
import os
import sys

sys.path.insert(0, os.path.join(os.path.dirname(__file__), ".."))


def main() -> None:
    import torch

    from tests.layers.complex_cases import CASES, DTYPES, run_case

    torch.set_num_threads(1)
    data = {
        "torch_version": torch.__version__,
        "cases": {f"{n}/{d}": run_case(n, torch, d) for n in CASES for d in DTYPES},
    }
    out = os.path.join(os.path.dirname(__file__), "..", "tests", "data", "complex.json")
    with open(out, "w") as f:
        json.dump(data, f, separators=(",", ":"))
    print(f"recorded {len(data['cases'])} complex cases")


if __name__ == "__main__":
    main()
