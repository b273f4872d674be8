"""Record PyTorch 2.13's outcomes of tests/autograd/grad_api_cases.py (torch.autograd.grad's
Python surface) into tests/data/autograd_grad_api.json.

    python tools/record_autograd_grad_api.py
"""

from __future__ import annotations

import json
import pathlib
import sys

ROOT = pathlib.Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))


def main() -> None:
    import torch
    import torch.autograd.graph  # noqa: F401
    import torch.overrides  # noqa: F401

    from tests.autograd.grad_api_cases import PROGRAMS, run

    out = {"torch": torch.__version__, "programs": {n: run(n, torch) for n in PROGRAMS}}
    path = ROOT / "tests/data/autograd_grad_api.json"
    path.write_text(json.dumps(out, indent=0, sort_keys=True) + "\n")
    print(f"{path.name}: {len(PROGRAMS)} programs")


if __name__ == "__main__":
    main()
