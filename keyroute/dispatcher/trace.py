"""The dispatch trace: every call and redispatch, its key set and chosen key, by depth.

Switched on for the whole process by `KEYROUTE_SHOW_DISPATCH_TRACE=1`, or for a block by
`show_dispatch_trace()`. Switching it drops every operator's resolution cache, so when it is off
the call path pays nothing for it.

>>> import io, keyroute
>>> buf = io.StringIO()
>>> with show_dispatch_trace(file=buf):
...     _ = keyroute.ones(2) + 1  # doctest: +SKIP
"""

from __future__ import annotations

import os
import sys
import threading
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from typing import IO, Any

__all__ = ["enabled", "show_dispatch_trace", "set_enabled", "traced"]

_printing = os.environ.get("KEYROUTE_SHOW_DISPATCH_TRACE", "") not in ("", "0")
_stream: IO[str] | None = None
#: Callbacks (op name, key name) called for every call and redispatch while tracing.
_recorders: list[Callable[[str, str], None]] = []
enabled = _printing
_local = threading.local()
#: While a profile records (keyroute.profiler): wrap(op, key, fn, collapse) -> the callable the
#: dispatcher caches for a resolution; None otherwise, so the plain path is untouched.
profile_wrap: Callable[..., Callable[..., Any]] | None = None
#: True when some consumer must see every layer (the trace; a profile with_dispatch): the
#: plain-path shortcut (see Note [plain path] in operator.py) is then not taken.
every_layer = _printing
_profile_every_layer = False


def _refresh() -> None:
    global enabled, every_layer
    enabled = _printing or bool(_recorders)
    every_layer = enabled or _profile_every_layer
    from .operator import _invalidate_all

    _invalidate_all()


def set_enabled(on: bool, file: IO[str] | None = None) -> None:
    global _printing, _stream
    _printing = on
    _stream = file
    _refresh()


def set_profile_wrap(wrap: Callable[..., Callable[..., Any]] | None, every_layer: bool) -> None:
    """Install (or remove, with None) the profiler's resolution wrapper; drops the caches."""
    global profile_wrap, _profile_every_layer
    profile_wrap = wrap
    _profile_every_layer = every_layer
    _refresh()


@contextmanager
def record_dispatch(callback: Callable[[str, str], None]) -> Iterator[None]:
    """Call callback(op, key) for every call and redispatch inside the block."""
    _recorders.append(callback)
    _refresh()
    try:
        yield
    finally:
        _recorders.remove(callback)
        _refresh()


@contextmanager
def show_dispatch_trace(file: IO[str] | None = None) -> Iterator[None]:
    """Print the dispatch trace of every operator call inside the block (to `file` or stderr)."""
    saved = (_printing, _stream)
    set_enabled(True, file)
    try:
        yield
    finally:
        set_enabled(*saved)


def traced(
    op: Any, ks: int, key: int, entry: Any, fn: Callable[..., Any], kind: str
) -> Callable[..., Any]:
    """Wrap a resolved kernel so that each run prints one indented trace line."""
    from .keys import key_name
    from .keyset import keyset_repr

    provenance = entry[1] if entry is not None else "missing"
    text = (
        f"op=[{op.qualified_name()}], key=[{key_name(key)}] [{provenance}] keyset={keyset_repr(ks)}"
    )

    op_name = op.qualified_name()
    kname = key_name(key)

    def run(*args: Any, **kwargs: Any) -> Any:
        depth = getattr(_local, "depth", 0)
        if _printing:
            out = _stream if _stream is not None else sys.stderr
            out.write(f"{'  ' * depth}[{kind}] {text}\n")
        for rec in _recorders:
            rec(op_name, kname)
        _local.depth = depth + 1
        try:
            return fn(*args, **kwargs)
        finally:
            _local.depth = depth

    return run
