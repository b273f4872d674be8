"""Schema parsing: keyroute's parser over every recorded PyTorch 2.13 schema (4,000+ texts),
cold (cache cleared) and cached, against torch._C.parse_schema when PyTorch is importable;
medians of interleaved rounds, printed as ratios. (The suite checks parsing; speed is measured
here, not in a timed test.)

    python bench/schema.py
"""

from __future__ import annotations

import gzip
import json
import pathlib
import statistics
import time

import _common  # noqa: F401  (one BLAS thread; must come first)
from _common import torch_or_none

from keyroute.dispatcher import schema as S
from keyroute.dispatcher.schema import parse_schema

DATA = pathlib.Path(__file__).resolve().parents[1] / "tests/data/schemas.json.gz"


def main() -> None:
    with gzip.open(DATA, "rt") as f:
        texts = [d["str"] for d in json.load(f)["schemas"]]
    torch = torch_or_none()

    def cold() -> None:
        S.parser._CACHE.clear()
        for t in texts:
            parse_schema(t)

    def cached() -> None:
        for t in texts:
            parse_schema(t)

    def theirs() -> None:
        for t in texts:
            torch._C.parse_schema(t)

    runs: dict[str, list[float]] = {"cold": [], "cached": [], "torch": []}
    for _ in range(5):
        for name, fn in (("cold", cold), ("cached", cached), ("torch", theirs if torch else None)):
            if fn is None:
                continue
            t0 = time.perf_counter()
            fn()
            runs[name].append(time.perf_counter() - t0)
    med = {k: statistics.median(v) for k, v in runs.items() if v}
    print(
        f"{len(texts)} schemas: keyroute cold {med['cold'] * 1e3:.0f} ms, cached "
        f"{med['cached'] * 1e3:.1f} ms",
        end="",
    )
    if "torch" in med:
        print(
            f"; torch._C.parse_schema {med['torch'] * 1e3:.0f} ms; cold / torch "
            f"{med['cold'] / med['torch']:.2f}x"
        )
    else:
        print(" (PyTorch not importable: no ratio)")


if __name__ == "__main__":
    main()
