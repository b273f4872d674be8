"""Autocast's cost (issue 17): a cast-policy op inside an autocast region against its plain cost
plus the casts themselves, and the plain path outside any region.

For each op: `plain` runs it on bfloat16 inputs outside autocast (what the region computes),
`casts` runs just the float32 -> bfloat16 casts the policy makes, `autocast` runs the op on
float32 inputs inside `autocast("cpu")`. The claim: autocast <= 2 * plain + casts. The fp32-list
op (softmax) runs on float32 inputs in both, with no cast. Also `a + b` (a promote-free, policy-free
op) outside and inside a region.

    python bench/autocast.py
"""

from __future__ import annotations

import _common  # noqa: F401  (one BLAS thread; must come first)
from _common import measure

import keyroute


def main() -> None:
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
        # name, plain (low-precision inputs, no region), the casts alone, the op in a region
        (
            "mm 64x64",
            lambda: keyroute.mm(ab, bb),
            lambda: (a.to(bf16), b.to(bf16)),
            lambda: keyroute.mm(a, b),
        ),
        (
            "linear 64->32",
            lambda: F.linear(ab, wb),
            lambda: (a.to(bf16), w.to(bf16)),
            lambda: F.linear(a, w),
        ),
        (
            "conv2d 3->4",
            lambda: F.conv2d(xb, cwb),
            lambda: (x.to(bf16), cw.to(bf16)),
            lambda: F.conv2d(x, cw),
        ),
        (
            "mm 8x8 bf16 in (no cast)",
            lambda: keyroute.mm(sb, sb),
            lambda: None,
            lambda: keyroute.mm(sb, sb),
        ),
        ("softmax (no cast)", lambda: a.softmax(-1), lambda: None, lambda: a.softmax(-1)),
        ("a + b (no policy)", lambda: a + b, lambda: None, lambda: a + b),
    ]
    print(f"autocast('cpu', bfloat16) cost, {_common.CLOCK}")
    print(f"{'op':<22}{'plain':>11}{'casts':>11}{'autocast':>11}   autocast / (plain + casts)")
    for name, plain, casts, inside in cases:
        t_plain = measure(plain)
        t_casts = measure(casts)
        with keyroute.autocast("cpu", dtype=bf16):
            t_in = measure(inside)
            out = inside()
        assert out.dtype in (bf16, f32)
        ratio = t_in / (t_plain + t_casts)
        print(
            f"{name:<22}{t_plain * 1e6:>9.1f}us{t_casts * 1e6:>9.1f}us{t_in * 1e6:>9.1f}us"
            f"   {ratio:.2f}x (claim <= 2x: {'met' if t_in <= 2 * t_plain + t_casts else 'missed'})"
        )


if __name__ == "__main__":
    main()
