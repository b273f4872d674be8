"""Record PyTorch 2.13's CUDA autocast policy on fake "cuda" tensors (its CPU build has the
AutocastCUDA kernels): for each case of tests/layers/autocast_cuda_cases.py, autocast dtype
and input variant, the output dtypes and the aten calls a dispatch mode sees. Writes
tests/data/autocast_cuda.json.

Run with PyTorch installed: `PYTHONPATH=$PWD python tools/record_autocast_cuda.py`.
"""

from __future__ import annotations

import json
import pathlib
import sys

ROOT = pathlib.Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from tests.layers.autocast_cuda_cases import (  # noqa: E402
    AUTOCAST_DTYPES,
    CASES,
    VARIANTS,
    run_case,
)


def main() -> None:
    import torch
    import torch._subclasses.fake_tensor  # noqa: F401
    import torch.nn.functional  # noqa: F401
    import torch.utils._python_dispatch  # noqa: F401

    cases = {}
    for name in CASES:
        for acd in AUTOCAST_DTYPES:
            for variant in VARIANTS:
                cases[f"{name}/{acd}/{variant}"] = run_case(name, torch, acd, variant)
    out = {"torch": torch.__version__, "cases": cases}
    path = ROOT / "tests/data/autocast_cuda.json"
    path.write_text(json.dumps(out, indent=0, sort_keys=True) + "\n")
    errors = sum("error" in r for r in cases.values())
    print(f"{path}: {len(cases)} cases ({errors} errors)")


if __name__ == "__main__":
    main()
