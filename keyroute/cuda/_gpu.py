"""CuPy, when it finds a GPU: what keyroute.cuda's functions do on a real device.

`cupy_or_none()` imports CuPy once and asks the runtime for devices; a missing CuPy, a
missing driver or zero devices all mean "no CUDA" (keyroute.cuda keeps PyTorch's CPU-build
behaviour). The first successful probe installs the CUDA kernels (backend.py) with CuPy.
"""

from __future__ import annotations

import time
from typing import Any

__all__ = ["cupy_or_none", "Stream", "Event"]

_probe: list[Any] = []


def cupy_or_none() -> Any:
    if not _probe:
        try:
            import cupy  # type: ignore[import-not-found]

            ok = cupy.cuda.runtime.getDeviceCount() > 0
        except Exception:  # ImportError, CUDARuntimeError (no driver / no device)
            cupy, ok = None, False
        _probe.append(cupy if ok else None)
        if ok:
            from .backend import install

            install(cupy)
    return _probe[0]


class Stream:
    """torch.cuda.Stream over a cupy.cuda.Stream."""

    def __init__(self, device: Any = None, priority: int = 0, **kwargs: Any) -> None:
        cp = cupy_or_none()
        self._stream = cp.cuda.Stream(non_blocking=True)
        self.device = device

    def synchronize(self) -> None:
        self._stream.synchronize()

    def query(self) -> bool:
        return bool(self._stream.done)

    def wait_event(self, event: Event) -> None:
        self._stream.wait_event(event._event)

    def wait_stream(self, stream: Stream) -> None:
        self.wait_event(stream.record_event())

    def record_event(self, event: Event | None = None) -> Event:
        event = Event() if event is None else event
        event.record(self)
        return event

    def __enter__(self) -> Stream:
        self._stream.__enter__()
        return self

    def __exit__(self, *exc: object) -> None:
        self._stream.__exit__(*exc)

    @property
    def cuda_stream(self) -> int:
        return int(self._stream.ptr)


class Event:
    """torch.cuda.Event over a cupy.cuda.Event."""

    def __init__(
        self, enable_timing: bool = False, blocking: bool = False, interprocess: bool = False
    ) -> None:
        cp = cupy_or_none()
        self._event = cp.cuda.Event(block=blocking, disable_timing=not enable_timing)
        self._cp = cp

    def record(self, stream: Stream | None = None) -> None:
        self._event.record(None if stream is None else stream._stream)

    def wait(self, stream: Stream | None = None) -> None:
        (self._cp.cuda.get_current_stream() if stream is None else stream._stream).wait_event(
            self._event
        )

    def query(self) -> bool:
        return bool(self._event.done)

    def synchronize(self) -> None:
        self._event.synchronize()

    def elapsed_time(self, end_event: Event) -> float:
        return float(self._cp.cuda.get_elapsed_time(self._event, end_event._event))


def wall() -> float:
    return time.perf_counter()
