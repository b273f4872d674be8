"""The profiler's recording core: the active collector, the dispatcher hook, record_function.

Design (why the plain path pays nothing): the dispatcher caches one resolved callable per
operator and key set. While a profile records, `keyroute.dispatcher.trace` holds a wrapper
factory (`_wrap`) that `OpOverload._resolve` applies to every resolution, and switching it on or
off drops every resolution cache. So with no profile running the cached callables are exactly
the plain ones, and while one runs each top-level operator call goes through one closure that
appends two entries to the collector's log (PyTorch's RecordFunction in `Dispatcher::call`).
Redispatches are not events, as in PyTorch, unless `with_dispatch=True` asks for one child
event per dispatch key.

When recording stops the log becomes event records: [name, t0, t1, parent, shapes, kind, key,
mem, stack] with times in perf_counter nanoseconds and `parent` the index of the enclosing
record (-1 at the top); a plain operator event stops after `parent` (kind "cpu_op").
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
    """Events of one recording window (one profile, or one active span of a schedule).

    While recording, events go into a flat `log` (cheapest to append to): a tuple opens an
    event, (name, t0) for a plain operator call or (name, t0, kind, shapes, stack, key) for the
    rest; an int (t1) closes the innermost open one; a list [t, trees] stands for synthesized
    events (`synthesized`). `close()` turns the log into `events` records
    [name, t0, t1, parent, shapes, kind, key, mem, stack]."""

    def __init__(
        self,
        *,
        record_shapes: bool = False,
        profile_memory: bool = False,
        with_stack: bool = False,
        with_dispatch: bool = False,
    ) -> None:
        self.log: list[Any] = []
        self.events: list[list[Any]] = []
        self.record_shapes = record_shapes
        self.profile_memory = profile_memory
        self.with_stack = with_stack
        self.with_dispatch = with_dispatch
        self.t_start = _now()
        self.t_stop = 0
        #: id(root array) of storages seen (memory profiling), with their byte counts.
        self._live: dict[int, int] = {}
        #: (time, bytes, log position) of every allocation and free while recording; after
        #: close(), (time, bytes, index of the innermost event open then, or -1).
        self.memory: list[tuple[int, int, int]] = []

    # -- events opened from Python (record_function, autograd nodes, optimizer steps)
    def begin(self, name: str, kind: str = "user_annotation", shapes: Any = None) -> tuple:
        stack = _python_stack(2) if self.with_stack else None
        rec = (name, _now(), kind, shapes, stack, None)
        self.log.append(rec)
        return rec

    def end(self, rec: Any) -> None:
        self.log.append(_now())

    def reset(self) -> None:
        """Drop what was recorded (warmup steps' events)."""
        self.log.clear()
        self.memory.clear()

    # -- memory
    def track_outputs(self, out: Any, args: tuple[Any, ...], kwargs: dict[str, Any]) -> None:
        """Count the storages of out's tensors that are new (an allocation by the op running).

        An output on the storage of one of the op's tensor arguments (a view, an in-place
        result) allocated nothing, whether or not that storage predates the profile."""
        inputs = None
        for t in _tensors(out):
            data = getattr(t, "_data", None)
            root = _root(data)
            if root is None:
                continue
            key = id(root)
            if key in self._live:
                continue
            if inputs is None:
                inputs = {id(_root(getattr(a, "_data", None))) for a in _arg_tensors(args, kwargs)}
            if key in inputs:
                continue
            nbytes = int(root.nbytes)
            self._live[key] = nbytes
            self.memory.append((_now(), nbytes, len(self.log)))
            try:
                weakref.finalize(root, self._freed, key)
            except TypeError:  # an array type without weak references: never counted free
                pass

    def _freed(self, key: int) -> None:
        nbytes = self._live.pop(key, 0)
        if nbytes and self.t_stop == 0:
            self.memory.append((_now(), -nbytes, len(self.log)))

    def close(self) -> None:
        """Stop: build `events` (parents from the nesting, unclosed events end now) and
        attribute each memory record to the event innermost at its log position."""
        t = _now()
        self.t_stop = t
        events: list[list[Any]] = []
        open_: list[int] = []
        memory = self.memory
        attributed: list[tuple[int, int, int]] = []
        mi = 0
        floor = 0
        for pos, item in enumerate(self.log):
            while mi < len(memory) and memory[mi][2] <= pos:
                attributed.append((memory[mi][0], memory[mi][1], open_[-1] if open_ else -1))
                mi += 1
            cls = item.__class__
            if cls is tuple:
                parent = open_[-1] if open_ else -1
                open_.append(len(events))
                if len(item) == 2:
                    events.append([item[0], max(item[1], floor), 0, parent])
                else:
                    name, t0, kind, shapes, stack, key = item
                    t0 = max(t0, floor)
                    events.append([name, t0, 0, parent, shapes, kind, key, None, stack])
            elif cls is list:  # synthesized events (see `synthesized`)
                # (later times are kept after the synthesized events' nanosecond steps)
                floor = _expand(events, item[1], item[0], open_[-1] if open_ else -1)
            elif open_:
                events[open_.pop()][T1] = max(item, floor)
        for tm, nbytes, _pos in memory[mi:]:
            attributed.append((tm, nbytes, open_[-1] if open_ else -1))
        for idx in open_:
            events[idx][T1] = t
        self.events = events
        self.memory = attributed
        self.log = []


def synthesized(t: int, trees: Any) -> list[Any]:
    """The log entry standing for the events of operators PyTorch's kernel would call
    (_internal_calls.py), at time t: keyroute's kernel calls none, so they have no times of
    their own. One entry (one append, one clock read) stands for the whole tree while
    recording, a list to tell it apart from an opening (tuple) and a closing (int); close()
    expands it into events one nanosecond apart, nested as the trees say, so a viewer still
    sees their order and nesting."""
    return [t, trees]


def _expand(events: list[list[Any]], trees: Any, t: int, parent: int) -> int:
    """Append the events of `trees` (children of event `parent`) from time t; the time after."""
    for name, sub in trees:
        ev = [name, t, 0, parent, None, "internal", None, None, None]
        idx = len(events)
        events.append(ev)
        t = _expand(events, sub, t + 1, idx) if sub else t + 1
        ev[T1] = t
        t += 1
    return t


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


def _arg_tensors(args: tuple[Any, ...], kwargs: dict[str, Any]) -> Iterator[Any]:
    for a in (*args, *kwargs.values()):
        yield from _tensors(a)


def _tensors(out: Any) -> Iterator[Any]:
    if hasattr(out, "_key_set"):
        yield out
    elif isinstance(out, (list, tuple)):
        for o in out:
            if hasattr(o, "_key_set"):
                yield o


# ----------------------------------------------------------------------------- shapes


def _shape_of(v: Any) -> Any:
    shape = getattr(v, "shape", None)
    if shape is not None and hasattr(v, "_key_set"):
        return list(shape)
    if isinstance(v, (list, tuple)) and v and all(hasattr(x, "_key_set") for x in v):
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
    """The recording callable for one resolution (installed in dispatcher.trace).

    It wraps the kernel the resolution chose, after the plain-path shortcut (a layer that
    would only redispatch is skipped, `OpOverload._bind`), so a profiled call runs the same
    kernels as an un-profiled one plus this one closure."""
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
    from ._internal_calls import INTERNAL, NO_CHILDREN_ON_CPU

    # (not in the layer view, which shows keyroute's own calls; nor when the call enters a
    # Python dispatch mode: PyTorch's kernel calls then reach the mode, not these events)
    internal = name in INTERNAL and not c.with_dispatch
    overload = getattr(op, "_overloadname", "")
    if name in NO_CHILDREN_ON_CPU and not c.with_dispatch:
        fn = _without_children(fn)
    if c.record_shapes or c.profile_memory or c.with_stack:
        if internal:
            fn = _with_internal_calls(name, overload, fn)
        return _op_event_full(op, name, fn)
    if internal:
        return _op_event_internal(name, overload, fn, c)
    return _op_event(name, fn, c)


def _without_children(fn: Callable[..., Any]) -> Callable[..., Any]:
    """fn, with the events it recorded dropped when its result is a CPU tensor (see
    _internal_calls.NO_CHILDREN_ON_CPU); memory records made meanwhile stay, on the operator's
    own event."""

    def run(*args: Any, **kwargs: Any) -> Any:
        c = collector
        if c is None:
            return fn(*args, **kwargs)
        n = len(c.log)
        out = fn(*args, **kwargs)
        if len(c.log) > n and collector is c and getattr(out, "is_cpu", False):
            del c.log[n:]
            c.memory[:] = [(t, b, min(pos, n)) for t, b, pos in c.memory]
        return out

    return run


def _with_internal_calls(name: str, overload: str, fn: Callable[..., Any]) -> Callable[..., Any]:
    """fn, then the events of the operators PyTorch's kernel would call (_internal_calls.py),
    inside the operator's event: only profiled resolutions of the listed operators get this.
    The rule reads the arguments before fn runs (an out= tensor before its resize); its
    events are added when fn itself recorded no nested operator event (or the operator is in
    ALWAYS), and not while a Python dispatch mode takes the call (PyTorch's kernel then runs
    under the mode's own call, which gets them)."""
    from ..dispatcher.tls import state as tls
    from ._internal_calls import ALWAYS, INTERNAL, run_rule

    always = name in ALWAYS
    rule = INTERNAL[name]

    def called(*args: Any, **kwargs: Any) -> Any:
        c = collector
        if c is None or tls.thread_state.modes:
            return fn(*args, **kwargs)
        trees = run_rule(rule, overload, args, kwargs)
        if not trees:
            return fn(*args, **kwargs)
        log = c.log
        if always:  # (before keyroute's own calls: where PyTorch's kernel makes them)
            log.append(synthesized(_now(), trees))
            return fn(*args, **kwargs)
        n = len(log)
        out = fn(*args, **kwargs)
        if len(log) == n and collector is c:
            log.append(synthesized(_now(), trees))
        return out

    return called


def _op_event_internal(
    name: str, overload: str, fn: Callable[..., Any], c: Collector
) -> Callable[..., Any]:
    """_op_event and _with_internal_calls in one closure (one frame per profiled call of a
    listed operator, the rule's own work aside). A binary operator on two tensors of one
    dtype (the common call) casts nothing: that is decided inline, without the rule."""
    from ..dispatcher.tls import state as tls
    from ._internal_calls import ALWAYS, INTERNAL, _binary, run_rule

    log = c.log
    add, now = log.append, _now
    always = name in ALWAYS
    rule = INTERNAL[name]
    binary = rule is _binary

    def recorded(*args: Any, **kwargs: Any) -> Any:
        if collector is not c:
            return fn(*args, **kwargs)
        add((name, now()))
        try:
            if binary and len(args) > 1:
                dtype = getattr(args[0], "_dtype", None)
                if dtype is not None and dtype is getattr(args[1], "_dtype", None):
                    return fn(*args, **kwargs)
            if tls.thread_state.modes:
                return fn(*args, **kwargs)
            trees = run_rule(rule, overload, args, kwargs)
            if not trees:
                return fn(*args, **kwargs)
            if always:  # (before keyroute's own calls: where PyTorch's kernel makes them)
                add([now(), trees])  # (synthesized(), inlined)
                return fn(*args, **kwargs)
            n = len(log)
            out = fn(*args, **kwargs)
            if len(log) == n:
                add([now(), trees])
            return out
        finally:
            add(now())

    return recorded


#: PyTorch's internal_new_from_data (torch.tensor(data)) calls these around its lift_fresh.
_NEW_FROM_DATA_BEFORE = (("aten::empty", ()), ("aten::to", ()))
_NEW_FROM_DATA_AFTER = (("aten::detach_", (("detach_", ()),)),)


def new_from_data(make: Callable[[], Any]) -> Any:
    """make() (torch.tensor's lift_fresh call) with the events PyTorch's tensor-from-data path
    records around it: aten::empty and aten::to before, aten::detach_ after."""
    c = collector
    if c is None:
        return make()
    c.log.append(synthesized(_now(), _NEW_FROM_DATA_BEFORE))
    out = make()
    if collector is c:
        c.log.append(synthesized(_now(), _NEW_FROM_DATA_AFTER))
    return out


_TOLIST = (("aten::resolve_conj", ()), ("aten::resolve_neg", ()))


def tolist_events() -> None:
    """Tensor.tolist's operator calls in PyTorch (resolve_conj, resolve_neg), as events."""
    c = collector
    if c is not None:
        c.log.append(synthesized(_now(), _TOLIST))


def _op_event(name: str, fn: Callable[..., Any], c: Collector) -> Callable[..., Any]:
    # The hot wrapper (its cost is the profiler's per-call overhead): two appends to the
    # collector's log, bound once per resolution (the caches are dropped when a profile starts
    # and stops, so a wrapper never outlives its collector's recording).
    add, now = c.log.append, _now

    def recorded(*args: Any, **kwargs: Any) -> Any:
        if collector is not c:
            return fn(*args, **kwargs)
        add((name, now()))
        try:
            return fn(*args, **kwargs)
        finally:
            add(now())

    return recorded


def _op_event_full(op: Any, name: str, fn: Callable[..., Any]) -> Callable[..., Any]:
    def recorded(*args: Any, **kwargs: Any) -> Any:
        c = collector
        if c is None:
            return fn(*args, **kwargs)
        shapes = _input_shapes(op, args, kwargs) if c.record_shapes else None
        stack = _python_stack(1) if c.with_stack else None
        log = c.log
        log.append((name, _now(), "cpu_op", shapes, stack, None))
        try:
            out = fn(*args, **kwargs)
            if c.profile_memory:
                c.track_outputs(out, args, kwargs)
            return out
        finally:
            log.append(_now())

    return recorded


def _key_event(kname: str, fn: Callable[..., Any]) -> Callable[..., Any]:
    def layer(*args: Any, **kwargs: Any) -> Any:
        c = collector
        if c is None:
            return fn(*args, **kwargs)
        log = c.log
        log.append((kname, _now(), "dispatch_key", None, None, kname))
        try:
            return fn(*args, **kwargs)
        finally:
            log.append(_now())

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
    from ..tensor import _tensor

    _tensor._tolist_hook = tolist_events


def stop(c: Collector) -> None:
    global collector
    from ..dispatcher import trace

    if collector is c:
        collector = None
        trace.set_profile_wrap(None, every_layer=False)
        from ..tensor import _tensor

        _tensor._tolist_hook = None
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
        self._rec: Any = None
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


def span(name: str, kind: str = "cpu_op", shapes: Any = None) -> Any:
    """Open an event named `name` if a profile records (for keyroute's own spans: autograd
    nodes, optimizer steps); close it with `end_span`. (Collector.begin, inlined: the engine
    opens two per node.)"""
    c = collector
    if c is None:
        return None
    rec = (name, _now(), kind, shapes, _python_stack(1) if c.with_stack else None, None)
    c.log.append(rec)
    return rec


def end_span(rec: Any) -> None:
    c = collector
    if rec is not None and c is not None:
        c.log.append(_now())
