#!/usr/bin/env python
"""Record PyTorch's dispatcher behaviour for keyroute's conformance tests.

Runs every scenario of ``tests/dispatcher/scenarios.py`` with ``M = torch`` and writes
``tests/data/dispatch_conformance.json``::

    {
      "format": 1,
      "torch_version": "2.13.0+cpu",
      "generator": "tools/record_dispatch.py",
      "baseline_table": [... normalized _dispatch_dump_table lines of an op without kernels ...],
      "scenarios": {name: normalized result, ...}
    }

Tables inside results are stored relative to ``baseline_table`` (see ``scenarios.normalize``).
One scenario per line, so that re-recordings give readable diffs.

Usage::

    /work/venv/bin/python tools/record_dispatch.py            # record everything
    /work/venv/bin/python tools/record_dispatch.py --check    # compare with the stored file
    /work/venv/bin/python tools/record_dispatch.py --only table/ --stdout
"""

from __future__ import annotations

import argparse
import json
import os
import sys
import time
from typing import Any

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
DATA_PATH = os.path.join(ROOT, "tests", "data", "dispatch_conformance.json")
BASELINE_SCENARIO = "baseline/empty_op"

if ROOT not in sys.path:
    sys.path.insert(0, ROOT)


def _scenarios() -> Any:
    from tests.dispatcher import scenarios

    return scenarios


def record_baseline(torch: Any) -> list[str]:
    S = _scenarios()
    return S.normalize(S.SCENARIOS[BASELINE_SCENARIO](torch))["table_full"]


def record(torch: Any, names: list[str] | None = None, verbose: bool = False) -> dict[str, Any]:
    S = _scenarios()
    baseline = record_baseline(torch)
    results: dict[str, Any] = {}
    for name in names if names is not None else list(S.SCENARIOS):
        if verbose:
            print("recording", name, file=sys.stderr, flush=True)
        results[name] = S.normalize(S.SCENARIOS[name](torch), baseline)
    return {
        "format": 1,
        "torch_version": torch.__version__,
        "generator": "tools/record_dispatch.py",
        "baseline_table": baseline,
        "scenarios": results,
    }


def dumps(data: dict[str, Any]) -> str:
    """Compact JSON with one scenario per line."""
    head = {k: v for k, v in data.items() if k != "scenarios"}
    lines = ["{"]
    for k, v in head.items():
        lines.append(f"{json.dumps(k)}: {json.dumps(v, separators=(',', ':'))},")
    lines.append('"scenarios": {')
    items = list(data["scenarios"].items())
    for i, (name, res) in enumerate(items):
        sep = "," if i < len(items) - 1 else ""
        lines.append(
            f"{json.dumps(name)}: {json.dumps(res, separators=(',', ':'), sort_keys=False)}{sep}"
        )
    lines.append("}")
    lines.append("}")
    return "\n".join(lines) + "\n"


def load(path: str = DATA_PATH) -> dict[str, Any]:
    with open(path, encoding="utf-8") as f:
        return json.load(f)


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    ap.add_argument("--out", default=DATA_PATH, help="output file (default: %(default)s)")
    ap.add_argument("--only", default="", help="record only scenarios whose name starts with this")
    ap.add_argument("--stdout", action="store_true", help="print instead of writing the file")
    ap.add_argument(
        "--check", action="store_true", help="compare with the stored file; exit 1 on difference"
    )
    ap.add_argument("-v", "--verbose", action="store_true")
    args = ap.parse_args(argv)

    import torch

    S = _scenarios()
    names = [n for n in S.SCENARIOS if n.startswith(args.only)]
    t0 = time.time()
    data = record(torch, names, verbose=args.verbose)
    elapsed = time.time() - t0

    if args.check:
        stored = load(args.out)
        bad = []
        if stored.get("baseline_table") != data["baseline_table"]:
            bad.append("<baseline_table>")
        for n in names:
            if stored["scenarios"].get(n) != data["scenarios"][n]:
                bad.append(n)
        if not args.only:
            missing = sorted(set(stored["scenarios"]) ^ set(data["scenarios"]))
            bad += [f"<not in both> {n}" for n in missing]
        for n in bad:
            print("DIFFERS:", n)
        print(f"checked {len(names)} scenarios in {elapsed:.1f}s: {len(bad)} differences")
        return 1 if bad else 0

    if args.only and not args.stdout:
        # merge into the existing file
        try:
            stored = load(args.out)
        except FileNotFoundError:
            stored = {"scenarios": {}}
        merged = dict(stored.get("scenarios", {}))
        merged.update(data["scenarios"])
        order = list(S.SCENARIOS)
        data["scenarios"] = {n: merged[n] for n in order if n in merged}

    text = dumps(data)
    if args.stdout:
        sys.stdout.write(text)
    else:
        os.makedirs(os.path.dirname(args.out), exist_ok=True)
        with open(args.out, "w", encoding="utf-8") as f:
            f.write(text)
        rel = os.path.relpath(args.out, ROOT)
        print(
            f"recorded {len(names)} scenarios in {elapsed:.1f}s -> {rel} "
            f"({len(text.encode()) / 1e6:.2f} MB, torch {torch.__version__})"
        )
    return 0


if __name__ == "__main__":
    sys.exit(main())
