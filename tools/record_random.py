"""Record PyTorch 2.13's CPU random streams for tests/random/test_streams.py.

Runs every case of tests/random/cases.py on torch and stores each returned value (tensors as
their raw bytes, so comparisons are bit for bit) in tests/data/random_streams.npz.

    python tools/record_random.py
"""

from __future__ import annotations

import json
import sys
from pathlib import Path

import numpy as np
import torch

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from tests.random.cases import CASES  # noqa: E402

OUT = ROOT / "tests" / "data" / "random_streams.npz"


def as_array(v: object) -> tuple[np.ndarray, str]:
    """A value as (raw array, dtype name): half types as their 16-bit patterns."""
    if isinstance(v, torch.Tensor):
        t = v.detach().contiguous()
        name = str(t.dtype).removeprefix("torch.")
        if t.dtype in (torch.float16, torch.bfloat16):
            return t.view(torch.int16).numpy().copy(), name
        return t.numpy().copy(), name
    raise TypeError(f"unexpected value {type(v).__name__}")


def main() -> None:
    assert torch.__version__.startswith("2.13"), torch.__version__
    arrays: dict[str, np.ndarray] = {}
    meta: dict[str, list[str]] = {}
    for name, fn in CASES.items():
        values = fn(torch)
        meta[name] = []
        for i, v in enumerate(values):
            arr, dt = as_array(v)
            arrays[f"{name}/{i}"] = arr
            meta[name].append(dt)
    arrays["__meta__"] = np.frombuffer(json.dumps(meta).encode(), dtype=np.uint8)
    np.savez_compressed(OUT, **arrays)
    print(f"{len(CASES)} cases, {len(arrays) - 1} values -> {OUT} ({OUT.stat().st_size} bytes)")


if __name__ == "__main__":
    main()
