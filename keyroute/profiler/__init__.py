"""keyroute.profiler: torch.profiler's API (profile, record_function, schedule, key_averages
tables, Chrome traces) recording keyroute's dispatcher; see profiler.py and _state.py."""

from __future__ import annotations

from ._events import EventList, FunctionEvent, FunctionEventAvg
from ._state import record_function
from .profiler import (
    ProfilerAction,
    ProfilerActivity,
    profile,
    schedule,
    supported_activities,
    tensorboard_trace_handler,
)

__all__ = [
    "EventList",
    "FunctionEvent",
    "FunctionEventAvg",
    "ProfilerAction",
    "ProfilerActivity",
    "profile",
    "record_function",
    "schedule",
    "supported_activities",
    "tensorboard_trace_handler",
]

# torch.autograd.profiler.record_function & co. (after the names above exist: it imports them).
from ..autograd import profiler as _autograd_profiler  # noqa: E402, F401
