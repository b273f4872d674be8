"""Shared benchmark helpers: one BLAS thread, medians of many repeats, ratio tables.

Import this module first in every bench script: it pins OpenBLAS/MKL/OMP to one thread before
NumPy loads (OPENBLAS_CORETYPE is left as the machine sets it).

BLAS kernels: a machine may pin OpenBLAS's kernel (OPENBLAS_CORETYPE, OPENBLAS_L2_SIZE) to
something other than what OpenBLAS would pick for its CPU. The matmul-heavy scripts print
which kernel ran (`blas_kernel`, threadpoolctl from the `dev` extra) and run themselves a second
time, in a subprocess, with those two variables unset (`rerun_with_autodetected_blas`): the
kernel users' machines get. Only that subprocess sees the change; tests and CI never do.
"""

from __future__ import annotations

import os
import statistics
import subprocess
import sys
import time
import timeit
from collections.abc import Callable
from typing import Any

# One BLAS thread unless KEYROUTE_BENCH_BLAS_THREADS says otherwise (to compare both settings).
for _var in ("OPENBLAS_NUM_THREADS", "OMP_NUM_THREADS", "MKL_NUM_THREADS"):
    os.environ[_var] = os.environ.get("KEYROUTE_BENCH_BLAS_THREADS", "1")

sys.path.insert(0, os.path.join(os.path.dirname(__file__), ".."))


#: The clock: this process's CPU time by default. On the shared machine a process waits for a
#: core a good part of the time, which wall time counts and CPU time does not; with one BLAS
#: thread (and PyTorch set to one thread) CPU time is what an idle machine's wall time would
#: be. KEYROUTE_BENCH_CLOCK=wall switches to time.perf_counter.
TIMER = time.perf_counter if os.environ.get("KEYROUTE_BENCH_CLOCK") == "wall" else time.process_time
CLOCK = "wall time" if TIMER is time.perf_counter else "process CPU time"

#: The variables that pin OpenBLAS's kernel choice; unset in the autodetect subprocess.
BLAS_PIN_VARIABLES = ("OPENBLAS_CORETYPE", "OPENBLAS_L2_SIZE")
_CHILD_FLAG = "KEYROUTE_BENCH_AUTODETECTED_BLAS"


def blas_kernel() -> str:
    """Which BLAS ran, and with which kernel ("openblas 0.3.31, kernel Haswell"), and how it was
    chosen (the pinning variables as set, or autodetected)."""
    import numpy  # noqa: F401  (loads the BLAS threadpoolctl inspects)

    try:
        from threadpoolctl import threadpool_info
    except ImportError:
        kernel = "unknown kernel (install threadpoolctl, in the dev extra, to see it)"
    else:
        libs = [i for i in threadpool_info() if i.get("user_api") == "blas"]
        kernel = (
            ", ".join(
                f"{i.get('internal_api')} {i.get('version')}, kernel {i.get('architecture')}"
                for i in libs
            )
            or "no BLAS found"
        )
    pins = [f"{v}={os.environ[v]}" for v in BLAS_PIN_VARIABLES if v in os.environ]
    how = "machine settings: " + ", ".join(pins) if pins else "autodetected (no pinning variable)"
    if os.environ.get(_CHILD_FLAG):
        how = "autodetected: " + ", ".join(BLAS_PIN_VARIABLES) + " unset in this process"
    return f"{kernel} [{how}]"


def is_autodetect_run() -> bool:
    return bool(os.environ.get(_CHILD_FLAG))


def rerun_with_autodetected_blas(script: str, argv: list[str]) -> None:
    """Run `script` again in a subprocess with OPENBLAS_CORETYPE and OPENBLAS_L2_SIZE unset (in
    that subprocess alone), unless this is that subprocess or neither variable is set here (the
    first run was already autodetected)."""
    if is_autodetect_run():
        return
    if not any(v in os.environ for v in BLAS_PIN_VARIABLES):
        print("\n(no BLAS pinning variable is set here: the run above is the autodetected one)")
        return
    env = {k: v for k, v in os.environ.items() if k not in BLAS_PIN_VARIABLES}
    env[_CHILD_FLAG] = "1"
    print("\n--- again, with " + " and ".join(BLAS_PIN_VARIABLES) + " unset ---", flush=True)
    subprocess.run([sys.executable, script, *argv], env=env, check=True)


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
    timer = timeit.Timer(fn, timer=TIMER)
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
    timers = {name: timeit.Timer(fn, timer=TIMER) for name, fn in cases.items()}
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


def trivial_ops() -> tuple[Any, Callable[..., Any], Any, Any]:
    """The dispatcher benchmarks' operators: `krbench::two` (a CPU kernel returning its first
    input) and `krbench::layered` (the same kernel below an AutogradCPU layer that redispatches,
    as a user layer would). Unboxed kernels, so a call measures the dispatcher alone.

    Returns (library, kernel, two, layered); destroy the library when done."""
    import keyroute
    from keyroute.dispatcher.keys import DispatchKey
    from keyroute.library import Library

    lib = Library._internal("krbench", "FRAGMENT")
    lib.define("two(Tensor a, Tensor b) -> Tensor")
    lib.define("layered(Tensor a, Tensor b) -> Tensor")

    def kernel(a, b):  # noqa: ANN001, ANN202
        return a

    lib.impl("two", kernel, "CPU")
    lib.impl("layered", kernel, "CPU")
    layered = keyroute.ops.krbench.layered.default
    below = keyroute._C._dispatch_keyset_full_after(DispatchKey.AutogradCPU)

    def autograd_layer(ks, a, b):  # noqa: ANN001, ANN202  (a user layer that redispatches)
        return layered.redispatch(ks & below, a, b)

    lib.impl("layered", autograd_layer, "AutogradCPU", with_keyset=True)
    return lib, kernel, keyroute.ops.krbench.two.default, layered
