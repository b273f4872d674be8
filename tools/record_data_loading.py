"""Record PyTorch 2.13's data-loading orders and collation for tests/utils/data.

Samplers, DataLoader shuffles (with a generator and with the global seed, over epochs),
random_split, worker seeding (ids, seeds, the NumPy / random / torch draws inside workers)
and default_collate's outputs, into tests/data/data_loading.json.

    python tools/record_data_loading.py
"""

from __future__ import annotations

import collections
import json
import random
from pathlib import Path

import numpy as np
import torch
from torch.utils.data import (
    BatchSampler,
    DataLoader,
    Dataset,
    RandomSampler,
    SequentialSampler,
    SubsetRandomSampler,
    TensorDataset,
    WeightedRandomSampler,
    default_collate,
    get_worker_info,
    random_split,
)

OUT = Path(__file__).resolve().parent.parent / "tests" / "data" / "data_loading.json"
Point = collections.namedtuple("Point", "x y")


def gen(seed: int) -> torch.Generator:
    return torch.Generator().manual_seed(seed)


class WorkerProbe(Dataset):
    def __len__(self) -> int:
        return 6

    def __getitem__(self, i: int):
        info = get_worker_info()
        return [
            i,
            info.id if info else -1,
            info.seed if info else -1,
            int(np.random.randint(1 << 30)),
            random.random(),
            torch.rand(1).item(),
        ]


def describe(obj):
    if isinstance(obj, torch.Tensor):
        return {
            "tensor": str(obj.dtype).removeprefix("torch."),
            "shape": list(obj.shape),
            "values": obj.reshape(-1).tolist(),
        }
    if isinstance(obj, tuple) and hasattr(obj, "_fields"):
        return {"namedtuple": type(obj).__name__, "fields": [describe(v) for v in obj]}
    if isinstance(obj, dict):
        return {"dict": type(obj).__name__, "items": {k: describe(v) for k, v in obj.items()}}
    if isinstance(obj, (list, tuple)):
        return {type(obj).__name__: [describe(v) for v in obj]}
    if isinstance(obj, bytes):
        return {"value": obj.decode(), "type": "bytes"}
    return {"value": obj, "type": type(obj).__name__}


def collate_cases():
    return {
        "tensors": [torch.tensor([1.0, 2.0]), torch.tensor([3.0, 4.0])],
        "ints": [1, 2, 3],
        "floats": [1.5, 2.5],
        "bools": [True, False],
        "strings": ["a", "b"],
        "bytes": [b"a", b"b"],
        "numpy_arrays": [np.array([1, 2], np.int32), np.array([3, 4], np.int32)],
        "numpy_f32_scalars": [np.float32(1.5), np.float32(2.5)],
        "numpy_i64_scalars": [np.int64(3), np.int64(4)],
        "numpy_bools": [np.bool_(True), np.bool_(False)],
        "dicts": [{"x": 1, "y": torch.ones(2)}, {"x": 2, "y": torch.zeros(2)}],
        "ordered": [collections.OrderedDict(b=1.0, a=2), collections.OrderedDict(b=3.0, a=4)],
        "namedtuples": [Point(1, 2.0), Point(3, 4.0)],
        "tuples": [(1, "a", torch.tensor(1.0)), (2, "b", torch.tensor(2.0))],
        "lists": [[1, 2], [3, 4]],
        "nested": [{"p": [Point(1, np.float64(0.5))]}, {"p": [Point(2, np.float64(1.5))]}],
    }


def error(fn) -> str:
    try:
        fn()
    except Exception as e:  # noqa: BLE001 - recording the message
        return f"{type(e).__name__}: {e}"
    return "no error"


def main() -> None:
    rec: dict = {"torch_version": torch.__version__}
    rs = {}
    for seed in (0, 1, 42):
        for n in (1, 5, 10, 33):
            rs[f"perm_s{seed}_n{n}"] = list(RandomSampler(range(n), generator=gen(seed)))
        for k in (5, 40, 70):
            rs[f"repl_s{seed}_k{k}"] = list(
                RandomSampler(range(10), True, num_samples=k, generator=gen(seed))
            )
        rs[f"more_s{seed}"] = list(RandomSampler(range(5), num_samples=12, generator=gen(seed)))
    torch.manual_seed(3)
    rs["global_epoch0"] = list(RandomSampler(range(8)))
    rs["global_epoch1"] = list(RandomSampler(range(8)))
    rec["random_sampler"] = rs
    rec["subset_random"] = list(SubsetRandomSampler([10, 20, 30, 40, 50], generator=gen(3)))
    w = [0.1, 0.9, 0.4, 0.7, 3.0, 0.6]
    rec["weighted"] = {
        "repl": list(WeightedRandomSampler(w, 5, True, generator=gen(0))),
        "norepl": list(WeightedRandomSampler(w, 5, False, generator=gen(0))),
        "repl20": list(WeightedRandomSampler(w, 20, generator=gen(1))),
    }
    rec["batch_sampler"] = {
        "keep": list(BatchSampler(SequentialSampler(range(10)), 3, False)),
        "drop": list(BatchSampler(SequentialSampler(range(10)), 3, True)),
    }
    ds = TensorDataset(torch.arange(10))
    loaders = {}
    dl = DataLoader(ds, batch_size=4, shuffle=True, generator=gen(7))
    loaders["gen_epochs"] = [[b[0].tolist() for b in dl] for _ in range(2)]
    torch.manual_seed(11)
    dl = DataLoader(ds, batch_size=4, shuffle=True, drop_last=True)
    loaders["global_drop_epochs"] = [[b[0].tolist() for b in dl] for _ in range(2)]
    loaders["after_global"] = torch.rand(2).tolist()
    torch.manual_seed(11)
    dl = DataLoader(ds, batch_size=3, shuffle=True, num_workers=2)
    loaders["workers_global"] = [b[0].tolist() for b in dl]
    loaders["workers_after_global"] = torch.rand(2).tolist()
    rec["loaders"] = loaders
    probe = DataLoader(WorkerProbe(), batch_size=None, num_workers=2, generator=gen(5))
    rec["worker_probe"] = [list(x) for x in probe]
    persistent = DataLoader(
        WorkerProbe(), batch_size=None, num_workers=2, generator=gen(5), persistent_workers=True
    )
    rec["worker_probe_persistent"] = [[list(x) for x in persistent] for _ in range(2)]
    split = {
        "lengths": [s.indices for s in random_split(range(10), [3, 7], generator=gen(42))],
        "fractions": [
            s.indices for s in random_split(range(30), [0.3, 0.3, 0.4], generator=gen(42))
        ],
        "remainder": [s.indices for s in random_split(range(11), [0.5, 0.5], generator=gen(0))],
    }
    torch.manual_seed(1)
    split["default_generator"] = [s.indices for s in random_split(range(6), [2, 4])]
    rec["random_split"] = split
    rec["collate"] = {k: describe(default_collate(v)) for k, v in collate_cases().items()}
    rec["errors"] = {
        "collate_object": error(lambda: default_collate([object(), object()])),
        "collate_uneven": error(lambda: default_collate([[1, 2], [3]])),
        "collate_str_array": error(lambda: default_collate([np.array(["a"]), np.array(["b"])])),
        "split_sum": error(lambda: random_split(range(10), [3, 3])),
        "split_frac": error(lambda: random_split(range(10), [1.5, -0.5])),
        "sampler_shuffle": error(lambda: DataLoader(ds, sampler=[0], shuffle=True)),
        "batch_sampler_excl": error(lambda: DataLoader(ds, batch_sampler=[[0]], batch_size=2)),
        "persistent_no_workers": error(lambda: DataLoader(ds, persistent_workers=True)),
        "negative_workers": error(lambda: DataLoader(ds, num_workers=-1)),
        "batch_size_zero": error(lambda: BatchSampler(range(3), 0, False)),
        "num_samples_zero": error(lambda: RandomSampler(range(3), num_samples=0)),
        "weights_2d": error(lambda: WeightedRandomSampler([[1.0]], 1)),
        "tensor_dataset": error(lambda: TensorDataset(torch.ones(2), torch.ones(3))),
    }
    OUT.write_text(json.dumps(rec, indent=1, sort_keys=True) + "\n")
    print("wrote", OUT)


if __name__ == "__main__":
    main()
