"""`keyroute.profiler.profile`: torch.profiler.profile's API over keyroute's recorder.

    with profile(activities=[ProfilerActivity.CPU], record_shapes=True) as prof:
        model(x)
    print(prof.key_averages().table(sort_by="self_cpu_time_total", row_limit=10))
    prof.export_chrome_trace("trace.json")   # Perfetto / chrome://tracing / `keyroute view`

keyroute's addition: `with_dispatch=True` records one child event per dispatch key an operator
call visits (AutogradCPU, ADInplaceOrView, Python, CPU, ...), and
`key_averages(group_by="dispatch_key")` sums their self time per layer.
"""

from __future__ import annotations

import enum
import os
import socket
import time
import warnings
from collections.abc import Callable, Iterable
from typing import Any

from . import _state as profiler_state
from ._events import EventList, build_events
from ._export import chrome_trace, write_chrome_trace, write_memory_timeline

__all__ = [
    "ProfilerActivity",
    "ProfilerAction",
    "profile",
    "schedule",
    "tensorboard_trace_handler",
    "supported_activities",
]


class ProfilerActivity(enum.Enum):
    CPU = 0
    CUDA = 1
    XPU = 2
    MTIA = 3
    HPU = 4
    PrivateUse1 = 5


class ProfilerAction(enum.Enum):
    NONE = 0
    WARMUP = 1
    RECORD = 2
    RECORD_AND_SAVE = 3


def supported_activities() -> set[ProfilerActivity]:
    """keyroute's kernels run on the CPU: only CPU activity is recorded."""
    return {ProfilerActivity.CPU}


def schedule(
    *,
    wait: int,
    warmup: int,
    active: int,
    repeat: int = 0,
    skip_first: int = 0,
    skip_first_wait: int = 0,
) -> Callable[[int], ProfilerAction]:
    """PyTorch's profiler schedule: skip `skip_first` steps, then cycles of `wait` idle,
    `warmup` recorded-and-dropped and `active` recorded steps (`repeat` cycles; 0: forever)."""
    if wait < 0 or warmup < 0 or active <= 0 or repeat < 0 or skip_first < 0:
        raise AssertionError(
            f"Invalid profiler schedule arguments. Got wait={wait} (need >= 0), warmup={warmup} "
            f"(need >= 0), active={active} (need > 0), repeat={repeat} (need >= 0), "
            f"skip_first={skip_first} (need >= 0)."
        )

    def schedule_fn(step: int) -> ProfilerAction:
        if step < 0:
            raise AssertionError(f"Step must be non-negative. Got {step}.")
        if step < skip_first:
            return ProfilerAction.NONE
        step -= skip_first
        if skip_first_wait != 0:
            step += wait
        cycle = wait + warmup + active
        if repeat > 0 and step / cycle >= repeat:
            return ProfilerAction.NONE
        mod = step % cycle
        if mod < wait:
            return ProfilerAction.NONE
        if mod < wait + warmup:
            return ProfilerAction.WARMUP
        return ProfilerAction.RECORD if mod < cycle - 1 else ProfilerAction.RECORD_AND_SAVE

    if warmup == 0:
        warnings.warn(
            "Profiler won't be using warmup, this can skew profiler results", stacklevel=2
        )
    return schedule_fn


def _default_schedule(_: int) -> ProfilerAction:
    return ProfilerAction.RECORD


def tensorboard_trace_handler(
    dir_name: str, worker_name: str | None = None, use_gzip: bool = False
) -> Callable[[profile], None]:
    """An on_trace_ready callback writing `<worker>.<ns>.pt.trace.json[.gz]` into dir_name."""

    def handler_fn(prof: profile) -> None:
        nonlocal worker_name
        try:
            os.makedirs(dir_name, exist_ok=True)
        except OSError as e:
            raise RuntimeError("Can't create directory: " + dir_name) from e
        if not worker_name:
            worker_name = f"{socket.gethostname()}_{os.getpid()}"
        name = f"{worker_name}.{time.time_ns()}.pt.trace.json" + (".gz" if use_gzip else "")
        prof.export_chrome_trace(os.path.join(dir_name, name))

    return handler_fn


class profile:
    """Record operator calls (and record_function spans, autograd nodes, optimizer steps)."""

    def __init__(
        self,
        *,
        activities: Iterable[ProfilerActivity] | None = None,
        schedule: Callable[[int], ProfilerAction] | None = None,
        on_trace_ready: Callable[[profile], Any] | None = None,
        record_shapes: bool = False,
        profile_memory: bool = False,
        with_stack: bool = False,
        with_flops: bool = False,
        with_modules: bool = False,
        experimental_config: Any = None,
        execution_trace_observer: Any = None,
        acc_events: bool = False,
        use_cuda: bool | None = None,
        with_dispatch: bool = False,
    ) -> None:
        acts = set(activities) if activities is not None else supported_activities()
        for a in acts:
            if not isinstance(a, ProfilerActivity):
                raise TypeError(f"profile(): activities must be ProfilerActivity values, got {a!r}")
        if acts - {ProfilerActivity.CPU}:
            names = ", ".join(sorted(a.name for a in acts - {ProfilerActivity.CPU}))
            warnings.warn(
                f"keyroute runs on the CPU only: activities {names} record nothing", stacklevel=2
            )
        self.activities = acts
        self.record_shapes = record_shapes or with_flops
        self.profile_memory = profile_memory
        self.with_stack = with_stack
        self.with_flops = with_flops
        self.with_modules = with_modules
        self.with_dispatch = with_dispatch
        self.acc_events = acc_events
        self.record_steps = schedule is not None
        self.schedule = schedule if schedule is not None else _default_schedule
        self.on_trace_ready = on_trace_ready
        self.step_num = 0
        self.current_action = self.schedule(self.step_num)
        self._collector: profiler_state.Collector | None = None
        self._events: EventList | None = None
        self._base_us = 0.0
        self._step_rec: profiler_state.record_function | None = None
        self._metadata: dict[str, str] = {}

    # -- recording windows
    def _start_collecting(self) -> None:
        c = profiler_state.Collector(
            record_shapes=self.record_shapes,
            profile_memory=self.profile_memory,
            with_stack=self.with_stack,
            with_dispatch=self.with_dispatch,
        )
        self._base_us = time.time() * 1e6
        profiler_state.start(c)
        self._collector = c

    def _stop_collecting(self, save: bool) -> None:
        c = self._collector
        if c is None:
            return
        self._collector = None
        profiler_state.stop(c)
        if save:
            events = build_events(c, with_flops=self.with_flops)
            if self.acc_events and self._events is not None:
                events = EventList(
                    list(self._events) + list(events),
                    profile_memory=self.profile_memory,
                    with_flops=self.with_flops,
                )
            self._events = events
            if self.on_trace_ready is not None:
                self.on_trace_ready(self)

    def _transit(self, prev: ProfilerAction | None, cur: ProfilerAction | None) -> None:
        """PyTorch's action map, reduced to what a CPU recorder does: start a window on
        entering warmup/record, drop warmup's events when recording starts, finish (and hand
        to on_trace_ready) after RECORD_AND_SAVE or on stop while recording."""
        A = ProfilerAction
        ending = cur is None or cur == A.NONE
        if prev == A.RECORD_AND_SAVE or (prev == A.RECORD and ending):
            self._stop_collecting(save=True)
        elif prev == A.WARMUP and ending:
            if cur is None:
                warnings.warn("Incorrect schedule: Stopping profiler in warmup", stacklevel=3)
            self._stop_collecting(save=False)
        elif prev == A.WARMUP and cur in (A.RECORD, A.RECORD_AND_SAVE):
            if self._collector is not None:
                self._collector.reset()
        if cur in (A.WARMUP, A.RECORD, A.RECORD_AND_SAVE) and self._collector is None:
            self._start_collecting()

    def start(self) -> None:
        self._transit(ProfilerAction.NONE, self.current_action)
        if self.record_steps:
            self._step_rec = profiler_state.record_function(f"ProfilerStep#{self.step_num}")
            self._step_rec.__enter__()

    def stop(self) -> None:
        if self._step_rec is not None:
            self._step_rec.__exit__(None, None, None)
            self._step_rec = None
        self._transit(self.current_action, None)

    def step(self) -> None:
        """Mark the start of the next step (drives the schedule)."""
        if self._step_rec is not None:
            self._step_rec.__exit__(None, None, None)
            self._step_rec = None
        prev = self.current_action
        self.step_num += 1
        self.current_action = self.schedule(self.step_num)
        self._transit(prev, self.current_action)
        if self.record_steps:
            self._step_rec = profiler_state.record_function(f"ProfilerStep#{self.step_num}")
            self._step_rec.__enter__()

    def __enter__(self) -> profile:
        self.start()
        return self

    def __exit__(self, *exc: Any) -> None:
        self.stop()

    # -- results
    def _require_events(self) -> EventList:
        if self._events is None:
            raise AssertionError("Profiler must be initialized before getting events")
        return self._events

    def events(self) -> EventList:
        """Every recorded event (FunctionEvent: name, time_range, cpu_parent, cpu_children,
        input_shapes, cpu_memory_usage, ...), in start order."""
        return self._require_events()

    def key_averages(
        self,
        group_by_input_shape: bool = False,
        group_by_stack_n: int = 0,
        group_by_overload_name: bool = False,
        group_by: str | None = None,
    ) -> EventList:
        """Events summed per name (and input shapes / top stack frames when asked); with
        group_by="dispatch_key" (a with_dispatch profile) per dispatch layer."""
        if group_by_stack_n > 0 and not self.with_stack:
            pass  # PyTorch groups by the (empty) stacks then: the same as no stack grouping
        return self._require_events().key_averages(
            group_by_input_shape, group_by_stack_n, group_by_overload_name, group_by
        )

    def export_chrome_trace(self, path: str) -> str:
        trace = chrome_trace(self._require_events(), self._base_us)
        if self._metadata:
            trace.update(self._metadata)
        return write_chrome_trace(path, trace)

    def export_memory_timeline(self, path: str, device: str | None = None) -> None:
        """Bytes allocated by tensors over time (profile_memory=True): .json or .html."""
        if not self.profile_memory:
            raise AssertionError("export_memory_timeline needs profile(profile_memory=True)")
        write_memory_timeline(path, self._require_events())

    def add_metadata(self, key: str, value: str) -> None:
        self._metadata[key] = value

    def add_metadata_json(self, key: str, value: str) -> None:
        import json

        self._metadata[key] = json.loads(value)

    def peak_memory(self) -> int:
        """The most bytes tensors created inside the profile held at once (profile_memory)."""
        from ._export import memory_timeline

        _times, sizes = memory_timeline(self._require_events())
        return max(sizes, default=0)

    def table(self, sort_by: str | None = "self_cpu_time_total", row_limit: int = 100) -> str:
        return self.key_averages().table(sort_by=sort_by, row_limit=row_limit)
