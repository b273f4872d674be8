"""Chrome trace (Trace Event Format, what Perfetto and chrome://tracing open) and the memory
timeline, written from a finished profile's events."""

from __future__ import annotations

import gzip
import json
import os
import threading
from typing import Any

from ._events import EventList

__all__ = ["chrome_trace", "write_chrome_trace", "memory_timeline", "write_memory_timeline"]


def chrome_trace(events: EventList, base_us: float, *, steps: int | None = None) -> dict[str, Any]:
    """The trace dict: one complete ('X') event per span, PyTorch's categories ('cpu_op',
    'user_annotation', plus 'dispatch_key' for with_dispatch layers), and with memory recorded
    an instant '[memory]' event per allocation/free and a 'CPU Memory' counter track."""
    pid = os.getpid()
    tid = threading.get_native_id() if hasattr(threading, "get_native_id") else 0
    out: list[dict[str, Any]] = [
        {"name": "process_name", "ph": "M", "pid": pid, "tid": 0, "args": {"name": "keyroute"}},
        {"name": "thread_name", "ph": "M", "pid": pid, "tid": tid, "args": {"name": "python"}},
    ]
    mem_points = sorted(getattr(events, "memory_records", None) or [])
    for e in events:
        start, end = e.time_range.start, e.time_range.end
        args: dict[str, Any] = {"External id": e.id + 1}
        if e.input_shapes:
            args["Input Dims"] = e.input_shapes
        if e.dispatch_key is not None:
            args["Dispatch key"] = e.dispatch_key
        if e.stack:
            args["Call stack"] = ";".join(e.stack)
        if e.self_cpu_memory_usage:
            args["Self CPU Mem (bytes)"] = e.self_cpu_memory_usage
        out.append(
            {
                "ph": "X",
                "cat": e.kind,
                "name": e.trace_name,
                "pid": pid,
                "tid": tid,
                "ts": round(base_us + start, 3),
                "dur": round(end - start, 3),
                "args": args,
            }
        )
    if mem_points:
        total = 0
        for t, nbytes in mem_points:
            total += nbytes
            ts = round(base_us + t, 3)
            out.append(
                {
                    "ph": "i",
                    "s": "t",
                    "cat": "cpu_instant_event",
                    "name": "[memory]",
                    "pid": pid,
                    "tid": tid,
                    "ts": ts,
                    "args": {"Device Type": 0, "Bytes": nbytes, "Total Allocated": total},
                }
            )
            out.append(
                {
                    "ph": "C",
                    "name": "CPU Memory",
                    "pid": pid,
                    "ts": ts,
                    "args": {"Allocated (bytes)": total},
                }
            )
    trace: dict[str, Any] = {
        "schemaVersion": 1,
        "deviceProperties": [],
        "traceEvents": out,
        "traceName": "keyroute",
        "displayTimeUnit": "ms",
        "baseTimeNanoseconds": int(base_us * 1000),
    }
    if steps is not None:
        trace["distributedInfo"] = {"steps": steps}
    return trace


def write_chrome_trace(path: str, trace: dict[str, Any]) -> str:
    data = json.dumps(trace, separators=(",", ":"))
    if path.endswith(".gz"):
        with gzip.open(path, "wt", encoding="utf-8") as f:
            f.write(data)
    else:
        with open(path, "w", encoding="utf-8") as f:
            f.write(data)
    return path


def memory_timeline(events: EventList) -> tuple[list[float], list[int]]:
    """(times in µs, bytes allocated after each allocation/free), in time order."""
    points = sorted(getattr(events, "memory_records", None) or [])
    times, sizes, total = [], [], 0
    for t, nbytes in points:
        total += nbytes
        times.append(t)
        sizes.append(total)
    return times, sizes


def write_memory_timeline(path: str, events: EventList) -> None:
    """JSON ([times], [[allocated]]) as PyTorch's .json form; .html: a self-contained SVG
    plot (no script, nothing fetched)."""
    times, sizes = memory_timeline(events)
    if path.endswith(".html"):
        w, h = 1000, 300
        tmax = max(times[-1] if times else 1.0, 1e-9)
        smax = max(max(sizes) if sizes else 1, 1)
        pts = " ".join(
            f"{t / tmax * w:.1f},{h - s / smax * (h - 20):.1f}" for t, s in zip(times, sizes)
        )
        html = (
            "<!doctype html><html><head><meta charset='utf-8'><title>Memory timeline</title>"
            "</head><body><h3>CPU memory allocated by tensors (peak "
            f"{smax} bytes)</h3><svg width='{w}' height='{h}' style='border:1px solid #999'>"
            f"<polyline fill='none' stroke='#36c' points='{pts}'/></svg></body></html>"
        )
        with open(path, "w", encoding="utf-8") as f:
            f.write(html)
        return
    with open(path, "w", encoding="utf-8") as f:
        json.dump([times, [sizes]], f)
