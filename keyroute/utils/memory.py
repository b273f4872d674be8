"""Memory planning from a forward (and optionally backward) pass on meta or fake inputs.

`MemoryTracker` is a dispatch mode that counts the bytes of every new storage an operator
creates and releases them when the last tensor viewing the storage dies (Python frees them
promptly), so `peak` is the activation high-water mark. Storages that exist before the pass
(parameters, buffers, inputs) are known to it and never counted again, so views of them
(`weight.t()` inside `linear`) and in-place writes to them cost nothing. It attributes
allocations to operators and to the modules running (ModuleTracker names: `Llama.layers.0.mlp`).

    report = estimate_memory(model, meta_input)
    report.param_bytes, report.activation_peak_bytes, report.by_op, report.by_module

Nothing is allocated: run it on a model built under `keyroute.device("meta")` with meta inputs
(or under FakeTensorMode with fake ones).
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
    """The object identifying t's storage (shared by its views) and the storage's bytes."""
    data = t._data
    if data.__class__ is MetaArray:
        return data.storage, data.storage.nbytes
    if isinstance(data, np.ndarray):
        root = _root_array(data)
        return root, root.nbytes
    return None, 0


class MemoryTracker(TorchDispatchMode):
    """Live bytes of storages created inside the block; their peak; allocations by operator
    and by module; the peak of live bytes seen while each module ran."""

    def __init__(self) -> None:
        super().__init__()
        self.current = 0
        self.peak = 0
        self.by_op: dict[str, int] = defaultdict(int)
        self.by_module: dict[str, int] = defaultdict(int)
        self.module_peak: dict[str, int] = defaultdict(int)
        # storage id -> its group: [bytes, live storages], freed when its last storage dies.
        self._live: dict[int, list[int]] = {}
        self._finalizers: list[Any] = []
        self.tracker = ModuleTracker()

    def track(self, t: Any) -> None:
        """Count existing tensors (e.g. inputs) as live activations."""
        for x in t if isinstance(t, (list, tuple)) else (t,):
            if isinstance(x, Tensor):
                self._allocate(x, None)

    def ignore(self, t: Any) -> None:
        """Know existing tensors' storages (parameters, buffers) without counting them: their
        views and in-place writes then allocate nothing."""
        for x in t if isinstance(t, (list, tuple)) else (t,):
            if isinstance(x, Tensor):
                storage, _ = _storage_of(x)
                if storage is not None and id(storage) not in self._live:
                    self._remember(storage, [0, 0])

    def _remember(self, storage: Any, group: list[int]) -> bool:
        try:
            self._finalizers.append(weakref.finalize(storage, self._free, id(storage)))
        except TypeError:  # not weak-referenceable: never known as freed, so not counted
            return False
        group[1] += 1
        self._live[id(storage)] = group
        return True

    def _allocate(self, t: Tensor, op: str | None) -> None:
        storage, nbytes = _storage_of(t)
        if storage is None or id(storage) in self._live:
            return
        if not self._remember(storage, [nbytes, 0]):
            return
        self.current += nbytes
        if self.current > self.peak:
            self.peak = self.current
        if op is not None:
            self.by_op[op] += nbytes
        current = self.current
        module_peak = self.module_peak
        for mod in self.tracker.parents:
            if mod == "Global":
                continue
            self.by_module[mod] += nbytes
            if current > module_peak[mod]:
                module_peak[mod] = current

    def _free(self, key: int) -> None:
        group = self._live.pop(key, None)
        if group is not None:
            group[1] -= 1
            if group[1] == 0:
                self.current -= group[0]

    def __torch_dispatch__(self, func: Any, types: Any, args: Any = (), kwargs: Any = None) -> Any:
        out = func(*args, **(kwargs or {}))
        if isinstance(out, Tensor):
            self._allocate(out, str(func))
        elif isinstance(out, (list, tuple)):
            name = str(func)
            for t in out:
                if isinstance(t, Tensor):
                    self._allocate(t, name)
        return out

    def __enter__(self) -> MemoryTracker:
        self.tracker.__enter__()
        try:
            super().__enter__()
        except BaseException:
            self.tracker.__exit__(None, None, None)
            raise
        return self

    def __exit__(self, *exc: Any) -> None:
        try:
            super().__exit__(*exc)
        finally:
            self.tracker.__exit__(*exc)
            # The counts are final: stop watching storages that outlive the block (weights).
            for f in self._finalizers:
                f.detach()
            self._finalizers.clear()


@dataclass
class MemoryReport:
    """What `estimate_memory` found; bytes unless named otherwise."""

    param_count: int
    param_bytes: int
    buffer_bytes: int
    input_bytes: int
    activation_peak_bytes: int
    by_op: dict[str, int] = field(default_factory=dict)
    by_module: dict[str, int] = field(default_factory=dict)
    module_peak: dict[str, int] = field(default_factory=dict)

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
    """Run `model(*inputs, **kwargs)` (and, with `backward`, `loss_fn(out).backward()`, the
    default loss being `out.sum()`) counting memory. Parameters, buffers and inputs are
    reported apart; the activation peak counts what the pass allocates (with `backward`:
    saved activations, gradients of activations and the parameters' `.grad`). Allocates
    nothing when the model and inputs are meta or fake tensors."""
    from ..autograd.grad_mode import no_grad

    params = list(model.parameters())
    buffers = list(model.buffers())
    tensor_inputs = [x for x in (*inputs, *kwargs.values()) if isinstance(x, Tensor)]
    param_count = sum(p.numel() for p in params)
    tracker = MemoryTracker()
    tracker.ignore(params)
    tracker.ignore(buffers)
    tracker.ignore(tensor_inputs)
    name_modules = getattr(tracker.tracker, "name_modules", None)
    if name_modules is not None:
        name_modules(model)
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
        param_bytes=sum(_nbytes(p) for p in params),
        buffer_bytes=sum(_nbytes(b) for b in buffers),
        input_bytes=sum(_nbytes(x) for x in tensor_inputs),
        activation_peak_bytes=tracker.peak,
        by_op=dict(tracker.by_op),
        by_module=dict(tracker.by_module),
        module_peak=dict(tracker.module_peak),
    )


def format_bytes(n: int) -> str:
    """Bytes in the largest binary unit that keeps the number at least 1 (1.50 GiB)."""
    for unit, scale in (("TiB", 1 << 40), ("GiB", 1 << 30), ("MiB", 1 << 20), ("KiB", 1 << 10)):
        if n >= scale:
            return f"{n / scale:.2f} {unit}"
    return f"{n} B"
