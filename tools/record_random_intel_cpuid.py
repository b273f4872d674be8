"""Record PyTorch 2.13's CPU random streams as an Intel CPU gives them, for
tests/random/test_streams_intel_cpuid.py.

PyTorch's kernels may pick a path by CPU vendor (cpuinfo's CPUID): older PyTorch drew
bernoulli_(float p) from MKL's MCG31 stream on Intel CPUs only. To see what 2.13 does on an
Intel CPU from an AMD machine, this script runs the cases of tests/random/cases.py under
valgrind, whose CPU emulation answers CPUID with "GenuineIntel" (and AVX2, no AVX-512); a child
process started under the same valgrind checks that answer first. Each value's SHA-256 (of its
raw bytes, half types as 16-bit patterns as tools/record_random.py stores them) and dtype go to
tests/data/random_streams_intel_cpuid.json: digests, as the recording of 2026-12-02 came out
identical to tests/data/random_streams.npz (an AMD CPU with AVX-512), value for value.

    python tools/record_random_intel_cpuid.py      (re-runs itself under valgrind --tool=none)
"""

from __future__ import annotations

import os
import subprocess
import sys
import tempfile
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
OUT = ROOT / "tests" / "data" / "random_streams_intel_cpuid.json"
_FLAG = "KEYROUTE_RECORD_UNDER_VALGRIND"

_CPUID_C = r"""
#include <cpuid.h>
#include <stdio.h>
#include <string.h>
int main(void) {
  unsigned a, b, c, d; char v[13];
  __cpuid(0, a, b, c, d);
  memcpy(v, &b, 4); memcpy(v + 4, &d, 4); memcpy(v + 8, &c, 4); v[12] = 0;
  puts(v);
  return 0;
}
"""


def _vendor_probe() -> str:
    """The CPU vendor a process sees (under valgrind with --trace-children: valgrind's)."""
    d = tempfile.mkdtemp()
    src, exe = os.path.join(d, "cpuid.c"), os.path.join(d, "cpuid")
    Path(src).write_text(_CPUID_C)
    subprocess.run(["gcc", "-O1", "-o", exe, src], check=True)
    return subprocess.run([exe], capture_output=True, text=True, check=True).stdout.strip()


def record() -> None:
    import hashlib
    import json

    import torch

    sys.path.insert(0, str(ROOT))
    from tests.random.cases import CASES
    from tools.record_random import as_array

    assert torch.__version__.startswith("2.13"), torch.__version__
    vendor = _vendor_probe()
    assert vendor == "GenuineIntel", f"not run under valgrind's Intel CPUID: {vendor}"
    values: dict[str, list[list[str]]] = {}
    for name, fn in CASES.items():
        values[name] = []
        for v in fn(torch):
            arr, dt = as_array(v)
            values[name].append([hashlib.sha256(arr.tobytes()).hexdigest(), dt])
    cpu = [vendor, torch.backends.cpu.get_cpu_capability()]
    OUT.write_text(json.dumps({"cpu": cpu, "values": values}, indent=0, sort_keys=True) + "\n")
    print(f"{len(CASES)} cases on {cpu} -> {OUT} ({OUT.stat().st_size} bytes)")


if __name__ == "__main__":
    if os.environ.get(_FLAG):
        record()
    else:
        env = dict(os.environ, **{_FLAG: "1"})
        cmd = ["valgrind", "-q", "--tool=none", "--trace-children=yes", sys.executable, __file__]
        sys.exit(subprocess.run(cmd, env=env).returncode)
