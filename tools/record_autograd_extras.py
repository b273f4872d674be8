"""Record PyTorch 2.13's outcomes for the autograd-extras programs of
tests/layers/autograd_programs.py into tests/data/autograd_extras.json.

Run with PyTorch installed: `PYTHONPATH=$PWD python tools/record_autograd_extras.py`.
"""

from __future__ import annotations

import json
import pathlib
import sys

ROOT = pathlib.Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from tests.layers.autograd_programs import PROGRAMS, run_program  # noqa: E402


def main() -> None:
    import torch
    import torch.autograd.functional  # noqa: F401
    import torch.autograd.graph  # noqa: F401
    import torch.nn.functional  # noqa: F401
    import torch.utils.checkpoint  # noqa: F401

    out = {"torch": torch.__version__, "programs": {}}
    for name in PROGRAMS:
        out["programs"][name] = run_program(name, torch)
    path = ROOT / "tests/data/autograd_extras.json"
    path.write_text(json.dumps(out, indent=0, sort_keys=True) + "\n")
    errors = sum("error" in r for r in out["programs"].values())
    print(f"{path}: {len(PROGRAMS)} programs ({errors} errors)")


if __name__ == "__main__":
    main()
