"""The Python layer: dispatch modes and tensor subclasses with `__torch_dispatch__`.

Entering a TorchDispatchMode pushes it on this thread's mode stack and puts Python and
PythonTLSSnapshot in the TLS include set; a tensor subclass instance carries the Python key
itself. The Python key sits below autograd, so a mode sees the operators that reach the
backends (composite ones already decomposed). Its fallback calls the innermost mode's
`__torch_dispatch__` with that mode popped (inside the handler the mode is off, and the modes
below it are on), or else each subclass's `__torch_dispatch__`, with arguments boxed as PyTorch
boxes them.
"""

from __future__ import annotations

from typing import Any

from ..dispatcher.boxing import normalize_args
from ..dispatcher.keys import DispatchKey
from ..dispatcher.keyset import DispatchKeySet, full_after_bits, key_bits
from ..dispatcher.operator import BIND_HOOKS, LayerKernel
from ..dispatcher.registration import Library
from ..dispatcher.tls import state as _tls
from ..profiler import _state as _prof
from ..tensor._tensor import Tensor

__all__ = ["mode_stack", "push_mode", "pop_mode", "PYTHON_KEYS", "python_lib", "python_fallback"]

DK = DispatchKey
PYTHON_KEYS = key_bits(DK.Python) | key_bits(DK.PythonTLSSnapshot)
_PYTHON_BIT = key_bits(DK.Python)
_AFTER_PYTHON = full_after_bits(DK.Python)
_AFTER_SNAPSHOT = full_after_bits(DK.PythonTLSSnapshot)


def mode_stack() -> list[Any]:
    """This thread's stack of dispatch modes (innermost last)."""
    return _tls.thread_state.modes


#: Modes pushed while a handler runs with the Python keys hidden from the dispatcher (see
#: `_make_python_key`): popping one restores that state instead of dropping the keys.
_PUSHED_IN_HANDLER: set[int] = set()


def push_mode(mode: Any) -> None:
    st = _tls.thread_state
    stack = st.modes
    if not stack and st.include & PYTHON_KEYS:  # no mode, yet the keys: inside a handler
        _PUSHED_IN_HANDLER.add(id(mode))
    stack.append(mode)
    st.include |= PYTHON_KEYS
    st.refresh()


def pop_mode() -> Any:
    st = _tls.thread_state
    stack = st.modes
    if not stack:
        raise RuntimeError("Trying to pop from an empty mode stack")
    mode = stack.pop()
    if not stack:
        if id(mode) in _PUSHED_IN_HANDLER:
            _PUSHED_IN_HANDLER.discard(id(mode))
            include, mask = st.include_and_mask
            st.include_and_mask = (
                include & ~PYTHON_KEYS,
                mask,
            )  # hidden again, as the handler had it
        else:
            st.include &= ~PYTHON_KEYS
            st.refresh()
    return mode


def _flat_tensors(values: Any, out: list[Any]) -> None:
    for v in values:
        if isinstance(v, (list, tuple)):
            _flat_tensors(v, out)
        elif isinstance(v, Tensor):
            out.append(v)


def _subclass_types(args: tuple[Any, ...], kwargs: dict[str, Any]) -> tuple[type, ...]:
    """The distinct tensor-subclass types (with the Python key and `__torch_dispatch__`) among
    the arguments, subclasses before their bases (Python's own binary-operator rule)."""
    tensors: list[Any] = []
    _flat_tensors(args, tensors)
    _flat_tensors(kwargs.values(), tensors)
    types: list[type] = []
    for t in tensors:
        cls = type(t)
        if cls is not Tensor and t._key_set & _PYTHON_BIT and cls not in types:
            if getattr(cls, "__torch_dispatch__", None) is not None:
                types.append(cls)
    ordered: list[type] = []
    for cls in types:
        idx = next((i for i, o in enumerate(ordered) if issubclass(cls, o)), len(ordered))
        ordered.insert(idx, cls)
    return tuple(ordered)


#: Argument types that never are tensor subclasses (checked inline on the fast path).
_PLAIN_TYPES: frozenset[type] = frozenset({Tensor, int, float, bool, str, complex, type(None)})


def _plain_arity(schema: Any) -> int:
    """How many leading parameters are positional without a default: a positional call with at
    most that many arguments and no kwargs is already boxed as PyTorch boxes it."""
    n = 0
    if schema is not None:
        for a in schema.arguments:
            if a.kwarg_only or a.has_default_value():
                break
            n += 1
    return n


def _make_python_key(op: Any, after: int, arity: int) -> Any:
    """The Python key's kernel for one operator (`after`: the key set to redispatch with when
    neither a mode nor a subclass handles the call). Bound while a profile records, it shows
    each handler call as PyTorch does: a 'PythonDispatchMode' or 'PythonSubclass' event."""
    plain = _PLAIN_TYPES
    tls = _tls
    if _prof.collector is not None:
        return _profiled_python_key(_make_python_key_plain(op, after, arity, plain, tls))
    return _make_python_key_plain(op, after, arity, plain, tls)


def _profiled_python_key(kernel: Any) -> Any:
    def python_key(*args: Any, **kwargs: Any) -> Any:
        c = _prof.collector
        if c is None:
            return kernel(*args, **kwargs)
        stack = _tls.thread_state.modes
        rec = None
        if stack:
            rec = c.begin("PythonDispatchMode", "cpu_op")
        elif any(type(a) not in _PLAIN_TYPES for a in args):
            rec = c.begin("PythonSubclass", "cpu_op")
        try:
            return kernel(*args, **kwargs)
        finally:
            if rec is not None:
                c.end(rec)

    return python_key


def _make_python_key_plain(op: Any, after: int, arity: int, plain: Any, tls: Any) -> Any:

    def python_key(*args: Any, **kwargs: Any) -> Any:
        if kwargs or len(args) > arity:
            args, kwargs = normalize_args(op._schema, args, kwargs)
        types: tuple[type, ...] = ()
        for a in args:
            if type(a) not in plain:
                types = _subclass_types(args, kwargs)
                break
        else:
            if kwargs:
                types = _subclass_types((), kwargs)
        st = tls.thread_state  # the one thread-local lookup; the rest are plain attributes
        stack = st.modes
        if stack:
            mode = stack.pop()
            if stack:
                try:
                    return mode.__torch_dispatch__(op, types, args, kwargs)
                finally:
                    stack.append(mode)
            # The last mode: calls the handler makes skip the Python key. Only `include_and_mask`
            # (the (include, mask) pair the dispatcher reads) drops it, which is cheaper than a
            # guard's recomputation. Should the handler recompute `include_and_mask` (a grad-mode
            # or key guard), its calls reach this kernel again, find no mode and go below: the
            # same result.
            include_and_mask = st.include_and_mask
            hidden = st.include_and_mask = (
                include_and_mask[0] & ~PYTHON_KEYS,
                include_and_mask[1],
            )
            try:
                return mode.__torch_dispatch__(op, types, args, kwargs)
            finally:
                stack.append(mode)
                now = st.include_and_mask
                # Untouched by the handler: the saved pair as it was; else its new one, shown.
                st.include_and_mask = (
                    include_and_mask if now is hidden else (now[0] | PYTHON_KEYS, now[1])
                )
        if not types:
            return op._redispatch(after, *args, **kwargs)
        for cls in types:
            result = cls.__torch_dispatch__(op, types, args, kwargs)
            if result is not NotImplemented:
                return result
        raise TypeError(
            f"Multiple dispatch failed for 'keyroute._ops.{op}'; all __torch_dispatch__ handlers "
            f"returned "
            f"NotImplemented:\n\n"
            + "".join(f"  - tensor subclass {t}\n" for t in types)
            + "\nFor more information, try re-running with TORCH_LOGS=not_implemented"
        )

    return python_key


def python_fallback(keyset: DispatchKeySet, op: Any, *args: Any, **kwargs: Any) -> Any:
    """The Python key's fallback: the innermost mode (popped while its handler runs), else the
    tensor subclasses' `__torch_dispatch__`, with the arguments boxed as PyTorch boxes them.

    The dispatcher binds a per-operator closure of it instead (`_bind_python_key`)."""
    kernel = _make_python_key(op, keyset.repr_ & _AFTER_PYTHON, _plain_arity(op._schema))
    return kernel(*args, **kwargs)


def _bind_python_key(op: Any, ks: int, key: int, reg: Any, bound: Any) -> Any:
    """Bind hook: for the Python fallback, a closure with this operator's boxing arity and
    redispatch key set computed once (the dispatcher drops it on any registration change)."""
    if reg.fn is not python_fallback:
        return bound
    return _make_python_key(op, ks & _AFTER_PYTHON, _plain_arity(op._schema))


class PythonTLSSnapshotFallback(LayerKernel):
    """Snapshots the TLS for the Python key (keyroute keeps TLS in one place): a passthrough."""

    def passthrough(self, ks: int) -> int:
        return ks & _AFTER_SNAPSHOT

    def __call__(self, keyset: DispatchKeySet, op: Any, *args: Any, **kwargs: Any) -> Any:
        return op._redispatch(keyset.repr_ & _AFTER_SNAPSHOT, *args, **kwargs)


python_lib = Library._internal("_", "IMPL")
python_lib.fallback(python_fallback, "Python", with_keyset=True)
python_lib.fallback(PythonTLSSnapshotFallback(), "PythonTLSSnapshot", with_keyset=True)
BIND_HOOKS.append(_bind_python_key)
