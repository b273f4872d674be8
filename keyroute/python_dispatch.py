"""The Python layer: dispatch modes and tensor subclasses with `__torch_dispatch__`.

Entering a TorchDispatchMode pushes it on this thread's mode stack and puts Python and
PythonTLSSnapshot in the TLS include set; a tensor subclass instance carries the Python key
itself. The Python key sits below autograd, so a mode sees the operators that reach the
backends (composite ones already decomposed). Its fallback calls the innermost mode's
`__torch_dispatch__` with that mode popped (inside the handler the mode is off), or else each
subclass's `__torch_dispatch__`, with arguments boxed as PyTorch boxes them.
"""

from __future__ import annotations

import threading
from typing import Any

from .dispatcher.boxing import normalize_args
from .dispatcher.keys import DispatchKey
from .dispatcher.keyset import DispatchKeySet, full_after_bits, key_bits
from .dispatcher.operator import LayerKernel
from .dispatcher.tls import state as _tls
from .library import Library

__all__ = ["mode_stack", "push_mode", "pop_mode", "PYTHON_KEYS", "python_lib"]

DK = DispatchKey
PYTHON_KEYS = key_bits(DK.Python) | key_bits(DK.PythonTLSSnapshot)
_AFTER_PYTHON = full_after_bits(DK.Python)
_AFTER_SNAPSHOT = full_after_bits(DK.PythonTLSSnapshot)
_local = threading.local()


def mode_stack() -> list[Any]:
    stack = getattr(_local, "stack", None)
    if stack is None:
        stack = _local.stack = []
    return stack


def push_mode(mode: Any) -> None:
    mode_stack().append(mode)
    _tls.include |= PYTHON_KEYS
    _tls.refresh()


def pop_mode() -> Any:
    stack = mode_stack()
    if not stack:
        raise RuntimeError("Trying to pop from an empty mode stack")
    mode = stack.pop()
    if not stack:
        _tls.include &= ~PYTHON_KEYS
        _tls.refresh()
    return mode


def _flat_tensors(values: Any, out: list[Any]) -> None:
    for v in values:
        if isinstance(v, (list, tuple)):
            _flat_tensors(v, out)
        elif hasattr(v, "_ks"):
            out.append(v)


def _subclass_types(args: tuple[Any, ...], kwargs: dict[str, Any]) -> list[type]:
    from .tensor._tensor import Tensor

    tensors: list[Any] = []
    _flat_tensors(args, tensors)
    _flat_tensors(kwargs.values(), tensors)
    types: list[type] = []
    for t in tensors:
        cls = type(t)
        if cls is not Tensor and t._ks & key_bits(DK.Python) and cls not in types:
            if getattr(cls, "__torch_dispatch__", None) is not None:
                types.append(cls)
    # Subclasses before their bases, as Python's own binary-operator rule.
    ordered: list[type] = []
    for cls in types:
        idx = next((i for i, o in enumerate(ordered) if issubclass(cls, o)), len(ordered))
        ordered.insert(idx, cls)
    return ordered


class PythonFallback:
    """The Python key's fallback: modes first, then tensor subclasses."""

    def __call__(self, keyset: DispatchKeySet, op: Any, *args: Any, **kwargs: Any) -> Any:
        nargs, nkwargs = normalize_args(op._schema, args, kwargs)
        stack = mode_stack()
        types = tuple(_subclass_types(nargs, nkwargs))
        if stack:
            mode = pop_mode()
            try:
                return mode.__torch_dispatch__(op, types, nargs, nkwargs)
            finally:
                push_mode(mode)
        if not types:
            return op._redispatch(keyset.repr_ & _AFTER_PYTHON, *args, **kwargs)
        for cls in types:
            result = cls.__torch_dispatch__(op, types, nargs, nkwargs)
            if result is not NotImplemented:
                return result
        raise TypeError(
            f"Multiple dispatch failed for '{op}'; all __torch_dispatch__ handlers returned "
            f"NotImplemented:\n\n"
            + "".join(f"  - tensor subclass {t}\n" for t in types)
            + "\nFor more information, try re-running with TORCH_LOGS=not_implemented"
        )


class PythonTLSSnapshotFallback(LayerKernel):
    """Snapshots the TLS for the Python key (keyroute keeps TLS in one place): a passthrough."""

    def passthrough(self, ks: int) -> int:
        return ks & _AFTER_SNAPSHOT

    def __call__(self, keyset: DispatchKeySet, op: Any, *args: Any, **kwargs: Any) -> Any:
        return op._redispatch(keyset.repr_ & _AFTER_SNAPSHOT, *args, **kwargs)


python_lib = Library._internal("_", "IMPL")
python_lib.fallback(PythonFallback(), "Python", with_keyset=True)
python_lib.fallback(PythonTLSSnapshotFallback(), "PythonTLSSnapshot", with_keyset=True)
