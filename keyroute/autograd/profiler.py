"""torch.autograd.profiler's names that programs use: record_function and profile (the same
objects as keyroute.profiler's), and the event classes."""

from __future__ import annotations

from ..profiler import EventList, FunctionEvent, FunctionEventAvg, profile, record_function

__all__ = ["EventList", "FunctionEvent", "FunctionEventAvg", "profile", "record_function"]
