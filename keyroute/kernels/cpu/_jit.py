"""The numba-compiled CPU kernels (the `compile` extra), loaded on first use.

numba takes about a second to import, so `import keyroute` does not import it: the first kernel
that wants a compiled loop calls `kernels()`, which imports `_numba_kernels` once (its functions
are compiled with `cache=True`, so later processes load them from numba's cache). Without numba,
or with the environment variable KEYROUTE_NUMBA=0, `kernels()` returns None and the callers
use their NumPy code, which computes the same bits (tests/kernels/test_jit_kernels.py).
"""

from __future__ import annotations

import os
from types import ModuleType

__all__ = ["kernels", "set_enabled"]

_UNSET = object()
_loaded: object = _UNSET  # the kernel module, or None when numba is absent or disabled


def kernels() -> ModuleType | None:
    """The compiled kernel module, or None (numba absent, or KEYROUTE_NUMBA=0)."""
    if _loaded is _UNSET:
        _load()
    return _loaded  # type: ignore[return-value]


def _load() -> None:
    global _loaded
    if os.environ.get("KEYROUTE_NUMBA", "1") == "0":
        _loaded = None
        return
    try:
        from . import _numba_kernels
    except ImportError:  # the `compile` extra is not installed: NumPy fallbacks
        _loaded = None
    else:
        _loaded = _numba_kernels


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
