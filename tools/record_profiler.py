"""Record torch.profiler's tables (operator names and call counts, not times) for the programs
in tests/profiler/programs.py.

    python tools/record_profiler.py   ->  tests/data/profiler_tables.json,
                                          tests/data/profiler_calls.json

Needs torch==2.13.0 (CPU). Each program runs once in a fresh namespace; see programs.summarize
for what is kept.
"""

from __future__ import annotations

import json
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from tests.profiler import calls  # noqa: E402
from tests.profiler.programs import programs, run, to_torch  # noqa: E402


def main() -> None:
    import torch
    import torch.utils._python_dispatch  # noqa: F401  (the dispatch-mode program's base class)

    torch.set_num_threads(1)
    out = {"torch_version": torch.__version__, "programs": {}}
    for name, src in programs().items():
        out["programs"][name] = run(to_torch(src), torch)
        print(name, sum(out["programs"][name]["all"].values()), "events")
    path = ROOT / "tests" / "data" / "profiler_tables.json"
    path.write_text(json.dumps(out, indent=0, sort_keys=True) + "\n", encoding="utf-8")
    print("wrote", path)
    # single calls' event trees (tests/profiler/calls.py)
    path = ROOT / "tests" / "data" / "profiler_calls.json"
    rec = {"torch_version": torch.__version__, "calls": calls.record(torch)}
    path.write_text(json.dumps(rec, indent=0, sort_keys=True) + "\n", encoding="utf-8")
    print("wrote", path, len(rec["calls"]), "calls")


if __name__ == "__main__":
    main()
