"""torch.autograd.graph.register_multi_grad_hook: one hook over the gradients of several tensors.

mode="all": `fn(grads)` runs once per backward, after every tensor whose node that backward
executes got its gradient; `grads` holds None for tensors the backward does not reach.
mode="any": `fn(grad)` runs once per backward, with the first gradient computed. Both use the
engine's graph-task id and its "will this node run" query, as PyTorch's implementation does.
"""

from __future__ import annotations

import threading
from collections.abc import Callable, Sequence
from typing import Any

from ..dispatcher.keyset import REQUIRES_GRAD_BIT
from .engine import current_graph_task_id, will_engine_execute_node
from .graph import grad_accumulator

__all__ = ["register_multi_grad_hook"]


class _MultiHandle:
    """Removes every per-tensor hook at once (PyTorch's RemovableHandle over a tuple)."""

    def __init__(self, handles: tuple[Any, ...]) -> None:
        self.handles = handles

    def remove(self) -> None:
        for h in self.handles:
            h.remove()

    def __enter__(self) -> _MultiHandle:
        return self

    def __exit__(self, *args: object) -> None:
        self.remove()


def _node_of(t: Any) -> Any:
    if not t._key_set & REQUIRES_GRAD_BIT:
        raise RuntimeError("cannot register a hook on a tensor that doesn't require gradient")
    ag = t._autograd_meta
    if ag is not None and ag.grad_fn is not None:
        return ag.grad_fn
    return grad_accumulator(t)


def register_multi_grad_hook(
    tensors: Sequence[Any], fn: Callable[..., Any], *, mode: str = "all"
) -> _MultiHandle:
    supported_modes = ("all", "any")
    if mode not in supported_modes:
        raise ValueError(f"Expects mode to be one of {supported_modes} but got {mode}")
    lock = threading.Lock()
    if mode == "all":
        nodes = [_node_of(t) for t in tensors]
        n = len(tensors)
        counts: dict[int, int] = {}
        buffers: dict[int, list[Any]] = {}
        expected: dict[int, int] = {}

        def make(idx: int) -> Callable[[Any], None]:
            def inner(grad: Any) -> None:
                task = current_graph_task_id()
                if task == -1:
                    raise AssertionError("expected this hook to be called inside a backward call")
                with lock:
                    seen = counts.get(task, 0)
                    counts[task] = seen + 1
                    buf = buffers.setdefault(task, [None] * n)
                    if seen == 0:
                        expected[task] = sum(will_engine_execute_node(nd) for nd in nodes)
                buf[idx] = grad
                if seen == expected[task] - 1:
                    del counts[task], expected[task]
                    fn(buffers.pop(task))

            return inner

        handles = tuple(t.register_hook(make(i)) for i, t in enumerate(tensors))
    else:
        ran: set[int] = set()

        def wrapped(grad: Any) -> None:
            task = current_graph_task_id()
            if task == -1:
                raise AssertionError("expected this hook to be called inside a backward call")
            with lock:
                if task in ran:
                    return
                ran.add(task)
            fn(grad)

        handles = tuple(t.register_hook(wrapped) for t in tensors if t._key_set & REQUIRES_GRAD_BIT)
    return _MultiHandle(handles)
