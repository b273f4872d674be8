"""The dispatcher's reference semantics: one call, step by step, in plain Python.

`dispatch(op, *args, **kwargs)` does what `op(*args, **kwargs)` does, without any of the
speed: no caches, no generated code, no plain-path shortcut. The fast paths (the generated
`OpOverload.__call__` specialisations and `fast_call` forms, keyroute/dispatcher/operator.py)
must agree with it on every recorded dispatch case (tests/dispatcher/test_reference.py), so
when the fast code is hard to follow, this is the code to read.

>>> import keyroute
>>> from keyroute.dispatcher.reference import dispatch
>>> a = keyroute.ones(2)
>>> dispatch(keyroute.ops.aten.add.Tensor, a, a)
tensor([2., 2.])
"""

from __future__ import annotations

import functools
from typing import Any

from .keyset import (
    BACKEND_MASK,
    FULL,
    FUNCTIONALITY_MASK,
    REQUIRES_GRAD_BIT,
    DispatchKeySet,
    highest_priority_key,
)
from .operator import (
    _AMBIGUOUS,
    _FALLTHROUGH_EXECUTED,
    _START_KEYS,
    BIND_HOOKS,
    KernelRegistration,
    OpOverload,
    _ambiguous_error,
    _arg_keys,
    _no_kernel_error,
)
from .tls import state as _tls

__all__ = ["dispatch", "dispatch_key_set", "lookup"]


def dispatch_key_set(op: OpOverload, args: tuple[Any, ...], kwargs: dict[str, Any]) -> int:
    """Step 1: the key set of the call, as PyTorch's computeDispatchKeySet."""
    ks = 0
    for i, name, _kind in op._tensor_args:  # the union of the tensor arguments' keys
        value = args[i] if i < len(args) else kwargs.get(name)
        ks |= _arg_keys(value)
    s = _tls.thread_state  # this thread's TLS: its include set is added, its exclude set removed
    ks = (ks | s.include) & (FULL & ~(s.exclude & FUNCTIONALITY_MASK))
    if not s.grad_enabled:
        ks &= ~REQUIRES_GRAD_BIT  # with grad off, no input "requires grad"
    return ks


def lookup(op: OpOverload, ks: int) -> tuple[int, int, KernelRegistration | None]:
    """Step 2: the key that handles ks, the key set without fallthrough keys (masked out per
    the highest backend, as PyTorch does), and the key's entry in the computed table."""
    table = op._get_table()
    ks &= op._masks[(ks & BACKEND_MASK).bit_length()]
    key = highest_priority_key(ks)
    entry = table.get(key)
    if entry is None and key in _START_KEYS:
        # A per-backend functionality without a backend bit indexes its first backend's slot.
        entry = table.get(key + 1)
    return key, ks, None if entry is None else entry[0]


def dispatch(op: OpOverload, *args: Any, **kwargs: Any) -> Any:
    """Step 3: call the kernel, the way its registration asks for."""
    if op._schema is None:
        return op(*args, **kwargs)  # no schema: the operator's own error
    key, ks, reg = lookup(op, dispatch_key_set(op, args, kwargs))
    if reg is None:
        raise _no_kernel_error(op, key)
    if reg is _AMBIGUOUS:
        raise _ambiguous_error(op)
    if reg.fallthrough:
        raise RuntimeError(_FALLTHROUGH_EXECUTED)
    fn = reg.fn
    if reg.is_fallback:  # a backend fallback is boxed: it is told which operator runs
        head = (DispatchKeySet.from_raw(ks), op) if reg.with_keyset else (op,)
        bound = functools.partial(fn, *head)
    elif reg.with_keyset:  # a layer kernel: it redispatches below itself with this key set
        bound = functools.partial(fn, DispatchKeySet.from_raw(ks))
    else:
        bound = fn
    for hook in BIND_HOOKS:  # layers that act at bind time (the Python key, inference mode)
        bound = hook(op, ks, key, reg, bound)
    return bound(*args, **kwargs)
