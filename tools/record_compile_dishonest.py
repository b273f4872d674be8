"""Record what torch.compile makes of examples/dishonest_mutation.py's dishonest step, per
backend, into tests/data/compile_dishonest.json: the result and the cache's sum after.

    python tools/record_compile_dishonest.py
"""

import json
import pathlib
import sys

ROOT = pathlib.Path(__file__).resolve().parents[1]


def main() -> None:
    import warnings

    import torch

    warnings.filterwarnings("ignore")
    sys.argv.append("--torch")
    sys.path.insert(0, str(ROOT / "examples"))
    import dishonest_mutation as d

    out = {"torch": torch.__version__, "backends": {}}
    q, k = torch.ones(1, 4), torch.full((2, 4), 2.0)
    for be in ["eager", "aot_eager", "inductor"]:
        torch._dynamo.reset()
        cache = torch.zeros(2, 4)
        r = torch.compile(d.step, backend=be)(q, cache, k)
        out["backends"][be] = {"result": r.tolist(), "cache_sum": cache.sum().item()}
    path = ROOT / "tests" / "data" / "compile_dishonest.json"
    path.write_text(json.dumps(out, indent=1) + "\n")
    print(f"wrote {path}")


if __name__ == "__main__":
    main()
