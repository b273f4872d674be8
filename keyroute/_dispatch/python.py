"""The Python dispatcher (torch._dispatch.python): Python kernels per dispatch key and per
dispatch-mode type, given with `OpOverload.py_impl(key_or_mode)`, active inside
`enable_python_dispatcher()` (AOT tracing enters it, as PyTorch's does).

Inside the context, each operator's Python kernels are registered with the dispatcher: one for
a key becomes that key's kernel; those for mode types become one Python-key kernel that runs
the kernel of the innermost mode's type (with the mode popped, as a mode's handler runs) and
otherwise does what the Python key does. Leaving the context removes them, so the plain path
never pays for the feature.

    @keyroute.ops.aten.sin.default.py_impl(keyroute.DispatchKey.CPU)
    def my_sin(x): ...

    with enable_python_dispatcher():
        keyroute.sin(x)          # runs my_sin

(A sketch, not a doctest: a py_impl registration stays on the operator for the process.)
"""

from __future__ import annotations

import contextlib
import warnings
from collections.abc import Callable, Iterator
from typing import Any

from ..dispatcher.keys import DispatchKey
from ..dispatcher.operator import OpOverload
from ..layers.python import mode_stack, python_fallback
from ..library import Library
from ..utils.python_dispatch import _pop_mode_temporarily

__all__ = ["enable_python_dispatcher", "python_dispatcher_enabled"]

_OPS_WITH_PY_KERNELS: list[OpOverload] = []
_DEPTH = [0]


def _py_impl(self: OpOverload, k: Any) -> Callable[[Callable[..., Any]], Callable[..., Any]]:
    """`op.py_impl(key_or_mode_type)`: register the decorated Python kernel (PyTorch's)."""

    def wrap(fn: Callable[..., Any]) -> Callable[..., Any]:
        table = self.__dict__.setdefault("py_kernels", {})
        if k in table:
            raise RuntimeError(
                f"Trying to override a python impl for {k} on operator {self.name()}"
            )
        table[k] = fn
        if self not in _OPS_WITH_PY_KERNELS:
            _OPS_WITH_PY_KERNELS.append(self)
        return fn

    return wrap


OpOverload.py_impl = _py_impl  # type: ignore[attr-defined]


def _mode_kernel(op: OpOverload, table: dict[type, Callable[..., Any]]) -> Callable[..., Any]:
    def kernel(keyset: Any, *args: Any, **kwargs: Any) -> Any:
        stack = mode_stack()
        if stack:
            for cls in type(stack[-1]).__mro__:
                fn = table.get(cls)
                if fn is not None:
                    with _pop_mode_temporarily() as mode:
                        return fn(mode, *args, **kwargs)
        return python_fallback(keyset, op, *args, **kwargs)

    return kernel


def python_dispatcher_enabled() -> bool:
    return _DEPTH[0] > 0


@contextlib.contextmanager
def enable_python_dispatcher() -> Iterator[None]:
    if _DEPTH[0] or not _OPS_WITH_PY_KERNELS:
        _DEPTH[0] += 1
        try:
            yield
        finally:
            _DEPTH[0] -= 1
        return
    libs: dict[str, Library] = {}
    with warnings.catch_warnings():
        # Overriding the registered kernel for the context is the point: no warning.
        warnings.simplefilter("ignore", UserWarning)
        _register(libs)
    _DEPTH[0] += 1
    try:
        yield
    finally:
        _DEPTH[0] -= 1
        for lib in libs.values():
            lib._destroy()


def _register(libs: dict[str, Library]) -> None:
    for op in _OPS_WITH_PY_KERNELS:
        lib = libs.get(op.namespace)
        if lib is None:
            lib = libs[op.namespace] = Library(op.namespace, "IMPL")
        modes = {}
        for k, fn in op.__dict__["py_kernels"].items():
            if isinstance(k, type):
                modes[k] = fn
            else:
                lib.impl(op, fn, k if isinstance(k, str) else DispatchKey(k).name)
        if modes:
            lib.impl(op, _mode_kernel(op, modes), "Python", with_keyset=True)
