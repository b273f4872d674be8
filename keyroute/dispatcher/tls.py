"""Thread-local dispatch state: the included and excluded key sets, and grad mode.

A call's key set is `((OR of its tensors' key sets) | include) - exclude`. PyTorch's defaults:
include = {BackendSelect, ADInplaceOrView}; exclude = every Autocast key (autocast is off until a
context turns it on). Every guard here restores exactly what it changed, on exceptions too, and
only in its own thread.

Note: grad mode is not a key in PyTorch, but keyroute folds it into the precomputed `mask`
(clearing the private requires-grad bit when grad is off) so the plain path reads one int.

>>> from keyroute.dispatcher.keyset import keyset_repr
>>> keyset_repr(local_include())
'DispatchKeySet(BackendSelect, ADInplaceOrView)'
>>> with AutoDispatchBelowAutograd():
...     is_excluded(DispatchKey.AutogradOther)
True
"""

from __future__ import annotations

import os
import threading
from typing import Any

from .keys import DispatchKey
from .keyset import (
    FULL,
    FUNCTIONALITY_MASK,
    REQUIRES_GRAD_BIT,
    VISIBLE_MASK,
    DispatchKeySet,
    functionality_bit,
    key_bits,
)

__all__ = [
    "state",
    "ThreadState",
    "local_include",
    "local_exclude",
    "is_included",
    "is_excluded",
    "set_included",
    "set_excluded",
    "IncludeDispatchKeyGuard",
    "ExcludeDispatchKeyGuard",
    "ForceDispatchKeyGuard",
    "AutoDispatchBelowAutograd",
    "AutoDispatchBelowADInplaceOrView",
    "AUTOGRAD_KEYSET",
    "redispatch_below_ad_inplace_or_view",
    "AUTOCAST_KEYSET",
    "DEFAULT_INCLUDE",
    "DEFAULT_EXCLUDE",
]

DK = DispatchKey

AUTOCAST_KEYSET = 0
for _k in range(int(DK.AutocastCPU), int(DK.AutocastPrivateUse1) + 1):
    AUTOCAST_KEYSET |= functionality_bit(_k)
#: autograd_dispatch_keyset: the Autograd functionality (all backends), Other, NestedTensor.
AUTOGRAD_KEYSET = (
    functionality_bit(int(DK.AutogradFunctionality))
    | key_bits(DK.AutogradOther)
    | key_bits(DK.AutogradNestedTensor)
)
AUTOGRAD_WITH_INPLACE_OR_VIEW = AUTOGRAD_KEYSET | key_bits(DK.ADInplaceOrView)
DEFAULT_INCLUDE = key_bits(DK.BackendSelect) | key_bits(DK.ADInplaceOrView)
DEFAULT_EXCLUDE = AUTOCAST_KEYSET


class ThreadState:
    """One thread's dispatch state; `mask` = ~exclude, without the requires-grad bit when grad
    is off. `include_and_mask` is the (include, mask) pair the call path reads at once. Plain
    slots: once a hot path has fetched it (`_tls.thread_state`, the one thread-local lookup),
    reading and writing its fields costs what any attribute costs, not a thread-local lookup
    each (about 5 ns against 60-80 ns here)."""

    __slots__ = ("include", "exclude", "grad_enabled", "mask", "include_and_mask", "extra", "modes")

    def __init__(self) -> None:
        self.include = DEFAULT_INCLUDE
        self.exclude = DEFAULT_EXCLUDE
        self.grad_enabled = True
        self.extra: dict[str, Any] = {}  # other layers' thread-local values
        self.modes: list[Any] = []  # the Python dispatch mode stack (innermost last)
        self.refresh()

    def refresh(self) -> None:
        """Recompute the derived values after include, exclude or grad mode changed."""
        # `- exclude` clears functionality bits only, never backend bits (as PyTorch's `-`).
        mask = FULL & ~(self.exclude & FUNCTIONALITY_MASK)
        self.mask = mask if self.grad_enabled else mask & ~REQUIRES_GRAD_BIT
        # The call path reads both at once (one lookup).
        self.include_and_mask = (self.include, self.mask)


def _forward(name: str) -> property:
    def get(self: _State) -> Any:
        return getattr(self.thread_state, name)

    def set_(self: _State, value: Any) -> None:
        setattr(self.thread_state, name, value)

    return property(get, set_, doc=f"This thread's `{name}` (forwarded to `state.thread_state`).")


class _State(threading.local):
    """The per-thread holder: `state.thread_state` is this thread's ThreadState. Its fields are
    forwarded here too, for code off the hot path."""

    def __init__(self) -> None:
        self.thread_state = ThreadState()

    include = _forward("include")
    exclude = _forward("exclude")
    grad_enabled = _forward("grad_enabled")
    mask = _forward("mask")
    include_and_mask = _forward("include_and_mask")
    extra = _forward("extra")

    def refresh(self) -> None:
        self.thread_state.refresh()


state = _State()


# AutoDispatchBelowADInplaceOrView's exclusion, and the bits it clears from the mask.
BELOW_AD_EXCLUDE = AUTOGRAD_WITH_INPLACE_OR_VIEW
BELOW_AD_MASK = ~(AUTOGRAD_WITH_INPLACE_OR_VIEW & FUNCTIONALITY_MASK)

#: The below-autograd guard (PyTorch's AutoDispatchBelowADInplaceOrView, which the autograd and
#: ADInplaceOrView kernels set) as a code template: `out = {call}` runs with the autograd and
#: ADInplaceOrView keys excluded for everything it calls. `st` is this thread's ThreadState.
#: Every recorded operator passes here, so the guard is inlined into generated code (this
#: module's `redispatch_below_ad_inplace_or_view` and the autograd recorders, layers/recorder.py)
#: rather than entered as a context manager: the derived values are saved and restored as they
#: were instead of recomputed. The context-manager form is AutoDispatchBelowADInplaceOrView.
BELOW_AD_GUARD = """\
exclude, mask, include_and_mask = st.exclude, st.mask, st.include_and_mask
if exclude & BELOW_AD_EXCLUDE == BELOW_AD_EXCLUDE:
    out = {call}
else:
    st.exclude = exclude | BELOW_AD_EXCLUDE
    st.mask = new_mask = mask & BELOW_AD_MASK
    st.include_and_mask = (include_and_mask[0], new_mask)
    try:
        out = {call}
    finally:
        st.exclude, st.mask, st.include_and_mask = exclude, mask, include_and_mask
"""


#: CPU kernels that call no operator (pure NumPy): below autograd, the guard around them is
#: unobservable (nothing they run dispatches), so the autograd recorders call them without it.
#: Whatever else a key set resolves to (a Python mode's or subclass's kernel, a batching rule,
#: a profiler or trace wrapper, a composite kernel) runs under the guard.
LEAF_KERNELS: set[Any] = set()


def leaf_kernel(fn: Any) -> Any:
    """Mark fn as a kernel that calls no operator (see LEAF_KERNELS)."""
    LEAF_KERNELS.add(fn)
    return fn


def _define_redispatch_below() -> Any:
    from .codegen import define, indent

    src = (
        "# Generated by keyroute/dispatcher/tls.py from BELOW_AD_GUARD: op._redispatch(ks,\n"
        "# *args, **kwargs) with the autograd and ADInplaceOrView keys excluded for everything\n"
        "# it calls (PyTorch's AutoDispatchBelowADInplaceOrView).\n"
        "def redispatch_below_ad_inplace_or_view(op, ks, args, kwargs):\n"
        "    fn = op._rcache.get(ks)\n"
        "    if fn is None:\n"
        "        fn = op._resolve(ks, False)\n"
        "    if fn in LEAF:  # calls no operator: the guard would be unobservable\n"
        "        return fn(*args, **kwargs) if kwargs else fn(*args)\n"
        "    st = state.thread_state\n"
        + indent(BELOW_AD_GUARD.format(call="fn(*args, **kwargs)"), 4)
        + "    return out\n"
    )
    namespace = {
        "LEAF": LEAF_KERNELS,
        "state": state,
        "BELOW_AD_EXCLUDE": BELOW_AD_EXCLUDE,
        "BELOW_AD_MASK": BELOW_AD_MASK,
    }
    fn = define(
        src,
        "redispatch_below_ad_inplace_or_view",
        namespace,
        "redispatch_below_ad_inplace_or_view",
        template_file=os.path.abspath(__file__),
    )
    fn.__module__ = __name__
    return fn


redispatch_below_ad_inplace_or_view = _define_redispatch_below()


def local_include() -> int:
    return state.thread_state.include


def local_exclude() -> int:
    return state.thread_state.exclude


def is_included(key: int) -> bool:
    bits = key_bits(key)
    return bool(bits) and state.thread_state.include & bits == bits


def is_excluded(key: int) -> bool:
    bits = key_bits(key)
    return bool(bits) and state.thread_state.exclude & bits == bits


def set_included(key: int, value: bool) -> None:
    bits = key_bits(key)
    state.thread_state.include = (
        state.thread_state.include | bits if value else state.thread_state.include & ~bits
    )
    state.thread_state.refresh()


def set_excluded(key: int, value: bool) -> None:
    bits = key_bits(key)
    state.thread_state.exclude = (
        state.thread_state.exclude | bits if value else state.thread_state.exclude & ~bits
    )
    state.thread_state.refresh()


def _bits(keys: Any) -> int:
    if isinstance(keys, DispatchKeySet):
        return keys.repr_ & VISIBLE_MASK
    if isinstance(keys, int):
        return key_bits(keys)
    out = 0
    for k in keys:
        out |= _bits(k)
    return out


class IncludeDispatchKeyGuard:
    """Adds keys to the thread's include set; on exit removes the ones it added."""

    __slots__ = ("bits", "_added")

    def __init__(self, keys: Any) -> None:
        self.bits = _bits(keys)

    def __enter__(self) -> IncludeDispatchKeyGuard:
        self._added = self.bits & ~state.thread_state.include
        state.thread_state.include |= self._added
        state.thread_state.refresh()
        return self

    def __exit__(self, *exc: object) -> None:
        state.thread_state.include &= ~self._added
        state.thread_state.refresh()


class ExcludeDispatchKeyGuard:
    """Adds keys to the thread's exclude set; on exit removes the ones it added."""

    __slots__ = ("bits", "_added")

    def __init__(self, keys: Any) -> None:
        self.bits = _bits(keys)

    def __enter__(self) -> ExcludeDispatchKeyGuard:
        self._added = self.bits & ~state.thread_state.exclude
        state.thread_state.exclude |= self._added
        state.thread_state.refresh()
        return self

    def __exit__(self, *exc: object) -> None:
        state.thread_state.exclude &= ~self._added
        state.thread_state.refresh()


class ForceDispatchKeyGuard:
    """Sets both sets exactly (e.g. to replay a snapshot); restores them on exit."""

    __slots__ = ("include", "exclude", "_saved")

    def __init__(self, include: Any, exclude: Any) -> None:
        self.include = _bits(include)
        self.exclude = _bits(exclude)

    def __enter__(self) -> ForceDispatchKeyGuard:
        self._saved = (state.thread_state.include, state.thread_state.exclude)
        state.thread_state.include, state.thread_state.exclude = self.include, self.exclude
        state.thread_state.refresh()
        return self

    def __exit__(self, *exc: object) -> None:
        state.thread_state.include, state.thread_state.exclude = self._saved
        state.thread_state.refresh()


class AutoDispatchBelowAutograd(ExcludeDispatchKeyGuard):
    """Excludes the autograd keys: calls go straight below autograd (no graph is recorded)."""

    __slots__ = ()

    def __init__(self) -> None:
        self.bits = AUTOGRAD_KEYSET


class AutoDispatchBelowADInplaceOrView(ExcludeDispatchKeyGuard):
    """Excludes the autograd keys and ADInplaceOrView."""

    __slots__ = ()

    def __init__(self) -> None:
        self.bits = AUTOGRAD_WITH_INPLACE_OR_VIEW
