"""The profiler's cost per operator call: `a + b` on (16,) tensors, a linear layer's forward
and an MLP training step (784-256-10, batch 64, forward, backward, AdamW), each timed
un-profiled and inside a running `keyroute.profiler.profile` (with_dispatch off, then on), in
interleaved rounds. The difference divided by the number of events recorded is the per-event
overhead (the brief's bound: 2 µs with with_dispatch=False). Events include those of the
operators PyTorch's kernels call (profiler/_internal_calls.py), which the profile adds to
match PyTorch's tables. Clock: process CPU time (bench/_common.py).

    python bench/profiler.py
"""

from __future__ import annotations

import statistics
from collections.abc import Callable

import _common  # one BLAS thread; must come first

import keyroute
from keyroute.profiler import profile


def _loop(fn: Callable[[], object], n: int) -> float:
    timer = _common.TIMER
    t0 = timer()
    for _ in range(n):
        fn()
    return timer() - t0


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


def wrapper_alone(n: int = 20000, repeat: int = 25) -> tuple[float, float]:
    """(trivial function s/call, the same inside the recording wrapper s/call): min of repeats,
    interleaved; the difference is the profiler's own cost per event, without the dispatcher's
    noise around it."""
    import timeit

    from keyroute.profiler import _state

    def f(a: object, b: object) -> object:
        return a

    c = _state.Collector()
    wrapped = _state._op_event("aten::add", f, c)
    plain_t, wrapped_t = [], []
    _state.collector = c
    try:
        for _ in range(repeat):
            plain_t.append(timeit.timeit(lambda: f(1, 2), number=n, timer=_common.TIMER) / n)
            wrapped_t.append(
                timeit.timeit(lambda: wrapped(1, 2), number=n, timer=_common.TIMER) / n
            )
            c.events.clear()
    finally:
        _state.collector = None
    return min(plain_t), min(wrapped_t)


def main() -> None:
    t0, t1 = wrapper_alone()
    print(
        f"recording wrapper alone: {t0 * 1e6:.2f}us -> {t1 * 1e6:.2f}us per call, "
        f"{(t1 - t0) * 1e6:.2f}us per event (bound: 2us)"
    )
    a, b = keyroute.ones(16), keyroute.ones(16)
    lin = keyroute.nn.Linear(16, 16)
    x = keyroute.ones(4, 16)

    def add() -> object:
        return a + b

    def linear() -> object:
        with keyroute.no_grad():
            return lin(x)

    nn = keyroute.nn
    keyroute.manual_seed(0)
    mlp = nn.Sequential(nn.Linear(784, 256), nn.ReLU(), nn.Linear(256, 10))
    opt = keyroute.optim.AdamW(mlp.parameters(), lr=1e-3)
    xb, yb = keyroute.randn(64, 784), keyroute.randint(0, 10, (64,))

    def step() -> object:
        opt.zero_grad()
        loss = nn.functional.cross_entropy(mlp(xb), yb)
        loss.backward()
        opt.step()
        return loss

    print(f"clock: {_common.CLOCK}")
    print(f"{'case':<36}{'plain':>11}{'profiled':>11}{'events':>8}{'overhead/event':>16}")
    cases = (
        ("a + b", add, 3000),
        ("linear forward (no grad)", linear, 1000),
        ("MLP step (fwd+bwd+AdamW)", step, 40),
    )
    for name, fn, n in cases:
        for kw in ({}, {"with_dispatch": True}):
            p0, p1, ev = per_call(fn, n, 9, **kw)
            ev = max(ev, 1)
            label = name + (" [dispatch]" if kw else "")
            print(
                f"{label:<36}{p0 * 1e6:>9.2f}us{p1 * 1e6:>9.2f}us{ev:>8}"
                f"{(p1 - p0) / ev * 1e6:>14.2f}us"
            )


if __name__ == "__main__":
    main()
