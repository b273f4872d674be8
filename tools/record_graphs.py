"""Record PyTorch 2.13's make_fx graphs (real and fake, with and without functionalize) of the
functions in tests/fx/graph_cases.py into tests/data/graphs.json: per case and mode, the
call_function nodes' targets with their values' shapes and dtypes.

    python tools/record_graphs.py
"""

import json
import pathlib
import sys
import warnings

import torch
from torch._decomp import core_aten_decompositions
from torch.func import functionalize
from torch.fx.experimental.proxy_tensor import make_fx

ROOT = pathlib.Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT / "tests" / "fx"))
import graph_cases  # noqa: E402

warnings.filterwarnings("ignore")


def main() -> None:
    out = {"torch": torch.__version__, "graphs": {}}
    for name in graph_cases.CASES:
        for mode in graph_cases.MODES:
            out["graphs"][f"{name}/{mode}"] = graph_cases.trace(
                torch, make_fx, functionalize, name, mode, core_aten_decompositions
            )
    path = ROOT / "tests" / "data" / "graphs.json"
    path.write_text(json.dumps(out, separators=(",", ":")) + "\n")
    print(f"wrote {len(out['graphs'])} graphs to {path}")


if __name__ == "__main__":
    main()
