"""Record PyTorch's behaviour for keyroute's extension tests (custom ops, modes, tools).

Runs every case of ``tests/library/cases.py`` and ``tests/utils/cases.py`` with ``M = torch``
and writes ``tests/data/extension_library.json`` and ``tests/data/extension_utils.json``
(one case per line)::

    /work/venv/bin/python tools/record_extension.py            # record everything
    /work/venv/bin/python tools/record_extension.py --check    # compare with the stored files

A case that raises is recorded as ``{"__case_error__": "<type>: <message>"}``.
"""

from __future__ import annotations

import argparse
import json
import os
import sys
import warnings
from typing import Any

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
if ROOT not in sys.path:
    sys.path.insert(0, ROOT)

FILES = {
    "library": os.path.join(ROOT, "tests", "data", "extension_library.json"),
    "utils": os.path.join(ROOT, "tests", "data", "extension_utils.json"),
}


def run_cases(cases: dict[str, Any], M: Any) -> dict[str, Any]:  # noqa: N803
    out = {}
    for name, fn in cases.items():
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")
            try:
                out[name] = json.loads(json.dumps(fn(M)))
            except Exception as e:  # noqa: BLE001 - recorded as the case's result
                out[name] = {"__case_error__": f"{type(e).__name__}: {e}"}
    return out


def dumps(torch: Any, results: dict[str, Any]) -> str:
    lines = [
        f"  {json.dumps(k)}: {json.dumps(v, sort_keys=True, ensure_ascii=False)}"
        for k, v in results.items()
    ]
    head = f'{{\n  "torch_version": {json.dumps(torch.__version__)},\n  "cases": {{\n'
    return head + ",\n".join("  " + ln for ln in lines) + "\n  }\n}\n"


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--check", action="store_true", help="compare with the stored files")
    args = ap.parse_args(argv)
    import torch

    torch.set_num_threads(1)
    from tests.library import cases as library_cases
    from tests.utils import cases as utils_cases

    status = 0
    for key, module in (("library", library_cases), ("utils", utils_cases)):
        results = run_cases(module.CASES, torch)
        text = dumps(torch, results)
        path = FILES[key]
        if args.check:
            with open(path, encoding="utf-8") as f:
                same = f.read() == text
            print(f"{path}: {'up to date' if same else 'DIFFERS'}")
            status |= not same
        else:
            with open(path, "w", encoding="utf-8") as f:
                f.write(text)
            errors = [
                k for k, v in results.items() if isinstance(v, dict) and "__case_error__" in v
            ]
            print(f"wrote {path}: {len(results)} cases; torch raised in {errors}")
    return status


if __name__ == "__main__":
    raise SystemExit(main())
