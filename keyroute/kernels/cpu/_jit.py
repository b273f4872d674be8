"""The numba-compiled CPU kernels (the `compile` extra), loaded on first use.

numba takes about a second to import, so `import keyroute` does not import it, and neither
does a short program: as the random kernels (_random_jit.py), the compiled loops are loaded
once a process has made `_WARM_CALLS` calls that want them, or at once for an array of
`_LARGE` elements or more (a training loop or a large reduction), by importing
`_numba_kernels` (compiled with `cache=True`, so later processes load them from numba's
cache). Until then, without numba, or with the environment variable KEYROUTE_NUMBA=0,
`kernels()` returns None and the callers use their NumPy code, which computes the same bits
(tests/runtime/test_fma_sum_jit.py).
"""

from __future__ import annotations

import os
from types import ModuleType
from typing import Any

__all__ = ["kernels", "set_enabled"]

_UNSET = object()
_loaded: object = _UNSET  # the kernel module, or None when numba is absent or disabled
_calls = 0
_WARM_CALLS = 32
_LARGE = 1 << 15


def kernels(size: int = _LARGE) -> ModuleType | None:
    """The compiled kernel module for an operation on `size` elements, or None to take the
    NumPy path (not loaded yet, numba absent, or KEYROUTE_NUMBA=0)."""
    if _loaded is not _UNSET:
        return _loaded  # type: ignore[return-value]
    global _calls
    _calls += 1
    if size < _LARGE and _calls <= _WARM_CALLS:
        return None
    _load()
    return _loaded  # type: ignore[return-value]


def _load() -> None:
    global _loaded
    if os.environ.get("KEYROUTE_NUMBA", "1") == "0":
        _loaded = None
        return
    try:
        with _unhooked_print():
            from . import _numba_kernels
    except ImportError:  # the `compile` extra is not installed: NumPy fallbacks
        _loaded = None
    else:
        _loaded = _numba_kernels


def _unhooked_print() -> Any:
    """The real builtins.print during numba's import when a compile's capture hooks it
    (keyroute/_dynamo/breaks.py real_print); nothing when no capture module is loaded."""
    import contextlib
    import sys

    breaks = sys.modules.get("keyroute._dynamo.breaks")
    return breaks.real_print() if breaks is not None else contextlib.nullcontext()


def set_enabled(enabled: bool) -> bool:
    """Turn the compiled kernels on or off for this process (tests and benchmarks compare the
    two paths); returns whether they were on. On means loaded when numba is importable."""
    global _loaded
    was = kernels() is not None
    _loaded = _UNSET if enabled else None
    if enabled:
        saved = os.environ.pop("KEYROUTE_NUMBA", None)
        try:
            _load()
        finally:
            if saved is not None:
                os.environ["KEYROUTE_NUMBA"] = saved
    return was
