"""Recorded events as PyTorch's profiler shows them: FunctionEvent trees, key_averages and the
summary table (torch.autograd.profiler_util's column layout and number formats).

Times are microseconds (floats), as PyTorch's `cpu_time_total` etc.
"""

from __future__ import annotations

import math
from collections.abc import Iterable, Sequence
from typing import Any

from . import _state as profiler_state

__all__ = ["FunctionEvent", "FunctionEventAvg", "EventList", "build_events"]


def _format_time(time_us: float) -> str:
    if time_us >= 1e6:
        return f"{time_us / 1e6:.3f}s"
    if time_us >= 1e3:
        return f"{time_us / 1e3:.3f}ms"
    return f"{time_us:.3f}us"


def _format_time_share(time_us: float, total_us: float) -> str:
    if total_us == 0:
        return "NaN"
    return f"{time_us * 100.0 / total_us:.2f}%"


def _format_memory(nbytes: int) -> str:
    kb, mb, gb = 1024, 1024**2, 1024**3
    if abs(nbytes) >= gb:
        return f"{nbytes * 1.0 / gb:.2f} GB"
    if abs(nbytes) >= mb:
        return f"{nbytes * 1.0 / mb:.2f} MB"
    if abs(nbytes) >= kb:
        return f"{nbytes * 1.0 / kb:.2f} KB"
    return f"{nbytes} B"


class _Formatted:
    """The *_str properties PyTorch's events carry."""

    cpu_time_total: float
    self_cpu_time_total: float
    count: int

    @property
    def cpu_time(self) -> float:
        return 0.0 if self.count == 0 else self.cpu_time_total / self.count

    @property
    def cpu_time_str(self) -> str:
        return _format_time(self.cpu_time)

    @property
    def cpu_time_total_str(self) -> str:
        return _format_time(self.cpu_time_total)

    @property
    def self_cpu_time_total_str(self) -> str:
        return _format_time(self.self_cpu_time_total)

    # keyroute runs on the CPU only: the device columns are zero (PyTorch's names kept).
    device_time_total = 0.0
    self_device_time_total = 0.0
    device_memory_usage = 0
    self_device_memory_usage = 0
    cuda_time_total = 0.0
    self_cuda_time_total = 0.0
    node_id = -1
    is_async = False
    is_legacy = False
    use_device = None


class Interval:
    """An event's span in microseconds (torch.autograd.profiler_util.Interval)."""

    __slots__ = ("start", "end")

    def __init__(self, start: float = 0, end: float = 0) -> None:
        self.start = start
        self.end = end

    def elapsed_us(self) -> float:
        return self.end - self.start


class FunctionEvent(_Formatted):
    """One recorded span: an operator call, a record_function block, an autograd node, or
    (with_dispatch) one dispatch key's kernel."""

    def __init__(
        self,
        id: int,
        name: str,
        start_us: float,
        end_us: float,
        *,
        kind: str = "cpu_op",
        input_shapes: list[Any] | None = None,
        stack: list[str] | None = None,
        thread: int = 0,
        dispatch_key: str | None = None,
        flops: int = 0,
    ) -> None:
        self.id = id
        #: The name in the trace; in tables the numbered step spans share one name, as
        #: PyTorch's ("ProfilerStep#3" -> "ProfilerStep*").
        self.trace_name = name
        if name.startswith("ProfilerStep#"):
            name = "ProfilerStep*"
        self.name = name
        self.key = name
        self.kind = kind
        self.time_range = Interval(start_us, end_us)
        self.input_shapes = input_shapes if input_shapes is not None else []
        self.stack = stack if stack is not None else []
        self.thread = thread
        self.dispatch_key = dispatch_key
        self.cpu_children: list[FunctionEvent] = []
        self.cpu_parent: FunctionEvent | None = None
        self.count = 1
        self.overload_name = ""
        self.flops = flops
        #: Bytes allocated (+) and freed (-) while this event was innermost.
        self.self_cpu_memory_usage = 0
        self.cpu_memory_usage = 0
        self.memory_events: list[tuple[float, int]] = []

    @property
    def is_user_annotation(self) -> bool:
        return self.kind == "user_annotation"

    @property
    def cpu_time_total(self) -> float:  # type: ignore[override]
        return self.time_range.elapsed_us()

    @property
    def self_cpu_time_total(self) -> float:  # type: ignore[override]
        return self.cpu_time_total - sum(c.cpu_time_total for c in self.cpu_children)

    def __repr__(self) -> str:
        return (
            f"<FunctionEvent id={self.id} name={self.name} cpu_time_total="
            f"{self.cpu_time_total_str} self_cpu_time_total={self.self_cpu_time_total_str} "
            f"input_shapes={self.input_shapes} cpu_memory_usage={self.cpu_memory_usage}>"
        )


class FunctionEventAvg(_Formatted):
    """Events of one key (name, and input shapes / stack when grouping by them) summed."""

    def __init__(self) -> None:
        self.key: str | None = None
        self.name = ""
        self.count = 0
        self.cpu_time_total = 0.0
        self.self_cpu_time_total = 0.0
        self.input_shapes: list[Any] | None = None
        self.stack: list[str] | None = None
        self.cpu_memory_usage = 0
        self.self_cpu_memory_usage = 0
        self.flops = 0
        self.cpu_children: list[Any] = []
        self.cpu_parent = None
        self.overload_name = ""

    def add(self, other: Any) -> FunctionEventAvg:
        if self.key is None:
            self.key = other.key
            self.name = other.name
            self.input_shapes = other.input_shapes
            self.stack = other.stack
            self.overload_name = other.overload_name
        self.count += other.count
        self.cpu_time_total += other.cpu_time_total
        self.self_cpu_time_total += other.self_cpu_time_total
        self.cpu_memory_usage += other.cpu_memory_usage
        self.self_cpu_memory_usage += other.self_cpu_memory_usage
        self.flops += other.flops
        return self

    def __iadd__(self, other: Any) -> FunctionEventAvg:
        return self.add(other)

    def __repr__(self) -> str:
        return (
            f"<FunctionEventAvg key={self.key} self_cpu_time={self.self_cpu_time_total_str} "
            f"cpu_time={self.cpu_time_str} input_shapes={self.input_shapes} "
            f"cpu_memory_usage={self.cpu_memory_usage}>"
        )


_SORT_KEYS = (
    "cpu_time",
    "cuda_time",
    "cpu_time_total",
    "cuda_time_total",
    "self_cpu_time_total",
    "self_cuda_time_total",
    "device_time",
    "device_time_total",
    "self_device_time_total",
    "cpu_memory_usage",
    "self_cpu_memory_usage",
    "device_memory_usage",
    "self_device_memory_usage",
    "count",
)


class EventList(list):
    """A list of events with PyTorch's EventList methods (table, key_averages, totals)."""

    def __init__(self, *args: Any, profile_memory: bool = False, with_flops: bool = False):
        super().__init__(*args)
        #: Every allocation (+bytes) and free (-bytes) as (time µs, bytes), in time order,
        #: those made outside any event included.
        self.memory_records: list[tuple[float, int]] = []
        self._profile_memory = profile_memory
        self._with_flops = with_flops

    @property
    def self_cpu_time_total(self) -> float:
        return sum(e.self_cpu_time_total for e in self)

    def key_averages(
        self,
        group_by_input_shapes: bool = False,
        group_by_stack_n: int = 0,
        group_by_overload_name: bool = False,
        group_by: str | None = None,
    ) -> EventList:
        if group_by not in (None, "dispatch_key"):
            raise ValueError(
                f"key_averages(): group_by must be None or 'dispatch_key', got {group_by!r}"
            )
        groups: dict[tuple[Any, ...], FunctionEventAvg] = {}
        for evt in self:
            if group_by == "dispatch_key":
                if evt.dispatch_key is None:
                    continue
                key: tuple[Any, ...] = (evt.dispatch_key,)
            else:
                key = (evt.key,)
                if group_by_input_shapes:
                    key += (str(evt.input_shapes),)
                if group_by_stack_n > 0:
                    key += tuple(evt.stack[:group_by_stack_n])
                if group_by_overload_name:
                    key += (evt.overload_name,)
            avg = groups.get(key)
            if avg is None:
                avg = groups[key] = FunctionEventAvg()
            avg.add(evt)
            if group_by_stack_n > 0:
                avg.stack = evt.stack[:group_by_stack_n]
            elif group_by == "dispatch_key" or not group_by_input_shapes:
                pass
        out = EventList(
            groups.values(), profile_memory=self._profile_memory, with_flops=self._with_flops
        )
        if not group_by_input_shapes:
            for avg in out:
                avg.input_shapes = None
        if group_by_stack_n == 0:
            for avg in out:
                avg.stack = None
        return out

    def total_average(self) -> FunctionEventAvg:
        total = FunctionEventAvg()
        for evt in self:
            total.add(evt)
        total.key = "Total"
        return total

    def table(
        self,
        sort_by: str | None = None,
        row_limit: int = 100,
        max_src_column_width: int = 75,
        max_name_column_width: int = 55,
        max_shapes_column_width: int = 80,
        header: str | None = None,
        top_level_events_only: bool = False,
        time_unit: str | None = None,
    ) -> str:
        return build_table(
            self,
            sort_by=sort_by,
            header=header,
            row_limit=row_limit,
            max_src_column_width=max_src_column_width,
            max_name_column_width=max_name_column_width,
            max_shapes_column_width=max_shapes_column_width,
            profile_memory=self._profile_memory,
            with_flops=self._with_flops,
            top_level_events_only=top_level_events_only,
            time_unit=time_unit,
        )

    def __str__(self) -> str:
        return self.table()


def _override_time(time_us: float, default: str, unit: str | None) -> str:
    if unit == "s":
        return f"{time_us / 1e6:.3f}s"
    if unit == "ms":
        return f"{time_us / 1e3:.3f}ms"
    if unit == "us":
        return f"{time_us:.3f}us"
    return default


def _trim_path(path: str, width: int) -> str:
    if len(path) > width:
        path = path[len(path) - width :]
        if len(path) > 3:
            path = "..." + path[3:]
    return path


def build_table(
    events: Sequence[Any],
    *,
    sort_by: str | None = None,
    header: str | None = None,
    row_limit: int = 100,
    max_src_column_width: int = 75,
    max_name_column_width: int = 55,
    max_shapes_column_width: int = 80,
    with_flops: bool = False,
    profile_memory: bool = False,
    top_level_events_only: bool = False,
    time_unit: str | None = None,
) -> str:
    """PyTorch's summary table (_build_table): same columns, widths and number formats."""
    if len(events) == 0:
        return ""
    if sort_by is not None:
        attr = sort_by.replace("cuda", "device").replace("xpu", "device")
        if attr not in _SORT_KEYS and not hasattr(events[0], attr):
            raise AttributeError(f"'FunctionEventAvg' object has no attribute '{sort_by}'")
        events = sorted(events, key=lambda e: getattr(e, attr), reverse=True)
    has_input_shapes = any(e.input_shapes for e in events)
    name_w = max(len(e.key) for e in events) + 4
    if max_name_column_width is not None:
        name_w = min(name_w, max_name_column_width)
    shapes_w = max(len(str(e.input_shapes)) for e in events) + 4
    if max_shapes_column_width is not None:
        shapes_w = min(shapes_w, max_shapes_column_width)
    stacks = [e.stack for e in events if e.stack]
    src_w = 0
    if stacks:
        src_w = max(max(len(s) for s in st) for st in stacks) + 4
        if max_src_column_width is not None:
            src_w = min(src_w, max_src_column_width)
    headers = ["Name", "Self CPU %", "Self CPU", "CPU total %", "CPU total", "CPU time avg"]
    if profile_memory:
        headers += ["CPU Mem", "Self CPU Mem"]
    headers.append("# of Calls")
    row_fmt, sep, line_len = "", "", -2

    def add_column(width: int, align: str = ">") -> None:
        nonlocal row_fmt, sep, line_len
        row_fmt += "{: " + align + str(width) + "}  "
        sep += "-" * width + "  "
        line_len += width + 2

    add_column(name_w)
    for _ in headers[1:]:
        add_column(12)
    if has_input_shapes:
        headers.append("Input Shapes")
        add_column(shapes_w)
    if stacks:
        headers.append("Source Location")
        add_column(src_w, "<")
    flops_scale, flops_header = 1.0, ""
    if with_flops:
        raw = [e.flops for e in events if e.flops > 0]
        if raw:
            names = ["FLOPs", "KFLOPs", "MFLOPs", "GFLOPs", "TFLOPs", "PFLOPs"]
            log = max(0.0, min(math.log10(min(raw)) / 3, float(len(names) - 1)))
            flops_scale, flops_header = 10 ** (math.floor(log) * -3.0), names[int(log)]
            headers.append(f"Total {flops_header}")
            add_column(12)
        else:
            with_flops = False
    out: list[str] = []

    def append(s: str) -> None:
        out.append(s)
        out.append("\n")

    total_self = sum(e.self_cpu_time_total for e in events)
    if header is not None:
        append("=" * line_len)
        append(header)
    if top_level_events_only:
        append("=" * line_len)
        append("This report only display top-level ops statistics")
    append(sep)
    append(row_fmt.format(*headers))
    append(sep)
    shown = 0
    for e in events:
        if shown == row_limit:
            break
        if top_level_events_only and e.cpu_parent is not None:
            continue
        shown += 1
        name = e.key
        if max_name_column_width is not None and len(name) >= max_name_column_width - 3:
            name = name[: max_name_column_width - 3] + "..."
        row: list[Any] = [
            name,
            _format_time_share(e.self_cpu_time_total, total_self),
            _override_time(e.self_cpu_time_total, _format_time(e.self_cpu_time_total), time_unit),
            _format_time_share(e.cpu_time_total, total_self),
            _override_time(e.cpu_time_total, _format_time(e.cpu_time_total), time_unit),
            _override_time(e.cpu_time, _format_time(e.cpu_time), time_unit),
        ]
        if profile_memory:
            row += [_format_memory(e.cpu_memory_usage), _format_memory(e.self_cpu_memory_usage)]
        row.append(e.count)
        if has_input_shapes:
            row.append(str(e.input_shapes)[:shapes_w])
        if with_flops:
            row.append("--" if e.flops <= 0 else f"{e.flops * flops_scale:8.3f}")
        if stacks:
            row.append(_trim_path(e.stack[0], src_w) if e.stack else "")
        append(row_fmt.format(*row))
        if stacks:
            blank = [""] * (len(headers) - 1)
            for entry in (e.stack or [])[1:]:
                append(row_fmt.format(*(blank + [_trim_path(entry, src_w)])))
            append(row_fmt.format(*(blank + [""])))
    append(sep)
    append(
        f"Self CPU time total: {_override_time(total_self, _format_time(total_self), time_unit)}"
    )
    return "".join(out)


def build_events(c: profiler_state.Collector, with_flops: bool = False) -> EventList:
    """FunctionEvents (parents linked, memory attributed) from a closed collector's records."""
    t0 = c.t_start
    evs: list[FunctionEvent] = []
    for i, r in enumerate(c.events):
        end = r[profiler_state.T1] or c.t_stop
        full = len(r) > profiler_state.SHAPES  # the short form: a plain operator event
        evs.append(
            FunctionEvent(
                i,
                r[profiler_state.NAME],
                (r[profiler_state.T0] - t0) / 1000.0,
                (end - t0) / 1000.0,
                kind=r[profiler_state.KIND] if full else "cpu_op",
                input_shapes=r[profiler_state.SHAPES] if full else None,
                stack=r[profiler_state.STACK] if full else None,
                dispatch_key=r[profiler_state.KEY] if full else None,
            )
        )
    for i, r in enumerate(c.events):
        p = r[profiler_state.PARENT]
        if p >= 0:
            evs[i].cpu_parent = evs[p]
            evs[p].cpu_children.append(evs[i])
    for t, nbytes, idx in c.memory:
        if idx >= 0 and idx < len(evs):
            e = evs[idx]
            e.self_cpu_memory_usage += nbytes
            e.memory_events.append(((t - t0) / 1000.0, nbytes))
            while e is not None:
                e.cpu_memory_usage += nbytes
                e = e.cpu_parent
    if with_flops:
        _add_flops(evs)
    out = EventList(evs, profile_memory=c.profile_memory, with_flops=with_flops)
    out.memory_records = [((t - t0) / 1000.0, nbytes) for t, nbytes, _idx in c.memory]
    return out


def _add_flops(evs: Iterable[FunctionEvent]) -> None:
    # PyTorch counts FLOPs for matrix products and convolutions from the recorded shapes.
    for e in evs:
        s = e.input_shapes
        if not s:
            continue
        try:
            if e.name == "aten::mm" and len(s) >= 2:
                (m, k), (_, n) = s[0], s[1]
                e.flops = 2 * m * k * n
            elif e.name == "aten::addmm" and len(s) >= 3:
                (m, k), (_, n) = s[1], s[2]
                e.flops = 2 * m * k * n
            elif e.name in ("aten::bmm", "aten::baddbmm") and len(s) >= 2:
                a, b = (s[0], s[1]) if e.name == "aten::bmm" else (s[1], s[2])
                e.flops = 2 * a[0] * a[1] * a[2] * b[2]
        except (TypeError, ValueError, IndexError):
            e.flops = 0
