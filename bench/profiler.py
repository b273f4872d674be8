"""The profiler's cost per operator call: `a + b` on (16,) tensors, a linear layer's forward
(three operator events per call) and a training step, each timed un-profiled and inside a
running `keyroute.profiler.profile` (with_dispatch off, then on), in interleaved rounds. The
difference divided by the number of operator events recorded is the per-call overhead
(the brief's bound: 2 µs with with_dispatch=False).

    python bench/profiler.py
"""

from __future__ import annotations

import statistics
import time
from collections.abc import Callable

import _common  # noqa: F401  (one BLAS thread; must come first)

import keyroute
from keyroute.profiler import profile


def _loop(fn: Callable[[], object], n: int) -> float:
    t0 = time.perf_counter()
    for _ in range(n):
        fn()
    return time.perf_counter() - t0


def per_call(
    fn: Callable[[], object], n: int, rounds: int, **kw: object
) -> tuple[float, float, int]:
    """(plain s/call, profiled s/call, events per call), medians over interleaved rounds."""
    plain, prof = [], []
    events = 0
    for _ in range(rounds):
        fn()
        plain.append(_loop(fn, n) / n)
        with profile(**kw) as p:
            fn()  # resolve once inside (the profile drops the caches on entry)
            t = _loop(fn, n)
        prof.append(t / n)
        events = round(len(p.events()) / (n + 1))  # the warm-up call's events included
    return statistics.median(plain), statistics.median(prof), events


def main() -> None:
    a, b = keyroute.ones(16), keyroute.ones(16)
    lin = keyroute.nn.Linear(16, 16)
    x = keyroute.ones(4, 16)

    def add() -> object:
        return a + b

    def linear() -> object:
        with keyroute.no_grad():
            return lin(x)

    print(f"{'case':<26}{'plain':>11}{'profiled':>11}{'events':>8}{'overhead/event':>16}")
    for name, fn, n in (("a + b", add, 3000), ("linear forward (no grad)", linear, 1000)):
        for kw in ({}, {"with_dispatch": True}):
            p0, p1, ev = per_call(fn, n, 9, **kw)
            ev = max(ev, 1)
            label = name + (" [dispatch]" if kw else "")
            print(
                f"{label:<26}{p0 * 1e6:>9.2f}us{p1 * 1e6:>9.2f}us{ev:>8}"
                f"{(p1 - p0) / ev * 1e6:>14.2f}us"
            )


if __name__ == "__main__":
    main()
