"""Record PyTorch 2.13's AOT Autograd graphs (functorch.compile.aot_function with nop
compilers) of tests/fx/aot_cases.py into tests/data/graphs_aot.json.

    python tools/record_aot_graphs.py
"""

import json
import pathlib
import sys
import warnings

import torch
from functorch.compile import aot_function

ROOT = pathlib.Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))
from tests.fx import aot_cases  # noqa: E402

warnings.filterwarnings("ignore")


def main() -> None:
    out = {"torch": torch.__version__, "graphs": {}}
    for name in aot_cases.TRAINING:
        out["graphs"][f"training/{name}"] = aot_cases.trace(torch, aot_function, "training", name)
    for name in aot_cases.INFERENCE:
        out["graphs"][f"inference/{name}"] = aot_cases.trace(torch, aot_function, "inference", name)
    path = ROOT / "tests" / "data" / "graphs_aot.json"
    path.write_text(json.dumps(out, separators=(",", ":")) + "\n")
    print(f"wrote {len(out['graphs'])} AOT graphs to {path}")


if __name__ == "__main__":
    main()
