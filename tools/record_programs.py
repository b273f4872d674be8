"""Run each program in tests/programs/ on PyTorch and record its stdout and exit status into
tests/data/programs/<name>.out / programs.json (the oracle for tests/programs/test_programs.py).

    python tools/record_programs.py [NAME ...]
"""

from __future__ import annotations

import json
import pathlib
import subprocess
import sys
import time

ROOT = pathlib.Path(__file__).resolve().parents[1]
PROGRAMS = ROOT / "tests/programs"
DATA = ROOT / "tests/data/programs"


def main(names: list[str]) -> None:
    DATA.mkdir(parents=True, exist_ok=True)
    index_path = DATA / "programs.json"
    index = json.loads(index_path.read_text()) if index_path.exists() else {}
    import torch

    for path in sorted(PROGRAMS.glob("*.py")):
        if path.name.startswith(("test_", "conftest", "__")) or (names and path.stem not in names):
            continue
        start = time.perf_counter()
        try:
            proc = subprocess.run(
                [sys.executable, str(path)],
                capture_output=True,
                text=True,
                timeout=300,
                cwd=PROGRAMS,
            )
        except subprocess.TimeoutExpired:
            print(f"{path.stem}: timed out", flush=True)
            continue
        seconds = time.perf_counter() - start
        (DATA / f"{path.stem}.out").write_text(proc.stdout)
        index[path.stem] = {"returncode": proc.returncode, "seconds": round(seconds, 2)}
        print(f"{path.stem:32s} rc={proc.returncode} {seconds:6.2f}s", flush=True)
        if proc.returncode:
            print(proc.stderr[-2000:])
        index["_torch"] = torch.__version__
        # Written after every program, so that an interrupted run keeps what it recorded.
        index_path.write_text(json.dumps({k: index[k] for k in sorted(index)}, indent=1) + "\n")


if __name__ == "__main__":
    main(sys.argv[1:])
