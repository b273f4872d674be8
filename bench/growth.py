"""Cost growth: the per-op cost of `a + b` on (16,) tensors (plain, and with requires_grad
inputs) as the registry grows: 20 extra fallthrough layers in every key set, 1,000 custom
operators defined, and 1 and 8 passthrough dispatch modes on the stack. The plain path must not
grow with the number of registered operators or keys (the kernel for a key set is computed once
and cached); a mode costs what its handler does, once per mode.

    python bench/growth.py
"""

from __future__ import annotations

import contextlib
import statistics
import timeit
from typing import Any

import _common  # noqa: F401  (one BLAS thread; must come first)
from _common import TIMER, compare, torch_or_none

import keyroute
from keyroute.dispatcher.keys import DispatchKey
from keyroute.dispatcher.operator import backend_fallback
from keyroute.dispatcher.registration import Library, fallthrough_kernel
from keyroute.dispatcher.tls import IncludeDispatchKeyGuard

# Keys whose layers pass every operator through (fallthrough): PyTorch's own fallthrough keys,
# then keys keyroute leaves to future layers (given a fallthrough here, in this process only).
_FALLTHROUGH_CANDIDATES = (
    "AutocastCPU",
    "AutocastMTIA",
    "AutocastMAIA",
    "AutocastXPU",
    "AutocastMPS",
    "AutocastCUDA",
    "AutocastXLA",
    "AutocastHPU",
    "AutocastPrivateUse1",
    "FuncTorchVmapMode",
    "VmapMode",
    "FuncTorchDynamicLayerBackMode",
    "Tracer",
    "PythonDispatcher",
    "FuncTorchGradWrapper",
    "BatchedNestedTensor",
    "Batched",
    "Negative",
    "Conjugate",
    "ZeroTensor",
    "AutogradNestedTensor",
    "CustomRNGKeyId",
    "AutocastIPU",
    "DeferredInit",
)


def _fallthrough_layers(n: int) -> tuple[IncludeDispatchKeyGuard, Library, int]:
    """A TLS guard including n keys that pass through (registering fallthroughs as needed)."""
    lib = Library._internal("_", "IMPL")
    keys = []
    add = keyroute._ops.ops.aten.add.Tensor
    for name in _FALLTHROUGH_CANDIDATES:
        key = getattr(DispatchKey, name, None)
        if key is None or add.has_kernel_for_dispatch_key(key):
            continue  # absent, or a layer with kernels of its own (not a passthrough)
        try:
            lib.fallback(fallthrough_kernel, key, replace_builtin=True)
        except Exception:  # noqa: BLE001 - a key with a fallback of its own (a layer's)
            existing = backend_fallback(key)
            if existing is None or not existing.fallthrough:
                continue  # a real layer (Conjugate, Negative, ZeroTensor, ...): not a passthrough
        keys.append(key)
        if len(keys) == n:
            break
    return IncludeDispatchKeyGuard(keys), lib, len(keys)


def _modes(mode_base: type, n: int) -> contextlib.ExitStack:
    class Passthrough(mode_base):  # type: ignore[misc, valid-type]
        def __torch_dispatch__(self, func, types, args=(), kwargs=None):  # noqa: ANN001, ANN202
            return func(*args, **(kwargs or {}))

    stack = contextlib.ExitStack()
    for _ in range(n):
        stack.enter_context(Passthrough())
    return stack


def _paired(ctx: Any, cases: dict[str, Any], rounds: int = 15) -> tuple[dict, dict]:
    """Medians per call outside and inside `ctx` (re-entered each round), rounds interleaved;
    each case's loop count is sized once, outside."""
    timers = {k: timeit.Timer(fn, timer=TIMER) for k, fn in cases.items()}
    numbers = {}
    for k, timer in timers.items():
        number = 1
        while timer.timeit(number) < 0.01 and number < 1 << 20:
            number *= 2
        numbers[k] = number
    out: dict[str, list[float]] = {k: [] for k in cases}
    inside: dict[str, list[float]] = {k: [] for k in cases}
    for _ in range(rounds):
        for k, timer in timers.items():
            out[k].append(timer.timeit(numbers[k]) / numbers[k])
        with ctx():
            for k, timer in timers.items():
                inside[k].append(timer.timeit(numbers[k]) / numbers[k])
    med = statistics.median
    return {k: med(v) for k, v in out.items()}, {k: med(v) for k, v in inside.items()}


def main() -> None:
    from keyroute.utils.python_dispatch import TorchDispatchMode

    a, b = keyroute.ones(16), keyroute.ones(16)
    ga, gb = keyroute.ones(16, requires_grad=True), keyroute.ones(16, requires_grad=True)
    cases = {"add": lambda: a + b, "add rg": lambda: ga + gb}
    rows: list[tuple[str, dict[str, float], dict[str, float]]] = []

    guard, lib, n_keys = _fallthrough_layers(20)
    base, inside = _paired(lambda: guard, cases)
    rows.append((f"{n_keys} extra fallthrough layers", inside, base))
    lib._destroy()

    before = compare(cases, rounds=15)
    ops_lib = Library._internal("krgrowth", "FRAGMENT")
    for i in range(1000):
        ops_lib.define(f"op{i}(Tensor a, Tensor b) -> Tensor")
        ops_lib.impl(f"op{i}", lambda a, b: a, "CPU")
    after = compare(cases, rounds=15)
    ops_lib._destroy()
    again = compare(cases, rounds=15)  # the reference: before and after, averaged
    ref = {k: (before[k] + again[k]) / 2 for k in cases}
    rows.append(("1,000 custom ops defined", after, ref))

    add = {"add": cases["add"]}
    _, one = _paired(lambda: _modes(TorchDispatchMode, 1), add)
    base_add, eight = _paired(lambda: _modes(TorchDispatchMode, 8), add)

    print("per-op cost as the registry grows, a + b on (16,) float32 (medians, interleaved)")
    print(f"{'':<30}{'add':>10}{'ratio':>8}{'add (requires_grad)':>22}{'ratio':>8}")
    print(f"{'baseline':<30}{base['add'] * 1e6:>8.2f}µs{'':>8}{base['add rg'] * 1e6:>20.2f}µs")
    for label, t, ref in rows:
        print(
            f"{label:<30}{t['add'] * 1e6:>8.2f}µs{t['add'] / ref['add']:>7.2f}x"
            f"{t['add rg'] * 1e6:>20.2f}µs{t['add rg'] / ref['add rg']:>7.2f}x"
        )
    print(
        f"\n1 passthrough mode: {one['add'] * 1e6:.2f} µs per add; 8 modes: "
        f"{eight['add'] * 1e6:.2f} µs "
        f"({(eight['add'] - base_add['add']) / 8 * 1e6:.2f} µs per mode)"
    )
    torch = torch_or_none()
    if torch is not None:
        from torch.utils._python_dispatch import TorchDispatchMode as TorchMode

        ta, tb = torch.ones(16), torch.ones(16)
        t_out, t_in = _paired(lambda: _modes(TorchMode, 8), {"add": lambda: ta + tb})
        t_base, t_eight = t_out["add"], t_in["add"]
        print(
            f"PyTorch, 8 modes: {t_eight * 1e6:.2f} µs per add "
            f"({(t_eight - t_base) / 8 * 1e6:.2f} µs per mode); keyroute/PyTorch with 8 modes: "
            f"{eight['add'] / t_eight:.2f}x"
        )


if __name__ == "__main__":
    main()
