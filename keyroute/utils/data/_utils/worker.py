"""The DataLoader's worker processes (torch.utils.data._utils.worker).

Each worker is seeded as PyTorch's: `random.seed(base_seed + id)`, `keyroute.manual_seed(base_seed
+ id)`, and NumPy's legacy global generator from a SeedSequence-style hash of (id, base_seed)
(`_generate_state`), so per-worker augmentations draw what PyTorch's workers draw. It then
serves (task index, sampler index) pairs from its index queue until told to stop (None),
answering each with (task index, data) or an ExceptionWrapper.
"""

from __future__ import annotations

import queue
import random
import sys
import traceback
from dataclasses import dataclass
from typing import Any

__all__ = ["WorkerInfo", "get_worker_info", "ExceptionWrapper"]

_worker_info: WorkerInfo | None = None
_MASK32 = 0xFFFFFFFF
_STATUS_INTERVAL = 0.5  # seconds between checks that the parent is alive


@dataclass(frozen=True)
class WorkerInfo:
    """What `get_worker_info()` answers inside a worker process."""

    id: int
    num_workers: int
    seed: int
    dataset: Any


def get_worker_info() -> WorkerInfo | None:
    """This worker's id, worker count, seed and dataset copy; None in the main process."""
    return _worker_info


class ExceptionWrapper:
    """An exception raised in a worker, carried to the main process with its traceback."""

    def __init__(self, where: str) -> None:
        exc_type, exc, _ = sys.exc_info()
        self.exc_type = exc_type
        self.exc_msg = "".join(traceback.format_exception(*sys.exc_info()))
        self.where = where

    def reraise(self) -> None:
        msg = f"Caught {self.exc_type.__name__} {self.where}.\nOriginal {self.exc_msg}"
        if self.exc_type is KeyError:
            msg = KeyErrorMessage(msg)
        try:
            exc = self.exc_type(msg)  # type: ignore[misc]
        except Exception:
            raise RuntimeError(msg) from None
        raise exc


class KeyErrorMessage(str):
    """A KeyError's message printed as is (KeyError would repr it)."""

    def __repr__(self) -> str:
        return str(self)


class _IterableDatasetStopIteration:
    def __init__(self, worker_id: int) -> None:
        self.worker_id = worker_id


class _ResumeIteration:
    """Sent to persistent workers at the start of each epoch."""


def _generate_state(base_seed: int, worker_id: int) -> list[int]:
    """Four 32-bit words seeding NumPy in worker `worker_id` (PyTorch's SeedSequence-style
    hash of [worker_id, low and high words of base_seed, 0])."""
    mult_a, mult_b = 0x931E8875, 0x58F38DED
    const = [0x43B0D7E5]

    def hashmix(value: int) -> int:
        value = (value ^ const[0]) & _MASK32
        const[0] = (const[0] * mult_a) & _MASK32
        value = (value * const[0]) & _MASK32
        return (value ^ (value >> 16)) & _MASK32

    def mix(x: int, y: int) -> int:
        r = ((0xCA01F9DD * x) - (0x4973F715 * y)) & _MASK32
        return (r ^ (r >> 16)) & _MASK32

    pool = [hashmix(v) for v in (worker_id, base_seed & _MASK32, base_seed >> 32, 0)]
    for src in range(4):
        for dst in range(4):
            if src != dst:
                pool[dst] = mix(pool[dst], hashmix(pool[src]))
    out = []
    const_b = 0x8B51F9DD
    for v in pool:
        v = (v ^ const_b) & _MASK32
        const_b = (const_b * mult_b) & _MASK32
        v = (v * const_b) & _MASK32
        out.append((v ^ (v >> 16)) & _MASK32)
    return out


def _worker_loop(
    iterable: bool,
    dataset: Any,
    index_queue: Any,
    data_queue: Any,
    done_event: Any,
    auto_collation: bool,
    collate_fn: Any,
    drop_last: bool,
    base_seed: int,
    init_fn: Any,
    worker_id: int,
    num_workers: int,
) -> None:
    import numpy as np

    import keyroute

    from .fetch import create_fetcher

    global _worker_info
    try:
        seed = base_seed + worker_id
        random.seed(seed)
        keyroute.manual_seed(seed)
        np.random.seed(_generate_state(base_seed, worker_id))
        _worker_info = WorkerInfo(id=worker_id, num_workers=num_workers, seed=seed, dataset=dataset)
        init_error = None
        try:
            if init_fn is not None:
                init_fn(worker_id)
            fetcher = create_fetcher(iterable, dataset, auto_collation, collate_fn, drop_last)
        except Exception:
            init_error = ExceptionWrapper(f"in DataLoader worker process {worker_id}")
        ended = False
        while True:
            try:
                task = index_queue.get(timeout=_STATUS_INTERVAL)
            except queue.Empty:
                if done_event.is_set():
                    break
                continue
            if task is None:
                break
            if isinstance(task, _ResumeIteration):
                ended = False
                fetcher = create_fetcher(iterable, dataset, auto_collation, collate_fn, drop_last)
                data_queue.put((task, None))
                continue
            if done_event.is_set() or ended:
                continue
            idx, index = task
            if init_error is not None:
                data: Any = init_error
                init_error = None
            else:
                try:
                    data = fetcher.fetch(index)
                except StopIteration:
                    if not iterable:
                        data = ExceptionWrapper(f"in DataLoader worker process {worker_id}")
                    else:
                        data = _IterableDatasetStopIteration(worker_id)
                        ended = True
                except Exception:
                    data = ExceptionWrapper(f"in DataLoader worker process {worker_id}")
            data_queue.put((idx, data))
            del data
    except KeyboardInterrupt:
        pass
