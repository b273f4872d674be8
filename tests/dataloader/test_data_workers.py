"""DataLoader with worker processes: PyTorch's seeding in each worker (recorded), ordering,
persistent workers, worker errors and deaths."""

from __future__ import annotations

import json
import os
import random
from pathlib import Path

import numpy as np
import pytest

import keyroute
from keyroute.utils.data import DataLoader, Dataset, IterableDataset, TensorDataset, get_worker_info

REC = json.loads(
    (Path(__file__).resolve().parent.parent / "data" / "data_loading.json").read_text()
)


class WorkerProbe(Dataset):
    def __len__(self):
        return 6

    def __getitem__(self, i):
        info = get_worker_info()
        return [
            i,
            info.id if info else -1,
            info.seed if info else -1,
            int(np.random.randint(1 << 30)),
            random.random(),
            keyroute.rand(1).item(),
        ]


def test_worker_seeds_and_draws_are_pytorchs():
    dl = DataLoader(
        WorkerProbe(), batch_size=None, num_workers=2, generator=keyroute.Generator().manual_seed(5)
    )
    assert [list(x) for x in dl] == REC["worker_probe"]


def test_persistent_workers_keep_their_streams():
    dl = DataLoader(
        WorkerProbe(),
        batch_size=None,
        num_workers=2,
        generator=keyroute.Generator().manual_seed(5),
        persistent_workers=True,
    )
    got = [[list(x) for x in dl] for _ in range(2)]
    assert got == REC["worker_probe_persistent"]
    it = dl._iterator
    assert all(w.is_alive() for w in it._workers)
    it._shutdown_workers()
    assert not any(w.is_alive() for w in it._workers)


def test_shuffled_order_with_workers_and_global_generator():
    keyroute.manual_seed(11)
    dl = DataLoader(TensorDataset(keyroute.arange(10)), batch_size=3, shuffle=True, num_workers=2)
    assert [b[0].tolist() for b in dl] == REC["loaders"]["workers_global"]
    assert keyroute.rand(2).tolist() == REC["loaders"]["workers_after_global"]


class Shards(IterableDataset):
    def __iter__(self):
        info = get_worker_info()
        return iter(range(info.id, 9, info.num_workers))


def test_iterable_dataset_split_by_worker_info():
    dl = DataLoader(Shards(), batch_size=2, num_workers=3)
    got = sorted(x for b in dl for x in b.tolist())
    assert got == list(range(9))


class Boom(Dataset):
    def __len__(self):
        return 4

    def __getitem__(self, i):
        if i == 2:
            raise KeyError("missing sample 2")
        return i


def test_worker_exception_is_reraised_with_its_origin():
    dl = DataLoader(Boom(), batch_size=None, num_workers=2)
    with pytest.raises(KeyError, match="Caught KeyError in DataLoader worker process 0"):
        list(dl)


def _init(worker_id):
    os.environ["KR_WORKER_INIT"] = str(worker_id)


class ReadEnv(Dataset):
    def __len__(self):
        return 2

    def __getitem__(self, i):
        return os.environ.get("KR_WORKER_INIT", "unset")


def test_worker_init_fn_runs_in_each_worker():
    dl = DataLoader(ReadEnv(), batch_size=None, num_workers=2, worker_init_fn=_init)
    assert list(dl) == ["0", "1"]
    assert "KR_WORKER_INIT" not in os.environ


class Dies(Dataset):
    def __len__(self):
        return 2

    def __getitem__(self, i):
        os._exit(3)


def test_dead_worker_is_a_clear_error(monkeypatch):
    from keyroute.utils.data import dataloader

    monkeypatch.setattr(dataloader, "_POLL", 0.2)
    dl = DataLoader(Dies(), batch_size=None, num_workers=1)
    with pytest.raises(
        RuntimeError, match=r"DataLoader worker \(pid\(s\) \d+\) exited unexpectedly"
    ):
        list(dl)


class Slow(Dataset):
    def __len__(self):
        return 1

    def __getitem__(self, i):
        import time

        time.sleep(3)
        return i


def test_timeout_is_pytorchs_error():
    dl = DataLoader(Slow(), batch_size=None, num_workers=1, timeout=0.5)
    with pytest.raises(RuntimeError, match="DataLoader timed out after 0.5 seconds"):
        list(dl)


def test_multiprocessing_context_checks_and_spawn_free_fork():
    with pytest.raises(ValueError, match="can only be used with multi-process loading"):
        DataLoader(TensorDataset(keyroute.arange(2)), multiprocessing_context="fork")
    with pytest.raises(ValueError, match="should specify a valid start method"):
        DataLoader(TensorDataset(keyroute.arange(2)), num_workers=1, multiprocessing_context="x")
    dl = DataLoader(
        TensorDataset(keyroute.arange(4)),
        batch_size=2,
        num_workers=1,
        multiprocessing_context="fork",
    )
    assert [b[0].tolist() for b in dl] == [[0, 1], [2, 3]]


def test_out_of_order_delivery_returns_every_batch():
    dl = DataLoader(TensorDataset(keyroute.arange(8)), batch_size=2, num_workers=2, in_order=False)
    assert sorted(x for b in dl for x in b[0].tolist()) == list(range(8))
