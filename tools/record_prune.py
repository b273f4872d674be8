"""Record PyTorch 2.13's nn.utils.prune programs (tests/nn/prune_cases.py) into
tests/data/prune.json.

    python tools/record_prune.py
"""

from __future__ import annotations

import json
import pathlib
import sys

ROOT = pathlib.Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))


def main() -> None:
    import torch
    import torch.nn.utils.prune  # noqa: F401

    from tests.nn.prune_cases import PROGRAMS, run

    out = {"torch": torch.__version__, "programs": {n: run(n, torch) for n in PROGRAMS}}
    (ROOT / "tests/data/prune.json").write_text(json.dumps(out, indent=0, sort_keys=True) + "\n")
    print(f"prune.json: {len(PROGRAMS)} programs")


if __name__ == "__main__":
    main()
