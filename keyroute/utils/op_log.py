"""Operator logging and counting: dispatch modes over every aten call, and a counter of the
dispatch keys each call and redispatch went through.

>>> import keyroute
>>> with OpCounterMode() as c:
...     _ = keyroute.ones(3) * 2
>>> c.counts["aten.mul.Tensor"]
1
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterator
from contextlib import contextmanager
from typing import Any

from .python_dispatch import TorchDispatchMode

__all__ = ["OpLogMode", "OpCounterMode", "count_dispatch_keys"]


class OpLogMode(TorchDispatchMode):
    """Records `str(func)` of every operator reaching the Python key, with shapes if asked."""

    def __init__(self, with_shapes: bool = False) -> None:
        super().__init__()
        self.with_shapes = with_shapes
        self.ops: list[str] = []

    def __torch_dispatch__(self, func: Any, types: Any, args: Any = (), kwargs: Any = None) -> Any:
        kwargs = kwargs or {}
        out = func(*args, **kwargs)
        if self.with_shapes:
            shapes = [tuple(a.shape) for a in args if hasattr(a, "_key_set")]
            self.ops.append(f"{func} {shapes}")
        else:
            self.ops.append(str(func))
        return out


class OpCounterMode(TorchDispatchMode):
    """Counts operator calls by `str(func)`."""

    def __init__(self) -> None:
        super().__init__()
        self.counts: Counter[str] = Counter()

    def __torch_dispatch__(self, func: Any, types: Any, args: Any = (), kwargs: Any = None) -> Any:
        self.counts[str(func)] += 1
        return func(*args, **(kwargs or {}))


class _KeyCounter:
    def __init__(self) -> None:
        self.by_key: Counter[str] = Counter()
        self.by_op_key: Counter[tuple[str, str]] = Counter()

    def record(self, op: str, key: str) -> None:
        self.by_key[key] += 1
        self.by_op_key[(op, key)] += 1


@contextmanager
def count_dispatch_keys() -> Iterator[_KeyCounter]:
    """Count, for every operator call and redispatch in the block, the dispatch key whose
    kernel ran (`counter.by_key["AutogradCPU"]`, `counter.by_op_key[("aten::mm", "CPU")]`)."""
    from ..dispatcher import trace

    counter = _KeyCounter()
    with trace.record_dispatch(counter.record):
        yield counter
