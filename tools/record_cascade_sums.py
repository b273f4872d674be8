"""Record PyTorch's float sums and means for tests/optim/sum_cases.py (one thread) ->
tests/data/cascade_sums.npz."""

from __future__ import annotations

import os
import sys

sys.path.insert(0, os.path.join(os.path.dirname(__file__), ".."))


def main() -> None:
    import numpy as np
    import torch

    from tests.optim.sum_cases import run

    torch.set_num_threads(1)
    out = os.path.join(os.path.dirname(__file__), "..", "tests", "data", "cascade_sums.npz")
    values = run(torch)
    np.savez_compressed(out, **values)
    print(f"recorded {len(values)} reductions")


if __name__ == "__main__":
    main()
