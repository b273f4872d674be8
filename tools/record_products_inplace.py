"""Record PyTorch 2.13's outcomes for the addr_ / renorm_ programs of
tests/aten/products_inplace_programs.py into tests/data/products_inplace.json.

Run with PyTorch installed: `PYTHONPATH=$PWD python tools/record_products_inplace.py`.
"""

from __future__ import annotations

import json
import pathlib
import sys

ROOT = pathlib.Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from tests.aten.products_inplace_programs import PROGRAMS, run_program  # noqa: E402


def main() -> None:
    import torch

    out = {"torch": torch.__version__, "programs": {n: run_program(n, torch) for n in PROGRAMS}}
    path = ROOT / "tests/data/products_inplace.json"
    path.write_text(json.dumps(out, indent=0, sort_keys=True) + "\n")
    errors = sum("error" in r for r in out["programs"].values())
    print(f"{path}: {len(PROGRAMS)} programs ({errors} errors)")


if __name__ == "__main__":
    main()
