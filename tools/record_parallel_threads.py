"""Record PyTorch 2.13's thread-count functions (torch.get_num_threads, set_num_threads,
get/set_num_interop_threads) into tests/data/runtime/parallel_threads.json.

Each case runs in a fresh PyTorch process (the counts are process state, and the defaults are
read from MKL_NUM_THREADS / OMP_NUM_THREADS at start-up) with the case's environment; each
step is an expression evaluated with `torch` bound to PyTorch, and its value or error is kept.
The number of CPUs of the recording machine is stored with the data: the defaults depend on it.

    python tools/record_parallel_threads.py
"""

from __future__ import annotations

import json
import os
import pathlib
import subprocess
import sys

OUT = pathlib.Path(__file__).parents[1] / "tests/data/runtime/parallel_threads.json"

CASES: list[dict[str, object]] = [
    {"env": {}, "steps": ["torch.get_num_threads()", "torch.get_num_interop_threads()"]},
    {"env": {"OMP_NUM_THREADS": "1"}, "steps": ["torch.get_num_threads()"]},
    {"env": {"OMP_NUM_THREADS": "5"}, "steps": ["torch.get_num_threads()"]},
    {"env": {"MKL_NUM_THREADS": "1", "OMP_NUM_THREADS": "2"}, "steps": ["torch.get_num_threads()"]},
    {"env": {"MKL_NUM_THREADS": "2", "OMP_NUM_THREADS": "1"}, "steps": ["torch.get_num_threads()"]},
    {
        "env": {},
        "steps": [
            "torch.set_num_threads(1)",
            "torch.get_num_threads()",
            "torch.set_num_threads(3)",
            "torch.get_num_threads()",
            "torch.set_num_threads(0)",
            "torch.set_num_threads(-2)",
            "torch.set_num_threads(1.5)",
            "torch.set_num_threads('2')",
            "torch.set_num_threads(True)",
            "torch.set_num_threads(None)",
            "torch.get_num_threads()",
        ],
    },
    {
        "env": {},
        "steps": [
            "torch.get_num_interop_threads()",
            "torch.set_num_interop_threads(0)",
            "torch.set_num_interop_threads('x')",
            "torch.set_num_interop_threads(1)",
            "torch.get_num_interop_threads()",
            "torch.set_num_interop_threads(1)",
            "torch.get_num_interop_threads()",
        ],
    },
]

_CHILD = r"""
import json, sys
import torch
out = []
for expr in json.loads(sys.argv[1]):
    try:
        out.append({"value": repr(eval(expr, {"torch": torch}))})
    except Exception as e:
        out.append({"error": type(e).__name__, "message": str(e)})
print(json.dumps(out))
"""


def main() -> None:
    import torch

    base = {k: v for k, v in os.environ.items() if k not in ("MKL_NUM_THREADS", "OMP_NUM_THREADS")}
    cases = []
    for case in CASES:
        env = {**base, **case["env"]}  # type: ignore[dict-item]
        run = subprocess.run(
            [sys.executable, "-c", _CHILD, json.dumps(case["steps"])],
            env=env,
            capture_output=True,
            text=True,
            check=True,
        )
        cases.append({**case, "outcomes": json.loads(run.stdout)})
    data = {"torch": torch.__version__, "cpus": len(os.sched_getaffinity(0)), "cases": cases}
    OUT.write_text(json.dumps(data, indent=1) + "\n")
    print(f"wrote {len(cases)} cases to {OUT}")


if __name__ == "__main__":
    main()
