"""Autocast's cost (issue 17): a cast-policy op inside an autocast region against its plain cost
plus the casts themselves, and the plain path outside any region.

For each op, four loops, timed in interleaved rounds (one loop of each per round, medians over
the rounds: a slow phase of the shared machine hits all four alike):
- `plain`: the op on bfloat16 inputs outside autocast (what the region computes);
- `casts`: just the float32 -> bfloat16 casts the policy makes, alone;
- `by hand`: the op on inputs cast by hand, outside autocast (the casts and the op in one
  loop, as the region runs them: each of `plain` and `casts` alone runs hotter in the CPU's
  caches than the two together, so `plain + casts` understates what doing it by hand costs);
- `autocast`: the op on float32 inputs inside `autocast("cpu")`.

The claim: autocast <= 2 * plain + casts. `cost` is (autocast - casts) / plain, the claim's
factor with the casts timed alone (the strict reading: <= 2 holds it); `layer` is
(autocast - by hand) / plain, the layer's own overhead over casting by hand, per plain cost.
The fp32-list op (softmax) runs on float32 inputs in both, with no cast. Also `a + b` (a
promote-free, policy-free op) outside and inside a region.

    python bench/autocast.py [rounds]
"""

from __future__ import annotations

import statistics
import sys
import timeit

import _common  # noqa: F401  (one BLAS thread; must come first)

import keyroute


def _number(fn: object, min_time: float = 0.02) -> int:
    timer = timeit.Timer(fn, timer=_common.TIMER)
    number = 1
    while timer.timeit(number) < min_time and number < 1 << 20:
        number *= 2
    return number


def interleaved(plain, casts, by_hand, inside, rounds: int) -> tuple[float, ...]:  # noqa: ANN001
    """Median seconds per call of the four loops, one of each per round; `inside` runs in an
    autocast region entered and left around its loop (outside the timed part)."""
    bf16 = keyroute.bfloat16
    outside = (plain, casts, by_hand)
    timers = [timeit.Timer(fn, timer=_common.TIMER) for fn in (*outside, inside)]
    numbers = [_number(fn) for fn in outside]
    with keyroute.autocast("cpu", dtype=bf16):
        numbers.append(_number(inside))
    runs: list[list[float]] = [[], [], [], []]
    for _ in range(rounds):
        for i in range(3):
            runs[i].append(timers[i].timeit(numbers[i]) / numbers[i])
        with keyroute.autocast("cpu", dtype=bf16):
            runs[3].append(timers[3].timeit(numbers[3]) / numbers[3])
    return tuple(statistics.median(r) for r in runs)


def main(rounds: int = 15) -> None:
    bf16, f32 = keyroute.bfloat16, keyroute.float32
    a = keyroute.randn(64, 64)
    b = keyroute.randn(64, 64)
    w = keyroute.randn(32, 64)
    x = keyroute.randn(8, 3, 16, 16)
    cw = keyroute.randn(4, 3, 3, 3)
    ab, bb, wb, xb, cwb = (t.to(bf16) for t in (a, b, w, x, cw))
    sb = keyroute.ones(8, 8, dtype=bf16)  # already in the autocast dtype: the layer's own cost
    F = keyroute.nn.functional  # noqa: N806
    cases = [
        # name, plain (low-precision inputs, no region), the casts alone, the same by hand, the
        # op in a region
        (
            "mm 64x64",
            lambda: keyroute.mm(ab, bb),
            lambda: (a.to(bf16), b.to(bf16)),
            lambda: keyroute.mm(a.to(bf16), b.to(bf16)),
            lambda: keyroute.mm(a, b),
        ),
        (
            "linear 64->32",
            lambda: F.linear(ab, wb),
            lambda: (a.to(bf16), w.to(bf16)),
            lambda: F.linear(a.to(bf16), w.to(bf16)),
            lambda: F.linear(a, w),
        ),
        (
            "conv2d 3->4",
            lambda: F.conv2d(xb, cwb),
            lambda: (x.to(bf16), cw.to(bf16)),
            lambda: F.conv2d(x.to(bf16), cw.to(bf16)),
            lambda: F.conv2d(x, cw),
        ),
        (
            "mm 8x8 bf16 in (no cast)",
            lambda: keyroute.mm(sb, sb),
            lambda: None,
            lambda: keyroute.mm(sb, sb),
            lambda: keyroute.mm(sb, sb),
        ),
        (
            "softmax (no cast)",
            lambda: a.softmax(-1),
            lambda: None,
            lambda: a.softmax(-1),
            lambda: a.softmax(-1),
        ),
        ("a + b (no policy)", lambda: a + b, lambda: None, lambda: a + b, lambda: a + b),
    ]
    with keyroute.autocast("cpu", dtype=bf16):
        for case in cases:
            assert case[4]().dtype in (bf16, f32)
    print(f"autocast('cpu', bfloat16) cost, {_common.CLOCK}, medians of {rounds} rounds")
    print(
        f"{'op':<26}{'plain':>9}{'casts':>9}{'by hand':>9}{'autocast':>10}"
        "   cost (claim <= 2)   layer"
    )
    for name, plain, casts, by_hand, inside in cases:
        t_plain, t_casts, t_hand, t_in = interleaved(plain, casts, by_hand, inside, rounds)
        cost = (t_in - t_casts) / t_plain
        layer = (t_in - t_hand) / t_plain
        print(
            f"{name:<26}{t_plain * 1e6:>7.1f}us{t_casts * 1e6:>7.1f}us{t_hand * 1e6:>7.1f}us"
            f"{t_in * 1e6:>8.1f}us   {cost:5.2f}x ({'met' if cost <= 2 else 'missed'})"
            f"{layer:>12.2f}"
        )


if __name__ == "__main__":
    main(int(sys.argv[1]) if len(sys.argv) > 1 else 15)
