"""The profiler's recording core: the active collector, the dispatcher hook, record_function.

Design (why the plain path pays nothing): the dispatcher caches one resolved callable per
operator and key set. While a profile records, `keyroute.dispatcher.trace` holds a wrapper
factory (`_wrap`) that `OpOverload._resolve` applies to every resolution, and switching it on or
off drops every resolution cache. So with no profile running the cached callables are exactly
the plain ones, and while one runs each top-level operator call goes through one closure that
appends an event record (PyTorch's RecordFunction in `Dispatcher::call`). Redispatches are not
events, as in PyTorch, unless `with_dispatch=True` asks for one child event per dispatch key.

An event record is a list (cheap to make): [name, t0, t1, parent, shapes, kind, key, mem]
with times in perf_counter nanoseconds and `parent` the index of the enclosing record (-1 at
the top). `mem` is a list of (time, bytes) allocations (+) and frees (-) made while the event
was innermost (profile_memory=True).
"""

from __future__ import annotations

import functools
import sys
import time
import weakref
from collections.abc import Callable, Iterator
from contextlib import ContextDecorator
from typing import Any

__all__ = ["Collector", "record_function", "active", "start", "stop"]

_now = time.perf_counter_ns

NAME, T0, T1, PARENT, SHAPES, KIND, KEY, MEM, STACK = range(9)

#: The collector recording now, or None (read by record_function and the autograd engine).
collector: Collector | None = None


class Collector:
    """Events of one recording window (one profile, or one active span of a schedule)."""

    def __init__(
        self,
        *,
        record_shapes: bool = False,
        profile_memory: bool = False,
        with_stack: bool = False,
        with_dispatch: bool = False,
    ) -> None:
        self.events: list[list[Any]] = []
        self.stack: list[int] = [-1]
        self.record_shapes = record_shapes
        self.profile_memory = profile_memory
        self.with_stack = with_stack
        self.with_dispatch = with_dispatch
        self.t_start = _now()
        self.t_stop = 0
        #: id(root array) of storages seen (memory profiling), with their byte counts.
        self._live: dict[int, int] = {}
        #: (time, bytes, event index or -1) of every allocation and free, in order.
        self.memory: list[tuple[int, int, int]] = []

    # -- events opened from Python (record_function, autograd nodes, optimizer steps)
    def begin(self, name: str, kind: str = "user_annotation", shapes: Any = None) -> list[Any]:
        evs = self.events
        rec = [name, 0, 0, self.stack[-1], shapes, kind, None, None, None]
        if self.with_stack:
            rec[STACK] = _python_stack(2)
        self.stack.append(len(evs))
        evs.append(rec)
        rec[T0] = _now()
        return rec

    def end(self, rec: list[Any]) -> None:
        rec[T1] = _now()
        stack = self.stack
        # Close rec and anything opened inside it and left open (an exception, or a
        # record_function exited out of order).
        idx = _index_of(self.events, stack, rec)
        if idx is None:
            return
        while len(stack) > 1:
            top = stack.pop()
            if top == idx:
                break
            if not self.events[top][T1]:
                self.events[top][T1] = rec[T1]

    # -- memory
    def track_outputs(self, out: Any) -> None:
        """Count the storages of out's tensors that are new (an allocation by the op running)."""
        for t in _tensors(out):
            data = getattr(t, "_data", None)
            root = _root(data)
            if root is None:
                continue
            key = id(root)
            if key in self._live:
                continue
            nbytes = int(root.nbytes)
            self._live[key] = nbytes
            self.memory.append((_now(), nbytes, self.stack[-1]))
            try:
                weakref.finalize(root, self._freed, key)
            except TypeError:  # an array type without weak references: never counted free
                pass

    def _freed(self, key: int) -> None:
        nbytes = self._live.pop(key, 0)
        if nbytes and self.t_stop == 0:
            self.memory.append((_now(), -nbytes, self.stack[-1]))

    def close(self) -> None:
        t = _now()
        self.t_stop = t
        for idx in self.stack[1:]:
            if not self.events[idx][T1]:
                self.events[idx][T1] = t
        self.stack[1:] = []


def _index_of(events: list[list[Any]], stack: list[int], rec: list[Any]) -> int | None:
    for idx in reversed(stack[1:]):
        if events[idx] is rec:
            return idx
    return None


def _python_stack(skip: int) -> list[str]:
    """PyTorch's with_stack entries: 'file(line): function', innermost first, keyroute's own
    frames left out."""
    out = []
    f = sys._getframe(skip)
    while f is not None:
        fname = f.f_code.co_filename
        if "/keyroute/" not in fname.replace("\\", "/") or "/examples/" in fname:
            out.append(f"{fname}({f.f_lineno}): {f.f_code.co_name}")
        f = f.f_back
    return out


def _root(data: Any) -> Any:
    import numpy as np

    if not isinstance(data, np.ndarray):
        return None
    while isinstance(data.base, np.ndarray):
        data = data.base
    return data


def _tensors(out: Any) -> Iterator[Any]:
    if hasattr(out, "_ks"):
        yield out
    elif isinstance(out, (list, tuple)):
        for o in out:
            if hasattr(o, "_ks"):
                yield o


# ----------------------------------------------------------------------------- shapes


def _shape_of(v: Any) -> Any:
    shape = getattr(v, "shape", None)
    if shape is not None and hasattr(v, "_ks"):
        return list(shape)
    if isinstance(v, (list, tuple)) and v and all(hasattr(x, "_ks") for x in v):
        return [list(x.shape) for x in v]
    return []


def _input_shapes(op: Any, args: tuple[Any, ...], kwargs: dict[str, Any]) -> list[Any]:
    """One entry per schema argument (PyTorch records every input, defaults included): a
    tensor's sizes, a tensor list's sizes each, [] for anything else."""
    shapes = [_shape_of(a) for a in args]
    schema = op._schema
    if schema is not None:
        for arg in schema.arguments[len(args) :]:
            shapes.append(_shape_of(kwargs.get(arg.name)))
    return shapes


# ----------------------------------------------------------------------------- dispatcher hook


def _wrap(op: Any, key: int, fn: Callable[..., Any], collapse: bool) -> Callable[..., Any]:
    """The recording callable for one resolution (installed in dispatcher.trace)."""
    c = collector
    if c is None:
        return fn
    name = op._name
    if not collapse and not c.with_dispatch:
        return fn  # a redispatch: part of its operator's event, as in PyTorch
    if c.with_dispatch:
        from ..dispatcher.keys import key_name

        fn = _key_event(key_name(key), fn)
        if not collapse:
            return fn
    if c.record_shapes or c.profile_memory or c.with_stack:
        return _op_event_full(op, name, fn)
    return _op_event(name, fn)


def _op_event(name: str, fn: Callable[..., Any]) -> Callable[..., Any]:
    # The hot wrapper: kept minimal (its cost is the profiler's per-call overhead).
    def recorded(*args: Any, **kwargs: Any) -> Any:
        c = collector
        if c is None:
            return fn(*args, **kwargs)
        evs = c.events
        stack = c.stack
        rec = [name, 0, 0, stack[-1], None, "cpu_op", None, None, None]
        stack.append(len(evs))
        evs.append(rec)
        rec[1] = _now()
        try:
            return fn(*args, **kwargs)
        finally:
            rec[2] = _now()
            stack.pop()

    return recorded


def _op_event_full(op: Any, name: str, fn: Callable[..., Any]) -> Callable[..., Any]:
    def recorded(*args: Any, **kwargs: Any) -> Any:
        c = collector
        if c is None:
            return fn(*args, **kwargs)
        evs = c.events
        stack = c.stack
        shapes = _input_shapes(op, args, kwargs) if c.record_shapes else None
        rec = [name, 0, 0, stack[-1], shapes, "cpu_op", None, None, None]
        if c.with_stack:
            rec[STACK] = _python_stack(1)
        stack.append(len(evs))
        evs.append(rec)
        rec[1] = _now()
        try:
            out = fn(*args, **kwargs)
            if c.profile_memory:
                c.track_outputs(out)
            return out
        finally:
            rec[2] = _now()
            stack.pop()

    return recorded


def _key_event(kname: str, fn: Callable[..., Any]) -> Callable[..., Any]:
    def layer(*args: Any, **kwargs: Any) -> Any:
        c = collector
        if c is None:
            return fn(*args, **kwargs)
        evs = c.events
        stack = c.stack
        rec = [kname, 0, 0, stack[-1], None, "dispatch_key", kname, None, None]
        stack.append(len(evs))
        evs.append(rec)
        rec[1] = _now()
        try:
            return fn(*args, **kwargs)
        finally:
            rec[2] = _now()
            stack.pop()

    return layer


def start(c: Collector) -> None:
    """Make c the recording collector and route the dispatcher's resolutions through _wrap."""
    global collector
    from ..dispatcher import trace

    if collector is not None:
        raise RuntimeError(
            "Can't profile: profiler is already enabled on this thread (another profile is running)"
        )
    collector = c
    trace.set_profile_wrap(_wrap, every_layer=c.with_dispatch)


def stop(c: Collector) -> None:
    global collector
    from ..dispatcher import trace

    if collector is c:
        collector = None
        trace.set_profile_wrap(None, every_layer=False)
    c.close()


def active() -> bool:
    return collector is not None


# ----------------------------------------------------------------------------- record_function


class record_function(ContextDecorator):
    """A user-named span in the profile (torch.profiler.record_function): a context manager or
    a decorator; it records nothing (and costs one check) when no profile is running."""

    def __init__(self, name: str, args: str | None = None) -> None:
        if not isinstance(name, str):
            raise TypeError(
                f"record_function(): argument 'name' must be str, not {type(name).__name__}"
            )
        self.name = name
        self.args = args
        self._rec: list[Any] | None = None
        self._collector: Collector | None = None

    def __enter__(self) -> record_function:
        c = collector
        if c is not None:
            self._collector = c
            self._rec = c.begin(self.name, "user_annotation")
        return self

    def __exit__(self, *exc: Any) -> bool:
        c, rec = self._collector, self._rec
        if c is not None and rec is not None:
            c.end(rec)
        self._collector = self._rec = None
        return False

    def __call__(self, fn: Callable[..., Any]) -> Callable[..., Any]:  # type: ignore[override]
        name = self.name

        @functools.wraps(fn)
        def wrapped(*args: Any, **kwargs: Any) -> Any:
            with record_function(name):
                return fn(*args, **kwargs)

        return wrapped


def span(name: str, kind: str = "cpu_op") -> list[Any] | None:
    """Open an event named `name` if a profile records (for keyroute's own spans: autograd
    nodes, optimizer steps); close it with `end_span`."""
    c = collector
    if c is None:
        return None
    return c.begin(name, kind)


def end_span(rec: list[Any] | None) -> None:
    c = collector
    if rec is not None and c is not None:
        c.end(rec)
