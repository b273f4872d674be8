"""The hot path with run-time dispatch keys registered: 0 against 20 `register_key` keys (and a
run-time backend), on the plain path (a two-tensor operator with a trivial kernel, and the
whole eager `a + b`), through a redispatching layer, and with autograd recording.

Run-time keys live for the whole process, so each configuration runs in a process of its own;
the processes alternate (0, 20, 0, 20, ...), each measuring its cases in interleaved rounds, and
the table gives the median over processes and the ratio of 20 keys to none. Registered keys
that no key set holds must cost nothing (priority is data read only when a resolution is
computed, and the masks reserve their range up front); the last row is the feature switched
on: one of the keys in the TLS include set, as a fallthrough.

    OPENBLAS_NUM_THREADS=1 python bench/user_keys.py [--processes 3] [--baseline TREE]

`--baseline TREE` adds a third configuration: the same 0-key worker run on another checkout
(e.g. a `git worktree` of the commit before run-time keys), to compare the plain path itself.
"""

from __future__ import annotations

import argparse
import json
import os
import statistics
import subprocess
import sys

import _common  # noqa: F401  (one BLAS thread; must come first)
from _common import compare, table, trivial_ops

# Neighbours for the 20 keys: spread over the whole order, layers and backends alike.
NEIGHBOURS = [
    ("Dense", "FPGA"),
    ("BackendSelect", "Fake"),
    ("Python", "FuncTorchDynamicLayerBackMode"),
    ("Functionalize", "Conjugate"),
    ("ADInplaceOrView", "AutogradOther"),
    ("AutogradFunctionality", "AutogradNestedTensor"),
    ("Tracer", "AutocastCPU"),
    ("AutocastPrivateUse1", "FuncTorchBatched"),
    ("PythonTLSSnapshot", "FuncTorchDynamicLayerFrontMode"),
    ("PreDispatch", "PythonDispatcher"),
]


def worker(n_keys: int) -> dict[str, float]:
    tree = os.environ.get("KEYROUTE_BENCH_TREE")
    if tree:  # the checkout to measure comes first (_common put this one's root on the path)
        sys.path.insert(0, tree)
    import keyroute
    from keyroute.dispatcher.tls import IncludeDispatchKeyGuard
    from keyroute.library import Library, fallthrough_kernel

    keys = []
    if n_keys:  # (a baseline tree may predate run-time keys)
        from keyroute.dispatcher import register_backend, register_key
    for i in range(n_keys):
        lo, hi = NEIGHBOURS[i % len(NEIGHBOURS)]
        keys.append(register_key(f"BenchKey{i}", above=lo, below=hi, per_backend=i == 0))
    if n_keys:
        register_backend("benchdev")
    lib, kernel, op, layered = trivial_ops()
    a, b = keyroute.ones(16), keyroute.ones(16)
    w = keyroute.ones(16, requires_grad=True)
    cases = {
        "direct": lambda: kernel(a, b),
        "plain": lambda: op(a, b),
        "add": lambda: a + b,
        "layered": lambda: layered(a, b),
        "grad": lambda: a * w,
    }
    t = compare(cases)
    if keys:
        ft = Library("_", "IMPL")
        ft.fallback(fallthrough_kernel, keys[4].name)  # the ADInplaceOrView/AutogradOther one
        with IncludeDispatchKeyGuard(keys[4]):
            on = compare({"direct": lambda: kernel(a, b), "add": lambda: a + b})
        t["add_key_on"] = on["add"] * t["direct"] / on["direct"]
    return t


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--worker", type=int, default=None)
    parser.add_argument("--processes", type=int, default=3)
    parser.add_argument("--baseline", default=None, help="another checkout's root")
    args = parser.parse_args()
    if args.worker is not None:
        print(json.dumps(worker(args.worker)))
        return
    runs: dict[int, list[dict[str, float]]] = {0: [], 20: [], -1: []}
    root = os.path.join(os.path.dirname(os.path.abspath(__file__)), "..")
    configs = [(0, root), (20, root)]
    if args.baseline:
        configs.append((-1, args.baseline))
    for _ in range(args.processes):
        for n, tree in configs:
            done = subprocess.run(
                [sys.executable, os.path.abspath(__file__), "--worker", str(max(n, 0))],
                capture_output=True,
                text=True,
                env=dict(os.environ, KEYROUTE_BENCH_TREE=os.path.abspath(tree)),
                check=True,
            )
            runs[n].append(json.loads(done.stdout.splitlines()[-1]))

    def med(n: int, case: str) -> float:
        return statistics.median(r[case] for r in runs[n])

    labels = {
        "plain": "two-tensor op, trivial kernel (plain path)",
        "add": "a + b on (16,) float32 (whole eager add)",
        "layered": "through a redispatching AutogradCPU layer",
        "grad": "a * w, w requires grad (autograd records)",
    }
    rows = []
    for case, label in labels.items():
        if args.baseline:
            rows.append((f"{label}, baseline tree", med(-1, case), med(0, case)))
        rows.append((f"{label}, 0 keys", med(0, case), med(0, case)))
        rows.append((f"{label}, 20 keys", med(20, case), med(0, case)))
    rows.append(
        ("a + b, 20 keys, one included as a fallthrough", med(20, "add_key_on"), med(0, "add"))
    )
    print(table(f"hot path with run-time keys ({args.processes} processes each)", rows, "0 keys"))
    for case in labels:
        line = f"{case}: 20 keys / 0 keys = {med(20, case) / med(0, case):.3f}x"
        if args.baseline:
            line += f"; 0 keys / baseline tree = {med(0, case) / med(-1, case):.3f}x"
        print(line)


if __name__ == "__main__":
    main()
