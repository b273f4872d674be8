"""Record PyTorch 2.13's GradScaler("cpu") and torch.library.register_autocast behaviour: the
programs of tests/layers/amp_programs.py. Writes tests/data/amp.json.

Run with PyTorch installed: `PYTHONPATH=$PWD python tools/record_amp.py`.
"""

from __future__ import annotations

import json
import pathlib
import sys

ROOT = pathlib.Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from tests.layers.amp_programs import PROGRAMS, run_program  # noqa: E402


def main() -> None:
    import torch

    programs = {name: run_program(name, torch) for name in PROGRAMS}
    out = {"torch": torch.__version__, "programs": programs}
    path = ROOT / "tests/data/amp.json"
    path.write_text(json.dumps(out, indent=0, sort_keys=True) + "\n")
    errors = sum("error" in r for r in programs.values())
    print(f"{path}: {len(programs)} programs ({errors} errors)")


if __name__ == "__main__":
    main()
