"""Meta tensors and FakeTensorMode: per-operator cost against PyTorch's, a fake forward through
a 32-block 8192-wide MLP stack, and `keyroute plan` of the 70B configuration (time and peak
RSS, in a fresh process).

Cases, each timed with keyroute and (when installed) PyTorch in this process:
  - an add of two (4096, 8192) tensors, on meta tensors and under FakeTensorMode;
  - the seed's 6-op RMSNorm chain (pow, mean, add, rsqrt, mul, mul), reported per operator;
  - a forward through 32 blocks of `x = x + silu(linear(x, w))` on a (4, 128, 8192) input with
    8192x8192 weights (4 aten operators per block: t, mm/view, silu, add), made in the mode.
Targets (the issue): at most 0.1x PyTorch's per-operator time; planning the 70B configuration
in under 2 s with a peak RSS under 200 MB.

    python bench/fake.py
"""

from __future__ import annotations

import os
import statistics
import subprocess
import sys
from typing import Any

import _common  # noqa: F401  (one BLAS thread; must come first)
from _common import fmt_time, measure, torch_or_none

import keyroute
from keyroute.subclasses import FakeTensorMode

ROOT = os.path.join(os.path.dirname(__file__), "..")
PLAN_70B = [
    "plan",
    "--layers",
    "80",
    "--hidden",
    "8192",
    "--ffn",
    "28672",
    "--heads",
    "64",
    "--kv-heads",
    "8",
    "--vocab",
    "128256",
    "--dtype",
    "bfloat16",
    "--batch",
    "1",
    "--seq",
    "4096",
]
BLOCKS, WIDTH = 32, 8192


def _rms(lib: Any, x: Any, w: Any) -> Any:
    var = x.pow(2).mean(-1, keepdim=True)
    return x * lib.rsqrt(var + 1e-6) * w


def _stack(lib: Any, x: Any, weights: list[Any]) -> Any:
    F = lib.nn.functional
    for w in weights:
        x = x + F.silu(F.linear(x, w))
    return x


def _cases(lib: Any, mode_cls: Any) -> dict[str, float]:
    """Seconds per call of each case with library `lib` (keyroute or torch)."""
    out: dict[str, float] = {}
    a = lib.empty(4096, 8192, device="meta")
    b = lib.empty(4096, 8192, device="meta")
    w = lib.empty(8192, device="meta")
    out["meta add"] = measure(lambda: a + b)
    out["meta RMSNorm (per op)"] = measure(lambda: _rms(lib, a, w)) / 6
    with mode_cls():
        fa, fb, fw = lib.empty(4096, 8192), lib.empty(4096, 8192), lib.empty(8192)
        out["fake add"] = measure(lambda: fa + fb)
        out["fake RMSNorm (per op)"] = measure(lambda: _rms(lib, fa, fw)) / 6
        x = lib.empty(4, 128, WIDTH)
        weights = [lib.empty(WIDTH, WIDTH) for _ in range(BLOCKS)]
        out["fake MLP stack forward"] = measure(lambda: _stack(lib, x, weights), repeat=5)
    mx = lib.empty(4, 128, WIDTH, device="meta")
    mweights = [lib.empty(WIDTH, WIDTH, device="meta") for _ in range(BLOCKS)]
    out["meta MLP stack forward"] = measure(lambda: _stack(lib, mx, mweights), repeat=5)
    return out


# Runs the command and reports its wall time and peak RSS. A small launcher process does it:
# a child forked from this (large, PyTorch-importing) process would inherit its high-water RSS
# mark through exec, so the command is started from the launcher's small image instead.
_LAUNCHER = """
import resource, subprocess, sys, time
start = time.perf_counter()
done = subprocess.run(sys.argv[1:], capture_output=True, text=True)
wall = time.perf_counter() - start
sys.stdout.write(done.stdout)
sys.stderr.write(done.stderr)
rss = resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss * 1024  # KiB on Linux
print(f"@@ {wall} {rss} {done.returncode}")
"""


def _run_measured(cmd: list[str]) -> tuple[float, int, str]:
    """Wall seconds and peak RSS (bytes) of one fresh process running cmd; its stdout."""
    env = dict(os.environ, PYTHONPATH=os.path.abspath(ROOT))
    done = subprocess.run(
        [sys.executable, "-c", _LAUNCHER, *cmd], capture_output=True, text=True, env=env
    )
    *out, last = done.stdout.rstrip("\n").split("\n")
    _, wall, rss, rc = last.split()
    if rc != "0":
        raise RuntimeError(f"{cmd} failed: {done.stderr}")
    return float(wall), int(rss), "\n".join(out)


def main() -> None:
    torch = torch_or_none()
    ours = _cases(keyroute, FakeTensorMode)
    theirs: dict[str, float] = {}
    if torch is not None:
        from torch._subclasses.fake_tensor import FakeTensorMode as TorchFakeTensorMode

        theirs = _cases(torch, TorchFakeTensorMode)
    print("meta tensors and FakeTensorMode, keyroute against PyTorch (target <= 0.10x per op)")
    width = max(map(len, ours)) + 2
    print(f"{'case':<{width}}{'keyroute':>12}{'PyTorch':>12}   ratio")
    for name, t in ours.items():
        ref = theirs.get(name)
        ratio = f"{t / ref:6.3f}x" if ref else "     -"
        ref_text = fmt_time(ref) if ref else "-"
        print(f"{name:<{width}}{fmt_time(t):>12}{ref_text:>12}   {ratio}")
    per_block = ours["fake MLP stack forward"] / BLOCKS
    print(
        f"fake MLP stack: {BLOCKS} blocks of {WIDTH} wide, {fmt_time(per_block).strip()} per "
        f"block (4 operators)"
    )

    runs = [_run_measured([sys.executable, "-m", "keyroute.cli", *PLAN_70B]) for _ in range(3)]
    imports = [_run_measured([sys.executable, "-c", "import keyroute"]) for _ in range(3)]
    wall = statistics.median(r[0] for r in runs)
    rss = max(r[1] for r in runs)
    imp = statistics.median(r[0] for r in imports)
    imp_rss = max(r[1] for r in imports)
    params = next(line for line in runs[0][2].splitlines() if line.startswith("parameters"))
    print(
        "\nkeyroute plan (70B: 80 layers, 8192 hidden, 28672 ffn, 64/8 heads, 128256 vocab, "
        "bf16, batch 1, seq 4096), fresh process, median of 3"
    )
    print(f"  {params}")
    print(f"  wall time   {wall:6.2f} s   (target < 2 s; `import keyroute` alone {imp:.2f} s)")
    print(
        f"  peak RSS    {rss / 2**20:6.1f} MB (target < 200 MB; `import keyroute` alone "
        f"{imp_rss / 2**20:.1f} MB)"
    )


if __name__ == "__main__":
    main()
