"""Record PyTorch's outcome of every issue-12 repro into tests/data/reliability.json.

    python tools/record_reliability.py

Each outcome is {"error": [type name, first line of the message]} or {"value": a JSON form of
the result (tensors as [dtype, shape, values])}.
"""

from __future__ import annotations

import json
import math
import os
import sys
from typing import Any

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, HERE)
from reliability_cases import CASES  # noqa: E402

OUT = os.path.join(HERE, "..", "tests", "data", "reliability.json")


def _dtype(value: Any) -> str:
    return "torch." + str(value.dtype).rpartition(".")[2]


def encode(value: Any) -> Any:
    """A JSON form of a result, the same for PyTorch's and keyroute's objects."""
    if hasattr(value, "tolist") and hasattr(value, "dtype") and hasattr(value, "shape"):
        if str(value.device) == "meta":
            return ["meta", _dtype(value), list(value.shape)]
        return [_dtype(value), list(value.shape), encode(value.tolist())]
    if isinstance(value, float):
        return repr(value) if math.isnan(value) or math.isinf(value) else value
    if isinstance(value, (list, tuple)):
        return [encode(v) for v in value]
    if value is None or isinstance(value, (bool, int, str)):
        return value
    return str(value)


def run_case(torch: Any, source: str) -> dict[str, Any]:
    namespace: dict[str, Any] = {"torch": torch, "F": torch.nn.functional}
    try:
        exec(source, namespace)
    except Exception as exc:  # noqa: BLE001 - the outcome is the error
        first = str(exc).strip().splitlines()[0] if str(exc).strip() else ""
        # keyroute names its own module where PyTorch says torch. (Tensor.type()): the same
        # message, read before it is cut to length
        first = first.replace("keyroute.", "torch.")
        return {"error": [type(exc).__name__, first[:300]]}
    return {"value": encode(namespace.get("result"))}


def main() -> None:
    import torch

    data = {"torch_version": torch.__version__, "cases": {}}
    for name, source in CASES.items():
        data["cases"][name] = run_case(torch, source)
    with open(OUT, "w") as f:
        json.dump(data, f, indent=1, sort_keys=True)
        f.write("\n")
    print(f"recorded {len(CASES)} cases into {os.path.relpath(OUT)}")


if __name__ == "__main__":
    main()
