"""Shared benchmark helpers: one BLAS thread, medians of many repeats, ratio tables.

Import this module first in every bench script: it pins OpenBLAS/MKL/OMP to one thread before
NumPy loads (OPENBLAS_CORETYPE is left as the machine sets it).
"""

from __future__ import annotations

import os
import statistics
import sys
import timeit
from collections.abc import Callable
from typing import Any

for _var in ("OPENBLAS_NUM_THREADS", "OMP_NUM_THREADS", "MKL_NUM_THREADS"):
    os.environ[_var] = "1"

sys.path.insert(0, os.path.join(os.path.dirname(__file__), ".."))


def torch_or_none() -> Any:
    """PyTorch (one thread) when importable, else None."""
    try:
        import torch
    except ImportError:
        return None
    torch.set_num_threads(1)
    return torch


def measure(fn: Callable[[], Any], *, repeat: int = 15, min_time: float = 0.05) -> float:
    """Median seconds per call over `repeat` runs of an auto-sized loop."""
    timer = timeit.Timer(fn)
    number = 1
    while True:
        t = timer.timeit(number)
        if t >= min_time or number >= 1 << 20:
            break
        number *= 2
    runs = [timer.timeit(number) / number for _ in range(repeat)]
    return statistics.median(runs)


def compare(
    cases: dict[str, Callable[[], Any]], *, rounds: int = 15, min_time: float = 0.02
) -> dict[str, float]:
    """Median seconds per call of each case, measured in interleaved rounds (one timed loop of
    every case per round): on a loaded machine a slow phase hits every case alike, so the
    ratios between cases hold even when absolute times drift."""
    timers = {name: timeit.Timer(fn) for name, fn in cases.items()}
    numbers = {}
    for name, timer in timers.items():
        number = 1
        while timer.timeit(number) < min_time and number < 1 << 20:
            number *= 2
        numbers[name] = number
    runs: dict[str, list[float]] = {name: [] for name in cases}
    for _ in range(rounds):
        for name, timer in timers.items():
            runs[name].append(timer.timeit(numbers[name]) / numbers[name])
    return {name: statistics.median(ts) for name, ts in runs.items()}


def fmt_time(seconds: float) -> str:
    if seconds < 1e-3:
        return f"{seconds * 1e6:8.2f} µs"
    if seconds < 1:
        return f"{seconds * 1e3:8.2f} ms"
    return f"{seconds:8.3f} s "


def table(title: str, rows: list[tuple[str, float, float | None]], ref_name: str) -> str:
    """Rows of (case, seconds, reference seconds or None) -> a text table with ratios."""
    width = max(len(r[0]) for r in rows) + 2
    out = [title, f"{'case':<{width}}{'time':>12}   ratio to {ref_name}"]
    for name, t, ref in rows:
        ratio = f"{t / ref:6.2f}x" if ref else "     -"
        out.append(f"{name:<{width}}{fmt_time(t):>12}   {ratio}")
    return "\n".join(out)
