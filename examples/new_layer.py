"""A new dispatch layer in one file: a NaN checker.

A layer is a kernel on a dispatch key that does its work and redispatches below itself. This
one takes the Tracer key (keyroute builds no tracer, so the key is free; its builtin fallback
refuses, which `replace_builtin=True` replaces), is switched on by a thread-local guard that
puts the key in the include set, and checks every floating-point result for NaN. It sits
above Autograd, so gradients still flow through what it checks.

    python examples/new_layer.py
"""

from __future__ import annotations

from typing import Any

import keyroute as torch
from keyroute.dispatcher.keys import DispatchKey
from keyroute.dispatcher.tls import ExcludeDispatchKeyGuard, IncludeDispatchKeyGuard
from keyroute.library import Library

KEY = DispatchKey.Tracer
BELOW = torch._C._dispatch_keyset_full_after(KEY)  # every key below ours


def nan_check(keyset: Any, op: Any, *args: Any, **kwargs: Any) -> Any:
    """The layer: a boxed fallback, so it sees every operator; it redispatches below its key."""
    out = op.redispatch(keyset & BELOW, *args, **kwargs)
    with ExcludeDispatchKeyGuard(KEY):  # the check's own operators skip this layer
        for t in out if isinstance(out, (list, tuple)) else (out,):
            if isinstance(t, torch.Tensor) and t.is_floating_point() and t.isnan().any():
                raise FloatingPointError(f"{op} produced NaN")
    return out


_lib = Library("_", "IMPL")
_lib.fallback(nan_check, KEY, with_keyset=True, replace_builtin=True)


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
    y.backward()
    print("grad:", x.grad.tolist())
    print("outside the guard:", (torch.log(x) - torch.log(x)).tolist())
