"""register_key: functionality keys inserted between builtin ones, used as builtin keys are.

Prints one JSON line; tests/backends/test_register_key.py checks it."""

from __future__ import annotations

import io
import json
from contextlib import redirect_stdout
from typing import Any

import keyroute as torch
from keyroute.dispatcher import keys as _keys
from keyroute.dispatcher import register_backend, register_key
from keyroute.dispatcher.alias import is_included_in_alias
from keyroute.dispatcher.keys import DispatchKey
from keyroute.dispatcher.keyset import DispatchKeySet, key_bits, keyset_repr
from keyroute.dispatcher.tls import ExcludeDispatchKeyGuard, IncludeDispatchKeyGuard, local_include
from keyroute.dispatcher.trace import record_dispatch, show_dispatch_trace
from keyroute.library import Library, fallthrough_kernel
from keyroute.tensor._tensor import CPU_KEYS, make_tensor

DK = DispatchKey
facts: dict[str, Any] = {}


def attempt(fn: Any) -> str:
    try:
        fn()
    except Exception as e:  # noqa: BLE001 - the scenario records any error's text
        return f"{type(e).__name__}: {e}"
    return "no error"


# A resolution cached before any key exists must stay right after keys are added.
a, b = torch.ones(2), torch.full((2,), 3.0)
warm = (a * b).tolist()

CK = register_key("Checkpointing", above="ADInplaceOrView", below="AutogradOther")
facts["key"] = [CK.name, int(CK) >= 256, DK["Checkpointing"] is CK, DK(int(CK)) is CK]
facts["parse"] = torch._C._dispatch_key_parse("Checkpointing") is CK
facts["after_warm"] = [(a * b).tolist() == warm]

ks = (
    DispatchKeySet(DK.CPU)
    | DispatchKeySet(DK.AutogradCPU)
    | DispatchKeySet(CK)
    | DispatchKeySet(DK.ADInplaceOrView)
)
facts["repr"] = repr(ks)
facts["highest"] = [
    ks.highestPriorityTypeId().name,
    (ks - DispatchKeySet(DK.AutogradCPU)).highestPriorityTypeId().name,
]
facts["iter"] = [k.name for k in ks]
facts["has"] = [ks.has(CK), (ks - DispatchKeySet(CK)).has(CK), len(ks)]
facts["cia_covers"] = [
    is_included_in_alias(CK, DK.CompositeImplicitAutograd),
    is_included_in_alias(CK, DK.Autograd),
]
below_ck = torch._C._dispatch_keyset_full_after(CK)
facts["full_after"] = [
    below_ck.has(DK.ADInplaceOrView),
    below_ck.has(CK),
    below_ck.has(DK.AutogradCPU),
    below_ck.has(DK.CPU),
]

# The layer: a boxed fallback that logs and redispatches below its key.
seen: list[str] = []


def layer(keyset: Any, op: Any, *args: Any, **kwargs: Any) -> Any:
    seen.append(str(op))
    return op.redispatch(keyset & below_ck, *args, **kwargs)


lib = Library("_", "IMPL")
lib.fallback(layer, "Checkpointing", with_keyset=True)

x = torch.tensor([1.0, 2.0], requires_grad=True)
seen.clear()
with IncludeDispatchKeyGuard(CK):
    facts["include_set"] = keyset_repr(local_include())
    y = (x * 3).sum()
    with ExcludeDispatchKeyGuard(CK):
        (x * 5).sum()
facts["seen_with_grad"] = list(seen)  # below autograd: the layer sees what autograd redispatches
y.backward()
facts["grad"] = x.grad.tolist()
facts["include_after"] = keyset_repr(local_include())

# On a tensor's key set, with no TLS guard.
seen.clear()
t = make_tensor(torch.ones(3)._data, torch.float32, CPU_KEYS | key_bits(CK))
facts["tensor_keys"] = keyset_repr(t._key_set)
facts["tensor_result"] = (t + 1).tolist()
facts["seen_tensor"] = list(seen)

# An operator kernel on the key, and what the table shows.
impl_lib = Library("aten", "IMPL")
impl_lib.impl(
    "neg", lambda keyset, self: torch.full_like(self, 42.0), "Checkpointing", with_keyset=True
)
with IncludeDispatchKeyGuard(CK):
    facts["impl"] = torch.neg(torch.ones(2)).tolist()
table = torch._C._dispatch_dump_table("aten::neg").splitlines()
names = [line.split(":")[0] for line in table]
facts["table_order"] = [
    n for n in names if n in ("ADInplaceOrView", "Checkpointing", "AutogradOther", "AutogradCPU")
]
facts["table_row"] = [line.rsplit("[", 1)[1] for line in table if line.startswith("Checkpointing:")]
facts["dump"] = [
    line.split(":")[0]
    for line in torch._C._dispatch_dump("aten::neg").splitlines()
    if "Checkpointing" in line
]

# The trace shows the layer between its neighbours.
buf = io.StringIO()
with IncludeDispatchKeyGuard(CK), show_dispatch_trace(file=buf):
    torch.ones(2, requires_grad=True).exp()
facts["trace_keys"] = [
    line.split("key=[")[1].split("]")[0]
    for line in buf.getvalue().splitlines()
    if "aten::exp" in line
]

# A fallthrough instead: the layer costs nothing and changes nothing.
lib._destroy()  # removal: the key's kernels go with their library, the key stays
facts["after_destroy"] = [torch._C._dispatch_has_backend_fallback(CK), DK["Checkpointing"] is CK]
ft = Library("_", "IMPL")
ft.fallback(fallthrough_kernel, "Checkpointing")
seen.clear()
with IncludeDispatchKeyGuard(CK):
    facts["fallthrough"] = [(torch.ones(2) * 2).tolist(), list(seen)]
impl_lib._destroy()

# A key above Autograd (a NaN checker's place) sees the operator before autograd does.
NK = register_key("NanCheck", above="AutogradNestedTensor", below="Tracer")
order_seen: list[tuple[str, str]] = []
with IncludeDispatchKeyGuard(NK):
    with record_dispatch(lambda op, key: order_seen.append((op, key))):
        nl = Library("_", "IMPL")
        nl.fallback(fallthrough_kernel, "NanCheck")
        torch.ones(2, requires_grad=True).exp()
# (a fallthrough is masked at the top: the trace never shows it; a kernel would run first)
facts["nan_fallthrough_trace"] = [k for op, k in order_seen if op == "aten::exp"]
nl._destroy()
nan_seen: list[str] = []
below_nk = torch._C._dispatch_keyset_full_after(NK)


def nan_layer(keyset: Any, op: Any, *args: Any, **kwargs: Any) -> Any:
    nan_seen.append(str(op))
    return op.redispatch(keyset & below_nk, *args, **kwargs)


nl = Library("_", "IMPL")
nl.fallback(nan_layer, "NanCheck", with_keyset=True)
order_seen.clear()
with IncludeDispatchKeyGuard(NK), record_dispatch(lambda op, key: order_seen.append((op, key))):
    torch.ones(2, requires_grad=True).exp()
facts["nan_trace"] = [k for op, k in order_seen if op == "aten::exp"]
facts["repr_two"] = repr(DispatchKeySet(NK) | DispatchKeySet(CK) | DispatchKeySet(DK.AutogradCPU))

# Per-backend keys: a slot per backend, the run-time backends' included.
PB = register_key("Tracked", above="Tracer", below="AutocastCPU", per_backend=True)
facts["per_backend"] = [
    DK["TrackedCPU"].name,
    DK["TrackedMeta"].name,
    keyset_repr(key_bits(DK["TrackedCPU"]) | key_bits(DK.CPU)),
]
track = Library("_", "IMPL")
tracked: list[str] = []
below_pb = torch._C._dispatch_keyset_full_after(DK["TrackedCPU"])


def track_layer(keyset: Any, op: Any, *args: Any, **kwargs: Any) -> Any:
    tracked.append(str(op))
    return op.redispatch(keyset & below_pb, *args, **kwargs)


track.fallback(track_layer, "TrackedCPU", with_keyset=True)
track.fallback(fallthrough_kernel, "TrackedMeta")
with IncludeDispatchKeyGuard(PB):
    cpu_out = (torch.ones(2) + 1).tolist()
    meta_out = list((torch.ones(2, device="meta") + 1).shape)
facts["per_backend_run"] = [cpu_out, meta_out, sorted(set(tracked))]
toy = register_backend("toyk")
facts["per_backend_new_backend"] = DK["TrackedToyk"].name

# Bad input: clear errors, nothing changed.
before = (list(_keys.ORDER), list(_keys.TABLE_KEYS), dict(_keys.EXT_NAMES))
facts["errors"] = [
    attempt(lambda: register_key("X1", above="NoSuchKey")),
    attempt(lambda: register_key("X2", above="AutogradOther", below="ADInplaceOrView")),
    attempt(lambda: register_key("Checkpointing", above="Python")),
    attempt(lambda: register_key("CPU", above="Python")),
    attempt(lambda: register_key("X3")),
    attempt(lambda: register_key("X4", above="AutogradCPU")),
    attempt(lambda: register_key("X5", above="Autograd")),
    attempt(lambda: register_key("bad name", above="Python")),
]
facts["unchanged"] = before == (list(_keys.ORDER), list(_keys.TABLE_KEYS), dict(_keys.EXT_NAMES))

buf = io.StringIO()
with redirect_stdout(buf):
    from keyroute.cli import main

    main(["keys"])
facts["cli"] = [
    line.split()[1:]
    for line in buf.getvalue().splitlines()
    if "Checkpointing" in line or "Tracked" in line.split()[1:2]
]
print(json.dumps(facts))
