"""Record ``torch.library.infer_schema`` on the catalogue in ``tests/dispatcher/infer_cases.py``.

Needs torch. Writes ``tests/data/infer_schema.json``::

    python tools/record_infer_schema.py [--out PATH]

Each entry: ``{"name", "mutates_args", "extra"}`` plus either ``"result"`` (the schema string)
or ``"error_type"`` and ``"message"``. Where the result parses, ``"parsed"`` is what
``str(torch._C.parse_schema(op + result))`` gives (or ``"parse_error"`` where it does not).
"""

from __future__ import annotations

import argparse
import json
import logging
import os
import sys

import torch

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(HERE)
DEFAULT_OUT = os.path.join(ROOT, "tests", "data", "infer_schema.json")


def describe(v: object) -> object:
    if isinstance(v, str) or v is None:
        return v
    if isinstance(v, dict):
        return {"dict": sorted(v)}
    if isinstance(v, (list, tuple, set, frozenset)):
        return {type(v).__name__: sorted(v) if isinstance(v, (set, frozenset)) else list(v)}
    return repr(v)


def run_case(name: str, make) -> dict:
    fn, mutates_args, extra = make(torch)
    entry: dict = {
        "name": name,
        "mutates_args": describe(mutates_args),
        "extra": {k: repr(v) for k, v in extra.items()},
    }
    try:
        result = torch.library.infer_schema(fn, mutates_args=mutates_args, **extra)
    except Exception as e:
        entry["error_type"] = type(e).__name__
        entry["message"] = str(e)
        return entry
    entry["result"] = result
    text = result if "op_name" in extra else "f" + result
    try:
        entry["parsed"] = str(torch._C.parse_schema(text))
    except Exception as e:
        entry["parse_error"] = f"{type(e).__name__}: {e}"
    return entry


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--out", default=DEFAULT_OUT)
    args = ap.parse_args(argv)
    logging.disable(logging.WARNING)  # torch logs about opaque types on every refusal
    sys.path.insert(0, ROOT)
    from tests.dispatcher.infer_cases import CASES

    entries = [run_case(name, make) for name, make in CASES.items()]
    with open(args.out, "w") as f:
        json.dump({"torch_version": torch.__version__, "cases": entries}, f, indent=1)
        f.write("\n")
    n_err = sum("error_type" in e for e in entries)
    print(f"wrote {args.out}: {len(entries)} cases, {n_err} refusals", file=sys.stderr)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
