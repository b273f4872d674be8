"""Single calls under FakeTensorMode whose torch.profiler event trees keyroute's profiler must
reproduce (PyTorch's handler's own calls: keyroute/profiler/_fake_events.py). Each case is one
expression over fake tensors, profiled alone inside the mode; tools/record_profiler_fake.py
records PyTorch 2.13's trees into tests/data/profiler_fake_calls.json."""

from __future__ import annotations

from typing import Any

CASES: dict[str, str] = {
    "empty": "torch.empty(2, 3)",
    "add": "x + y",
    "mul_scalar": "x * 2",
    "exp": "x.exp()",
    "relu": "torch.relu(x)",
    "silu": "torch.nn.functional.silu(x)",
    "sum": "x.sum()",
    "mm": "x @ w",
    "t": "x.t()",
    "view_flat": "x.view(32)",
    "view_split": "x.view(2, 2, 8)",
    "view_collapse": "x3.view(8, 8)",
    "reshape_nc": "x.t().reshape(2, 16)",
    "unsafe_view_matmul": "x3 @ w",
    "cache_across_profiles": "x.t()",
}
#: what a case runs in the mode before its profile starts
BEFORE: dict[str, str] = {"cache_across_profiles": "x.t()"}


def _depth(e: Any) -> int:
    d = 0
    while e.cpu_parent is not None:
        e, d = e.cpu_parent, d + 1
    return d


def record(torch: Any, fake_mode_cls: Any) -> dict[str, list[str]]:
    """Each case's events as indented names (depth = nesting), in order."""
    out: dict[str, list[str]] = {}
    for name, expr in CASES.items():
        # each case from an empty dispatch cache (it outlives modes and profiles)
        fake_mode_cls.cache_clear()
        with fake_mode_cls():
            ns = {"torch": torch}
            exec("x = torch.empty(4, 8); y = torch.empty(4, 8); w = torch.empty(8, 3)", ns)  # noqa: S102
            exec("x3 = torch.empty(2, 4, 8)", ns)  # noqa: S102
            exec(BEFORE.get(name, ""), ns)  # noqa: S102
            with torch.profiler.profile() as prof:
                eval(expr, ns)  # noqa: S307
        out[name] = ["  " * _depth(e) + e.name for e in prof.events()]
    return out
