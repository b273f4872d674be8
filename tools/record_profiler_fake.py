"""Record torch.profiler's event trees of single calls under FakeTensorMode
(tests/profiler/fake_calls.py).

    python tools/record_profiler_fake.py  ->  tests/data/profiler_fake_calls.json
"""

from __future__ import annotations

import json
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from tests.profiler.fake_calls import record  # noqa: E402


def main() -> None:
    import torch
    from torch._subclasses.fake_tensor import FakeTensorMode

    rec = {"torch_version": torch.__version__, "calls": record(torch, FakeTensorMode)}
    path = ROOT / "tests" / "data" / "profiler_fake_calls.json"
    path.write_text(json.dumps(rec, indent=0, sort_keys=True) + "\n", encoding="utf-8")
    print("wrote", path, len(rec["calls"]), "calls")


if __name__ == "__main__":
    main()
