"""mode="reduce-overhead" for the CPU (PyTorch's CUDA-graph trees, in spirit)."""

from __future__ import annotations

from typing import Any


def replay(run: Any, example_inputs: list[Any]) -> Any:
    return run
