"""Record PyTorch 2.13's CPU autocast behaviour: for each operator case of
tests/layers/autocast_cases.py, autocast dtype and input variant, the output dtypes and the
aten calls a dispatch mode sees; and the autocast programs of tests/layers/autocast_programs.py
(state functions, nesting, cache, gradients). Writes tests/data/autocast.json.

Run with PyTorch installed: `PYTHONPATH=$PWD python tools/record_autocast.py`.
"""

from __future__ import annotations

import json
import pathlib
import sys

ROOT = pathlib.Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from tests.layers.autocast_cases import AUTOCAST_DTYPES, CASES, VARIANTS, run_case  # noqa: E402
from tests.layers.autocast_programs import PROGRAMS, run_program  # noqa: E402


def main() -> None:
    import torch
    import torch.nn.functional  # noqa: F401
    import torch.utils._python_dispatch  # noqa: F401

    cases = {}
    for name in CASES:
        for acd in AUTOCAST_DTYPES:
            for variant in VARIANTS:
                cases[f"{name}/{acd}/{variant}"] = run_case(name, torch, acd, variant)
    programs = {name: run_program(name, torch) for name in PROGRAMS}
    out = {"torch": torch.__version__, "cases": cases, "programs": programs}
    path = ROOT / "tests/data/autocast.json"
    path.write_text(json.dumps(out, indent=0, sort_keys=True) + "\n")
    errors = sum("error" in r for r in cases.values())
    print(f"{path}: {len(cases)} cases ({errors} errors), {len(programs)} programs")


if __name__ == "__main__":
    main()
