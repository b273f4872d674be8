"""Thread safety of the dispatcher (issue 12): registration is atomic with respect to calls.

PyTorch sees 0 failures in each of these; so must keyroute. Each stress test is bounded in
time (about a second) and counts the failures seen by the calling threads.
"""

from __future__ import annotations

import subprocess
import sys
import threading
import time
from collections.abc import Callable

import keyroute
from keyroute.library import Library

STRESS_SECONDS = 1.0


def _stress(callers: int, writer: Callable[[int], None]) -> tuple[int, list[str], int]:
    """Run `callers` threads doing plain arithmetic while one thread runs writer(i) in a loop;
    returns (calls made, the failures seen, writes made)."""
    stop = threading.Event()
    failures: list[str] = []
    counts = [0] * callers
    writes = [0]
    old = sys.getswitchinterval()
    sys.setswitchinterval(1e-5)  # switch threads often: races show up within a second

    def call(n: int) -> None:
        x = keyroute.ones(3)
        while not stop.is_set():
            try:
                y = (x + 1) * 2 - x
                if y.tolist() != [3.0, 3.0, 3.0]:
                    failures.append(f"wrong value {y.tolist()}")
                counts[n] += 1
            except Exception as exc:  # noqa: BLE001 - every failure is counted
                failures.append(repr(exc)[:200])

    def write() -> None:
        i = 0
        while not stop.is_set():
            try:
                writer(i)
            except Exception as exc:  # noqa: BLE001
                failures.append("writer: " + repr(exc)[:200])
            i += 1
        writes[0] = i

    threads = [threading.Thread(target=call, args=(n,)) for n in range(callers)]
    threads.append(threading.Thread(target=write))
    try:
        for t in threads:
            t.start()
        time.sleep(STRESS_SECONDS)
        stop.set()
        for t in threads:
            t.join(30)
    finally:
        sys.setswitchinterval(old)
    return sum(counts), failures, writes[0]


def _fallback_churn(i: int) -> None:
    # A backend fallback registered and removed: every operator's caches are dropped twice.
    lib = Library("_", "IMPL")
    lib.fallback(lambda op, *a, **k: None, "PrivateUse1")
    lib._destroy()


def _library_churn(i: int) -> None:
    lib = Library(f"krthreads{i}", "FRAGMENT")
    lib.define("f(Tensor x) -> Tensor")
    lib.impl("f", lambda x: x, "CPU")
    lib._destroy()


def _aten_kernel_churn(i: int) -> None:
    # A kernel for aten::add on a key the callers do not use: add's own caches are dropped.
    lib = Library("aten", "IMPL")
    lib.impl("add.Tensor", lambda *a, **k: None, "PrivateUse1")
    lib._destroy()


def _mixed_churn(i: int) -> None:
    _fallback_churn(i)
    _library_churn(i)


def test_calls_see_no_failure_while_a_fallback_is_registered_and_removed() -> None:
    calls, failures, writes = _stress(3, _mixed_churn)
    assert calls > 0 and writes > 0
    assert failures == []


def test_calls_see_no_failure_while_libraries_come_and_go() -> None:
    calls, failures, writes = _stress(3, _library_churn)
    assert calls > 0 and writes > 0
    assert failures == []


def test_calls_see_no_failure_while_the_called_operator_gets_kernels() -> None:
    calls, failures, writes = _stress(3, _aten_kernel_churn)
    assert calls > 0 and writes > 0
    assert failures == []


def test_libraries_registered_in_parallel_all_work() -> None:
    failures: list[str] = []
    libs: list[Library] = []

    def register(n: int) -> None:
        try:
            for j in range(20):
                lib = Library(f"krpar{n}_{j}", "FRAGMENT")
                lib.define("g(Tensor x) -> Tensor")
                lib.impl("g", lambda x, n=n: x + n, "CPU")
                libs.append(lib)
        except Exception as exc:  # noqa: BLE001
            failures.append(repr(exc)[:200])

    old = sys.getswitchinterval()
    sys.setswitchinterval(1e-5)
    try:
        threads = [threading.Thread(target=register, args=(n,)) for n in range(4)]
        for t in threads:
            t.start()
        for t in threads:
            t.join(60)
    finally:
        sys.setswitchinterval(old)
    assert failures == []
    for n in range(4):
        out = getattr(keyroute.ops, f"krpar{n}_0").g(keyroute.zeros(1))
        assert out.tolist() == [float(n)]
    for lib in libs:
        lib._destroy()


_FIRST_CALLS = """
import sys, threading
sys.setswitchinterval(1e-6)
import keyroute as torch
errs = []
barrier = threading.Barrier(6)
def f():
    try:
        x = torch.ones(3)
        barrier.wait()
        for op in (torch.sin, torch.cos, torch.tan, torch.exp, torch.log1p, torch.tanh,
                   torch.sigmoid, torch.abs, torch.neg, torch.sqrt, torch.erf, torch.floor):
            op(x)
        ((x + 1) * 2 - x).sum()
    except Exception as e:
        errs.append(repr(e))
ts = [threading.Thread(target=f) for _ in range(6)]
[t.start() for t in ts]; [t.join() for t in ts]
print(len(errs), errs[:1])
"""


def test_first_calls_from_many_threads_at_once_in_fresh_processes() -> None:
    # The race is on the first call of an operator in a process: fresh processes each time.
    for _ in range(3):
        out = subprocess.run(
            [sys.executable, "-c", _FIRST_CALLS], capture_output=True, text=True, timeout=120
        )
        assert out.returncode == 0, out.stderr[-2000:]
        assert out.stdout.strip() == "0 []"
