"""A new dispatch key in one call: a NaN checker between two builtin keys.

`register_key("NanCheck", above="AutogradNestedTensor", below="Tracer")` makes a functionality
key just above Autograd (PyTorch would need an edit of c10/core/DispatchKey.h and a rebuild). Its
kernel is a boxed fallback, so it sees every operator; it redispatches below its own key and
checks every floating-point result. A thread-local guard switches it on. It sits above Autograd,
so gradients still flow through what it checks; the dispatch trace and the operator's table
show it between its neighbours.

    python examples/new_key.py
"""

from __future__ import annotations

import io
from typing import Any

import keyroute as torch
from keyroute.dispatcher import register_key
from keyroute.dispatcher.tls import ExcludeDispatchKeyGuard, IncludeDispatchKeyGuard
from keyroute.dispatcher.trace import show_dispatch_trace
from keyroute.library import Library

KEY = register_key("NanCheck", above="AutogradNestedTensor", below="Tracer")
BELOW = torch._C._dispatch_keyset_full_after(KEY)  # every key below ours


def nan_check(keyset: Any, op: Any, *args: Any, **kwargs: Any) -> Any:
    """The layer: run what lies below, then check the results."""
    out = op.redispatch(keyset & BELOW, *args, **kwargs)
    with ExcludeDispatchKeyGuard(KEY):  # the check's own operators skip this layer
        for t in out if isinstance(out, (list, tuple)) else (out,):
            if isinstance(t, torch.Tensor) and t.is_floating_point() and t.isnan().any():
                raise FloatingPointError(f"{op} produced NaN")
    return out


_lib = Library("_", "IMPL")  # keep it: a dropped Library takes its registrations with it
_lib.fallback(nan_check, KEY.name, with_keyset=True)


def detect_nan() -> IncludeDispatchKeyGuard:
    """`with detect_nan():` turns the layer on for this thread."""
    return IncludeDispatchKeyGuard(KEY)


if __name__ == "__main__":
    x = torch.tensor([1.0, 0.0], requires_grad=True)
    with detect_nan():
        y = (x * 2).sum()
        print("checked:", y.item())
        try:
            torch.log(x) - torch.log(x)  # -inf - -inf
        except FloatingPointError as e:
            print("caught:", e)
        trace = io.StringIO()
        with show_dispatch_trace(file=trace):
            torch.exp(x)
    y.backward()
    print("grad:", x.grad.tolist())
    print("outside the guard:", (torch.log(x) - torch.log(x)).tolist())
    calls = [line.split("key=[")[1].split("]")[0] for line in trace.getvalue().splitlines()]
    print("trace of exp:", " -> ".join(calls[:3]))
    table = torch._C._dispatch_dump_table("aten::exp").splitlines()
    rows = [
        r.split(":")[0]
        for r in table
        if r.split(":")[0] in ("AutogradNestedTensor", "NanCheck", "Tracer")
    ]
    print("table rows:", ", ".join(rows))
