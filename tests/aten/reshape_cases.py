"""reshape's routing (at::native::reshape_symint) and the `_reshape_alias` operator: programs
run with `torch` bound to PyTorch (tools/record_reshape_alias.py) or keyroute (the test).

Each program fills `out` with JSON values: the profiler's event names (which operator reshape
picked: view, _reshape_alias, or clone + _unsafe_view), the operators a dispatch mode sees, the
result's geometry, view-ness and grad_fn, and the errors of bad direct calls.
"""

from __future__ import annotations

from typing import Any

_PRELUDE = """
def events(fn):
    with torch.profiler.profile() as prof:
        fn()
    return [e.name for e in prof.events()]

class Log(torch.utils._python_dispatch.TorchDispatchMode):
    def __init__(self):
        super().__init__()
        self.seen = []
    def __torch_dispatch__(self, func, types, args=(), kwargs=None):
        self.seen.append([str(func), [list(a) for a in args if isinstance(a, (list, tuple))]])
        return func(*args, **(kwargs or {}))

def geometry(t):
    return [list(t.shape), list(t.stride()), t.storage_offset(), t._is_view(),
            type(t.grad_fn).__name__ if t.grad_fn is not None else None]

def error(fn):
    try:
        fn()
    except Exception as e:  # noqa: BLE001
        return [type(e).__name__, str(e).splitlines()[0]]
    return None
"""

CASES: dict[str, str] = {
    "contiguous": """
a = torch.arange(12.0)
out["events"] = events(lambda: a.reshape(3, -1))
log = Log()
with log:
    r = a.reshape(3, -1)
out["mode"] = log.seen[-1:]
out["geometry"] = geometry(a.reshape(-1, 4))
""",
    "viewable": """
base = torch.arange(24.0).reshape(4, 6)
a = base[:, :3]
out["events"] = events(lambda: a.reshape(2, 2, 3))
log = Log()
with log:
    r = a.reshape(2, -1, 3)
out["mode"] = [s for s in log.seen if "slice" not in s[0]]
r = a.reshape(2, -1, 3)
out["geometry"] = geometry(r)
out["base"] = r._base is base
out["values"] = r.sum().item()
r[0, 0, 0] = -1.0
out["shared"] = base[0, 0].item()
c = torch.arange(24.0).reshape(2, 3, 4)[:, :, :2]
out["flatten"] = events(lambda: c.flatten(0, 1))
out["flatten_geometry"] = geometry(c.flatten(0, 1))
""",
    "transposed_viewable": """
a = torch.arange(24.0).reshape(2, 3, 4).transpose(0, 1)
out["events"] = events(lambda: a.reshape(3, 2, 2, 2))
out["geometry"] = geometry(a.reshape(3, 2, 2, 2))
""",
    "copy": """
a = torch.arange(24.0).reshape(2, 3, 4).transpose(1, 2)
out["events"] = events(lambda: a.reshape(2, 12))
r = a.reshape(2, 12)
out["geometry"] = geometry(r)
out["values"] = r[1].tolist()
""",
    "autograd": """
x = torch.arange(24.0).reshape(4, 6).requires_grad_()
y = x[:, 1:4].reshape(2, 2, 3)
out["geometry"] = geometry(y)
out["next"] = [type(f).__name__ for f, _ in y.grad_fn.next_functions]
(y * torch.arange(12.0).reshape(2, 2, 3)).sum().backward()
out["grad"] = x.grad.tolist()
out["backward"] = events(lambda: (x[:, 1:4].reshape(2, 2, 3) * 2).sum().backward())
""",
    "meta": """
a = torch.empty(4, 6, device="meta")[:, :3]
out["events"] = events(lambda: a.reshape(2, 2, 3))
out["geometry"] = geometry(a.reshape(2, 2, 3))
""",
    "direct": """
a = torch.arange(6.0)
r = torch.ops.aten._reshape_alias(a, [3, 2], [1, 1])
out["geometry"] = geometry(r)
out["values"] = r.tolist()
out["events"] = events(lambda: torch.ops.aten._reshape_alias(a, [2, 3], [3, 1]))
out["mismatch"] = error(lambda: torch.ops.aten._reshape_alias(a, [2, 3], [3]))
m = torch.empty(6, device="meta")
out["meta"] = geometry(torch.ops.aten._reshape_alias(m, [3, 2], [2, 1]))
out["meta_mismatch"] = error(lambda: torch.ops.aten._reshape_alias(m, [6], [1, 1]))
x = torch.arange(6.0, requires_grad=True)
y = torch.ops.aten._reshape_alias(x, [2, 3], [3, 1])
out["grad_fn"] = geometry(y)
(y * torch.arange(6.0).reshape(2, 3)).sum().backward()
out["grad"] = x.grad.tolist()
out["schema"] = str(torch.ops.aten._reshape_alias.default._schema)
""",
}


def run(src: str, torch: Any) -> dict[str, Any]:
    """Run one case's program with `torch` bound to the library under test."""
    ns: dict[str, Any] = {"torch": torch, "out": {}}
    exec(compile(_PRELUDE + src, "<reshape case>", "exec"), ns)  # noqa: S102
    return ns["out"]
