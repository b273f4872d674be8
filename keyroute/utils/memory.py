"""Memory planning from a forward (and optionally backward) pass on fake or meta inputs.

`MemoryTracker` is a dispatch mode that counts the bytes of every new storage an operator
creates and releases them when the last tensor viewing the storage dies (Python frees them
promptly), so `peak` is the activation high-water mark. It attributes allocations to operators
and to the modules running (ModuleTracker).

    report = estimate_memory(model, fake_input)
    report.param_bytes, report.activation_peak_bytes, report.by_op, report.by_module

Nothing is allocated: run it on a model built under `keyroute.device("meta")` (or converted
with FakeTensorMode) and on FakeTensor/meta inputs.
"""

from __future__ import annotations

import weakref
from collections import defaultdict
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

import numpy as np

from ..tensor._tensor import Tensor, _root_array
from ..tensor.meta_array import MetaArray
from .module_tracker import ModuleTracker
from .python_dispatch import TorchDispatchMode

__all__ = ["MemoryTracker", "MemoryReport", "estimate_memory", "format_bytes"]


def _storage_of(t: Tensor) -> tuple[Any, int]:
    data = t._data
    if isinstance(data, MetaArray):
        return data.storage, data.storage.nbytes
    if isinstance(data, np.ndarray):
        root = _root_array(data)
        return root, root.nbytes
    return None, 0


class MemoryTracker(TorchDispatchMode):
    """Live bytes of tensors created inside the block; peak; allocations by op and module."""

    def __init__(self) -> None:
        super().__init__()
        self.current = 0
        self.peak = 0
        self.by_op: dict[str, int] = defaultdict(int)
        self.by_module: dict[str, int] = defaultdict(int)
        self.module_peak: dict[str, int] = defaultdict(int)
        self._live: dict[int, int] = {}
        self._known: weakref.WeakSet[Any] = weakref.WeakSet()
        self.tracker = ModuleTracker()

    def track(self, t: Any) -> None:
        """Count an existing tensor (e.g. an input) as live."""
        for x in t if isinstance(t, (list, tuple)) else (t,):
            if isinstance(x, Tensor):
                self._allocate(x, None)

    def _allocate(self, t: Tensor, op: str | None) -> None:
        storage, nbytes = _storage_of(t)
        if storage is None or id(storage) in self._live:
            return
        try:
            weakref.finalize(storage, self._free, id(storage))
        except TypeError:  # not weak-referenceable: count it, never free it
            pass
        self._live[id(storage)] = nbytes
        self.current += nbytes
        if self.current > self.peak:
            self.peak = self.current
        if op is not None:
            self.by_op[op] += nbytes
        for mod in self.tracker.parents:
            self.by_module[mod] += nbytes
            if self.current > self.module_peak[mod]:
                self.module_peak[mod] = self.current

    def _free(self, key: int) -> None:
        self.current -= self._live.pop(key, 0)

    def __torch_dispatch__(self, func: Any, types: Any, args: Any = (), kwargs: Any = None) -> Any:
        out = func(*args, **(kwargs or {}))
        name = str(func)
        for t in out if isinstance(out, (list, tuple)) else (out,):
            if isinstance(t, Tensor):
                self._allocate(t, name)
        return out

    def __enter__(self) -> MemoryTracker:
        self.tracker.__enter__()
        super().__enter__()
        return self

    def __exit__(self, *exc: Any) -> None:
        super().__exit__(*exc)
        self.tracker.__exit__(*exc)


@dataclass
class MemoryReport:
    param_count: int
    param_bytes: int
    buffer_bytes: int
    input_bytes: int
    activation_peak_bytes: int
    by_op: dict[str, int] = field(default_factory=dict)
    by_module: dict[str, int] = field(default_factory=dict)

    @property
    def peak_bytes(self) -> int:
        """Parameters, buffers, inputs and the activation high-water mark together."""
        return self.param_bytes + self.buffer_bytes + self.input_bytes + self.activation_peak_bytes

    def summary(self) -> str:
        lines = [
            f"parameters        {self.param_count:,} ({format_bytes(self.param_bytes)})",
            f"buffers           {format_bytes(self.buffer_bytes)}",
            f"inputs            {format_bytes(self.input_bytes)}",
            f"activation peak   {format_bytes(self.activation_peak_bytes)}",
            f"peak total        {format_bytes(self.peak_bytes)}",
        ]
        return "\n".join(lines)


def _nbytes(t: Tensor) -> int:
    return t.numel() * t.element_size()


def estimate_memory(
    model: Any,
    *inputs: Any,
    backward: bool = False,
    loss_fn: Callable[[Any], Tensor] | None = None,
    **kwargs: Any,
) -> MemoryReport:
    """Run `model(*inputs)` (and a backward pass if asked) counting memory; allocates nothing
    when the model and inputs are meta or fake tensors."""
    from ..autograd.grad_mode import no_grad

    params = list(model.parameters())
    param_count = sum(p.numel() for p in params)
    param_bytes = sum(_nbytes(p) for p in params)
    buffer_bytes = sum(_nbytes(b) for b in model.buffers())
    input_bytes = sum(_nbytes(x) for x in inputs if isinstance(x, Tensor))
    tracker = MemoryTracker()
    tracker.tracker.name_modules(model)
    with tracker:
        if backward:
            out = model(*inputs, **kwargs)
            loss = loss_fn(out) if loss_fn is not None else out.sum()
            loss.backward()
            del out, loss
        else:
            with no_grad():
                out = model(*inputs, **kwargs)
            del out
    return MemoryReport(
        param_count=param_count,
        param_bytes=param_bytes,
        buffer_bytes=buffer_bytes,
        input_bytes=input_bytes,
        activation_peak_bytes=tracker.peak,
        by_op=dict(tracker.by_op),
        by_module=dict(tracker.by_module),
    )


def format_bytes(n: int) -> str:
    for unit, scale in (("TiB", 1 << 40), ("GiB", 1 << 30), ("MiB", 1 << 20), ("KiB", 1 << 10)):
        if n >= scale:
            return f"{n / scale:.2f} {unit}"
    return f"{n} B"
