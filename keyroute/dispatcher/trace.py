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

enabled = os.environ.get("KEYROUTE_SHOW_DISPATCH_TRACE", "") not in ("", "0")
_stream: IO[str] | None = None
_local = threading.local()


def set_enabled(on: bool, file: IO[str] | None = None) -> None:
    global enabled, _stream
    enabled = on
    _stream = file
    from .operator import _invalidate_all

    _invalidate_all()


@contextmanager
def show_dispatch_trace(file: IO[str] | None = None) -> Iterator[None]:
    """Print the dispatch trace of every operator call inside the block (to `file` or stderr)."""
    saved = (enabled, _stream)
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

    def run(*args: Any, **kwargs: Any) -> Any:
        depth = getattr(_local, "depth", 0)
        out = _stream if _stream is not None else sys.stderr
        out.write(f"{'  ' * depth}[{kind}] {text}\n")
        _local.depth = depth + 1
        try:
            return fn(*args, **kwargs)
        finally:
            _local.depth = depth

    return run
