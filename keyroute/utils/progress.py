"""A dependency-free text progress bar on stderr, for the CLI and the examples."""

from __future__ import annotations

import sys
import time
from typing import TextIO

__all__ = ["ProgressBar"]


class ProgressBar:
    """Call with (done, total) to redraw; a final newline once done reaches total.

    `unit` names what is counted; `extra` (a string) is printed after the rate, e.g. a loss.
    """

    def __init__(
        self, total: int, unit: str = "items", width: int = 30, stream: TextIO | None = None
    ) -> None:
        self.total, self.unit, self.width = total, unit, width
        self.stream = stream if stream is not None else sys.stderr
        self.start = time.perf_counter()
        self._last = 0.0

    def __call__(self, done: int, total: int | None = None, extra: str = "") -> None:
        total = self.total if total is None else total
        now = time.perf_counter()
        # Redraw at most ten times a second (and always at the end): terminals are slow.
        if done < total and now - self._last < 0.1:
            return
        self._last = now
        frac = done / max(total, 1)
        filled = int(self.width * frac)
        rate = done / max(now - self.start, 1e-9)
        bar = "#" * filled + "-" * (self.width - filled)
        tail = f"  {extra}" if extra else ""
        self.stream.write(f"\r[{bar}] {done}/{total} {self.unit} ({rate:.0f}/s){tail}")
        if done >= total:
            self.stream.write("\n")
        self.stream.flush()
