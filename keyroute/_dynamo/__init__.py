"""keyroute._dynamo (torch._dynamo): keyroute.compile's capture, guards and graph breaks.

See api.py (the public calls), eval_frame.py (the cache of guarded variants), capture.py (the
fake-tensor trace and segmented runs) and breaks.py (graph breaks with PyTorch's wording).
"""

from __future__ import annotations

from . import config, exc
from .api import (
    ExplainOutput,
    OptimizedModule,
    compile,
    disable,
    explain,
    graph_break,
    optimize,
)
from .backends import list_backends, lookup_backend, register_backend
from .eval_frame import _is_compiling, counters, reset

__all__ = [
    "config",
    "exc",
    "compile",
    "optimize",
    "explain",
    "disable",
    "graph_break",
    "reset",
    "OptimizedModule",
    "ExplainOutput",
    "list_backends",
    "register_backend",
    "lookup_backend",
    "is_compiling",
    "mark_dynamic",
    "mark_static",
    "maybe_mark_dynamic",
    "allow_in_graph",
    "assume_constant_result",
]


def is_compiling() -> bool:
    return _is_compiling()


def mark_dynamic(t: object, index: object, **kwargs: object) -> None:
    """Recorded for PyTorch compatibility; keyroute compiles a variant per size (no symbolic
    shapes), so marking changes only the recompile limit's count."""
    dims = getattr(t, "_dynamo_dynamic_indices", set())
    dims.update(index if isinstance(index, (list, tuple, set)) else [index])
    try:
        t._dynamo_dynamic_indices = dims  # type: ignore[attr-defined]
    except AttributeError:
        pass


maybe_mark_dynamic = mark_dynamic


def mark_static(t: object, index: object = None) -> None:
    return None


def allow_in_graph(fn: object) -> object:
    return fn


def assume_constant_result(fn: object) -> object:
    return fn


class _Utils:
    counters = counters


utils = _Utils()
