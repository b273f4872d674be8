"""Record reshape's routing and `aten::_reshape_alias` with PyTorch 2.13
(tests/aten/reshape_cases.py).

    python tools/record_reshape_alias.py  ->  tests/data/reshape_alias.json
"""

from __future__ import annotations

import json
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from tests.aten.reshape_cases import CASES, run  # noqa: E402


def main() -> None:
    import torch
    import torch.utils._python_dispatch  # noqa: F401

    rec = {
        "torch_version": torch.__version__,
        "cases": {k: run(v, torch) for k, v in CASES.items()},
    }
    path = ROOT / "tests" / "data" / "reshape_alias.json"
    path.write_text(json.dumps(rec, indent=0, sort_keys=True) + "\n", encoding="utf-8")
    print("wrote", path, len(rec["cases"]), "cases")


if __name__ == "__main__":
    main()
