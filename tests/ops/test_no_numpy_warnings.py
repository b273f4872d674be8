"""PyTorch computes inf and NaN silently; keyroute's NumPy kernels must not leak NumPy's
floating-point RuntimeWarnings (log(0), 0/0, overflow) to the user.

Checked in a fresh interpreter: pytest resets the warning filters that imports install during
collection, so only a process of its own sees what a user's program sees.
"""

from __future__ import annotations

import json
import os
import subprocess
import sys

ROOT = os.path.join(os.path.dirname(__file__), "..", "..")

_PROGRAM = r"""
import json, sys, warnings
import numpy as np
import keyroute
from tests.ops.harness import family_samples, rng_for

def op(overload):
    name, _, ov = (overload if "." in overload else overload + ".default").partition(".")
    return getattr(getattr(keyroute.ops.aten, name), ov)

leaked, hit = {}, 0
for family in ("elementwise", "reductions", "nn", "linalg"):
    for sample in family_samples(family):
        args, kwargs = sample.make(keyroute, rng_for(sample.id))
        for override in (False, True):
            with warnings.catch_warnings(record=True) as caught:
                if override:  # without keyroute's filter: proves the sample hits a special value
                    warnings.simplefilter("always")
                try:
                    op(sample.op)(*args, **kwargs)
                except Exception:
                    pass
            got = [str(w.message) for w in caught if issubclass(w.category, RuntimeWarning)]
            if got and not override:
                leaked[sample.id] = got[0]
            hit += bool(got) and override
with warnings.catch_warnings(record=True) as caught:
    np.log(np.zeros(1))  # the user's own NumPy call keeps its warning
users = sum(issubclass(w.category, RuntimeWarning) for w in caught)
print(json.dumps({"leaked": leaked, "hit": hit, "users": users}))
"""


def test_kernels_leak_no_numpy_runtime_warnings() -> None:
    proc = subprocess.run(
        [sys.executable, "-c", _PROGRAM],
        cwd=ROOT,
        capture_output=True,
        text=True,
        timeout=300,
        env={**os.environ, "PYTHONPATH": ROOT, "PYTHONWARNINGS": ""},
    )
    assert proc.returncode == 0, proc.stderr[-2000:]
    result = json.loads(proc.stdout.strip().splitlines()[-1])
    assert result["hit"] >= 20, "the samples no longer reach special values: the check is void"
    assert result["leaked"] == {}
    assert result["users"] == 1, "keyroute must not silence the user's own NumPy warnings"
