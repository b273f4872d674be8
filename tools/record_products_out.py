"""Record PyTorch's out= forms of the product and smooth-loss operators
(tests/aten/products_out_cases.py) -> tests/data/products_out.json.

    python tools/record_products_out.py
"""

from __future__ import annotations

import json
import os
import sys

sys.path.insert(0, os.path.join(os.path.dirname(__file__), ".."))


def main() -> None:
    import torch

    from tests.aten.products_out_cases import CASES, OUT_DTYPES, OUT_SHAPES, run_case

    data = {
        f"{n}/{d}/{s}": run_case(n, torch, d, s)
        for n in CASES
        for d in OUT_DTYPES
        for s in OUT_SHAPES
    }
    out = os.path.join(os.path.dirname(__file__), "..", "tests", "data", "products_out.json")
    with open(out, "w") as f:
        json.dump({"torch_version": torch.__version__, "cases": data}, f, separators=(",", ":"))
    print(f"recorded {len(data)} out= cases")


if __name__ == "__main__":
    main()
