"""DataLoader (torch.utils.data.dataloader): batches from a dataset, in the main process or
in worker processes.

An iterator draws `base_seed = empty((), dtype=int64).random_(generator=loader.generator)` when
it starts, before the sampler draws anything, exactly as PyTorch's; so a loader's shuffled
order, and each worker's seeds, are PyTorch's for the same seed.

With `num_workers > 0` each worker process runs `_utils.worker._worker_loop`: it gets (task,
indices) pairs on its own queue, round-robin, `prefetch_factor` tasks ahead per worker, and
puts (task, batch) on one shared result queue; batches come back in task order. A worker's
exception is re-raised in the main process with the worker's traceback; a worker that dies is
reported ("DataLoader worker (pid(s) ...) exited unexpectedly").

>>> import keyroute
>>> from keyroute.utils.data import TensorDataset
>>> dl = DataLoader(TensorDataset(keyroute.arange(5)), batch_size=2)
>>> [b[0].tolist() for b in dl]
[[0, 1], [2, 3], [4]]
"""

from __future__ import annotations

import itertools
import multiprocessing
import queue
import threading
import warnings
from collections.abc import Callable, Iterable
from typing import Any

from ._utils import worker as _worker
from ._utils.collate import default_collate, default_convert
from ._utils.fetch import create_fetcher
from ._utils.worker import get_worker_info
from .dataset import IterableDataset
from .sampler import BatchSampler, RandomSampler, Sampler, SequentialSampler

__all__ = ["DataLoader", "default_collate", "default_convert", "get_worker_info"]

_POLL = 5.0  # seconds between liveness checks of the workers while waiting for a batch


class _InfiniteConstantSampler(Sampler[None]):
    """The sampler of an iterable dataset: None, forever (the dataset decides the end)."""

    def __iter__(self) -> Any:
        while True:
            yield None


class DataLoader:
    """Iterate over `dataset` in batches (see torch.utils.data.DataLoader for the options)."""

    _initialized = False

    def __init__(
        self,
        dataset: Any,
        batch_size: int | None = 1,
        shuffle: bool | None = None,
        sampler: Sampler[Any] | Iterable[Any] | None = None,
        batch_sampler: Sampler[Any] | Iterable[Any] | None = None,
        num_workers: int = 0,
        collate_fn: Callable[..., Any] | None = None,
        pin_memory: bool = False,
        drop_last: bool = False,
        timeout: float = 0,
        worker_init_fn: Callable[[int], None] | None = None,
        multiprocessing_context: Any = None,
        generator: Any = None,
        *,
        prefetch_factor: int | None = None,
        persistent_workers: bool = False,
        pin_memory_device: str = "",
        in_order: bool = True,
    ) -> None:
        if num_workers < 0:
            raise ValueError(
                "num_workers option should be non-negative; use num_workers=0 to disable "
                "multiprocessing."
            )
        if timeout < 0:
            raise ValueError("timeout option should be non-negative")
        if num_workers == 0 and prefetch_factor is not None:
            raise ValueError(
                "prefetch_factor option could only be specified in multiprocessing.let "
                "num_workers > 0 to enable multiprocessing, otherwise set prefetch_factor to "
                "None."
            )
        if num_workers > 0 and prefetch_factor is None:
            prefetch_factor = 2
        elif prefetch_factor is not None and prefetch_factor < 0:
            raise ValueError("prefetch_factor option should be non-negative")
        if persistent_workers and num_workers == 0:
            raise ValueError("persistent_workers option needs num_workers > 0")
        self.dataset = dataset
        self.num_workers = num_workers
        self.prefetch_factor = prefetch_factor
        self.pin_memory = pin_memory
        self.pin_memory_device = pin_memory_device
        self.timeout = timeout
        self.worker_init_fn = worker_init_fn
        self.in_order = in_order
        self._iterable = isinstance(dataset, IterableDataset)
        if self._iterable:
            if shuffle not in (False, None):
                raise ValueError(
                    "DataLoader with IterableDataset: expected unspecified shuffle option, but "
                    f"got shuffle={shuffle}"
                )
            if sampler is not None:
                raise ValueError(
                    "DataLoader with IterableDataset: expected unspecified sampler option, but "
                    f"got sampler={sampler}"
                )
            if batch_sampler is not None:
                raise ValueError(
                    "DataLoader with IterableDataset: expected unspecified batch_sampler option, "
                    f"but got batch_sampler={batch_sampler}"
                )
        else:
            shuffle = bool(shuffle)
        if sampler is not None and shuffle:
            raise ValueError("sampler option is mutually exclusive with shuffle")
        if batch_sampler is not None:
            if batch_size != 1 or shuffle or sampler is not None or drop_last:
                raise ValueError(
                    "batch_sampler option is mutually exclusive with batch_size, shuffle, "
                    "sampler, and drop_last"
                )
            batch_size = None
            drop_last = False
        elif batch_size is None and drop_last:
            raise ValueError(
                "batch_size=None option disables auto-batching and is mutually exclusive with "
                "drop_last"
            )
        if sampler is None:
            if self._iterable:
                sampler = _InfiniteConstantSampler()
            elif shuffle:
                sampler = RandomSampler(dataset, generator=generator)
            else:
                sampler = SequentialSampler(dataset)
        if batch_size is not None and batch_sampler is None:
            batch_sampler = BatchSampler(sampler, batch_size, drop_last)
        self.batch_size = batch_size
        self.drop_last = drop_last
        self.sampler = sampler
        self.batch_sampler = batch_sampler
        self.generator = generator
        if collate_fn is None:
            collate_fn = default_collate if batch_sampler is not None else default_convert
        self.collate_fn = collate_fn
        self.persistent_workers = persistent_workers
        if multiprocessing_context is not None and num_workers == 0:
            raise ValueError(
                "multiprocessing_context can only be used with multi-process loading "
                f"(num_workers > 0), but got num_workers={num_workers}"
            )
        if isinstance(multiprocessing_context, str):
            methods = multiprocessing.get_all_start_methods()
            if multiprocessing_context not in methods:
                raise ValueError(
                    "multiprocessing_context option should specify a valid start method in "
                    f"{methods!r}, but got multiprocessing_context={multiprocessing_context!r}"
                )
        self.multiprocessing_context = multiprocessing_context
        self._iterator: Any = None
        self._initialized = True

    def __setattr__(self, attr: str, val: Any) -> None:
        if self._initialized and attr in (
            "batch_size",
            "batch_sampler",
            "sampler",
            "drop_last",
            "dataset",
            "persistent_workers",
        ):
            raise ValueError(
                f"{attr} attribute should not be set after {type(self).__name__} is initialized"
            )
        super().__setattr__(attr, val)

    @property
    def _auto_collation(self) -> bool:
        return self.batch_sampler is not None

    @property
    def _index_sampler(self) -> Any:
        return self.batch_sampler if self._auto_collation else self.sampler

    def __iter__(self) -> Any:
        if self.num_workers == 0:
            return _SingleProcessDataLoaderIter(self)
        if self.persistent_workers:
            if self._iterator is None:
                self._iterator = _MultiProcessingDataLoaderIter(self)
            else:
                self._iterator._reset(self)
            return self._iterator
        return _MultiProcessingDataLoaderIter(self)

    def __len__(self) -> int:
        if self._iterable:
            n = len(self.dataset)
            if self.batch_size is not None:
                from math import ceil

                n = n // self.batch_size if self.drop_last else ceil(n / self.batch_size)
            return n
        return len(self._index_sampler)


class _BaseDataLoaderIter:
    def __init__(self, loader: DataLoader) -> None:
        import keyroute

        self._dataset = loader.dataset
        self._iterable = loader._iterable
        self._auto_collation = loader._auto_collation
        self._drop_last = loader.drop_last
        self._index_sampler = loader._index_sampler
        self._num_workers = loader.num_workers
        self._timeout = loader.timeout
        self._collate_fn = loader.collate_fn
        if loader.pin_memory:
            accelerator = getattr(keyroute, "accelerator", None)
            if accelerator is None or not accelerator.is_available():
                warnings.warn(
                    "'pin_memory' argument is set as true but no accelerator is found, then "
                    "device pinned memory won't be used.",
                    stacklevel=3,
                )
        self._sampler_iter = iter(self._index_sampler)
        # Drawn whether or not there are workers: it moves the generator as PyTorch's does.
        seed_t = keyroute.empty((), dtype=keyroute.int64).random_(generator=loader.generator)
        self._base_seed = int(seed_t.item())
        self._num_yielded = 0

    def __iter__(self) -> _BaseDataLoaderIter:
        return self

    def _next_index(self) -> Any:
        return next(self._sampler_iter)

    def __len__(self) -> int:
        return len(self._index_sampler)

    def __next__(self) -> Any:
        data = self._next_data()
        self._num_yielded += 1
        return data

    def _next_data(self) -> Any:
        raise NotImplementedError

    def __getstate__(self) -> Any:
        raise NotImplementedError(f"{type(self).__name__} cannot be pickled")


class _SingleProcessDataLoaderIter(_BaseDataLoaderIter):
    def __init__(self, loader: DataLoader) -> None:
        super().__init__(loader)
        self._fetcher = create_fetcher(
            self._iterable, self._dataset, self._auto_collation, self._collate_fn, self._drop_last
        )

    def _next_data(self) -> Any:
        index = self._next_index()
        return self._fetcher.fetch(index)


class _MultiProcessingDataLoaderIter(_BaseDataLoaderIter):
    def __init__(self, loader: DataLoader) -> None:
        super().__init__(loader)
        self._prefetch = loader.prefetch_factor or 2
        self._persistent = loader.persistent_workers
        self._in_order = loader.in_order
        ctx = loader.multiprocessing_context
        if isinstance(ctx, str):
            ctx = multiprocessing.get_context(ctx)
        elif ctx is None:
            ctx = multiprocessing
        self._data_queue = ctx.Queue()
        self._done_event = ctx.Event()
        self._index_queues = []
        self._workers = []
        for wid in range(self._num_workers):
            iq = ctx.Queue()
            iq.cancel_join_thread()
            w = ctx.Process(
                target=_worker._worker_loop,
                args=(
                    self._iterable,
                    self._dataset,
                    iq,
                    self._data_queue,
                    self._done_event,
                    self._auto_collation,
                    self._collate_fn,
                    self._drop_last,
                    self._base_seed,
                    loader.worker_init_fn,
                    wid,
                    self._num_workers,
                ),
                daemon=True,
            )
            w.start()
            self._index_queues.append(iq)
            self._workers.append(w)
        self._shutdown = False
        self._lock = threading.Lock()
        self._start_epoch()

    def _start_epoch(self) -> None:
        self._send_idx = 0
        self._rcvd_idx = 0
        self._task_info: dict[int, tuple[int, Any]] = {}  # task -> (worker, data or pending)
        self._pending: dict[int, Any] = {}
        self._workers_active = [True] * self._num_workers
        self._worker_cycle = itertools.cycle(range(self._num_workers))
        for _ in range(self._prefetch * self._num_workers):
            self._try_put_index()

    def _reset(self, loader: DataLoader) -> None:
        self._sampler_iter = iter(self._index_sampler)
        self._num_yielded = 0
        for iq in self._index_queues:
            iq.put(_worker._ResumeIteration())
        acks = 0
        while acks < self._num_workers:  # drop what the last epoch left in flight
            item = self._get(None)
            if isinstance(item[0], _worker._ResumeIteration):
                acks += 1
        self._start_epoch()

    def _try_put_index(self) -> None:
        try:
            index = self._next_index()
        except StopIteration:
            return
        for _ in range(self._num_workers):
            wid = next(self._worker_cycle)
            if self._workers_active[wid]:
                break
        else:
            return
        self._index_queues[wid].put((self._send_idx, index))
        self._task_info[self._send_idx] = (wid, None)
        self._send_idx += 1

    def _get(self, timeout: float | None) -> Any:
        waited = 0.0
        while True:
            step = _POLL if timeout is None else min(_POLL, timeout - waited)
            try:
                return self._data_queue.get(timeout=max(step, 0.01))
            except queue.Empty:
                waited += step
                dead = [w.pid for w in self._workers if not w.is_alive()]
                if dead:
                    self._shutdown_workers()
                    pids = ", ".join(str(p) for p in dead)
                    raise RuntimeError(
                        f"DataLoader worker (pid(s) {pids}) exited unexpectedly"
                    ) from None
                if timeout is not None and waited >= timeout:
                    raise RuntimeError(f"DataLoader timed out after {timeout} seconds") from None

    def _next_data(self) -> Any:
        while True:
            # Skip tasks that will never answer: sent to a worker whose stream has ended.
            while self._rcvd_idx < self._send_idx:
                info = self._task_info.get(self._rcvd_idx)
                if info is not None and (
                    self._rcvd_idx in self._pending or self._workers_active[info[0]]
                ):
                    break
                self._task_info.pop(self._rcvd_idx, None)
                self._rcvd_idx += 1
            if self._rcvd_idx >= self._send_idx:
                if not self._persistent:
                    self._shutdown_workers()
                raise StopIteration
            if self._rcvd_idx in self._pending:
                data = self._pending.pop(self._rcvd_idx)
                del self._task_info[self._rcvd_idx]
                self._rcvd_idx += 1
                return self._process(data)
            idx, data = self._get(self._timeout or None)
            if isinstance(data, _worker._IterableDatasetStopIteration):
                self._workers_active[data.worker_id] = False
                self._task_info.pop(idx, None)
                continue
            if idx != self._rcvd_idx:
                if self._in_order:
                    self._pending[idx] = data
                    continue
                self._task_info.pop(idx, None)  # out of order: answered now, skipped later
                return self._process(data)
            del self._task_info[idx]
            self._rcvd_idx += 1
            return self._process(data)

    def _process(self, data: Any) -> Any:
        self._try_put_index()
        if isinstance(data, _worker.ExceptionWrapper):
            data.reraise()
        return data

    def _shutdown_workers(self) -> None:
        if self._shutdown:
            return
        self._shutdown = True
        self._done_event.set()
        for iq in self._index_queues:
            try:
                iq.put(None)
            except (OSError, ValueError):
                pass
        for w in self._workers:
            w.join(timeout=_POLL)
            if w.is_alive():
                w.terminate()
        for iq in self._index_queues:
            iq.cancel_join_thread()
            iq.close()
        self._data_queue.cancel_join_thread()
        self._data_queue.close()

    def __del__(self) -> None:
        if getattr(self, "_workers", None):
            try:
                self._shutdown_workers()
            except Exception:  # noqa: BLE001 - interpreter shutdown: nothing to report to
                pass
