"""keyroute.utils.data against PyTorch 2.13's recorded orders and collation
(tests/data/data_loading.json, recorded by tools/record_data_loading.py)."""

from __future__ import annotations

import collections
import json
import random
from pathlib import Path

import numpy as np
import pytest

import keyroute
from keyroute.utils.data import (
    BatchSampler,
    ChainDataset,
    ConcatDataset,
    DataLoader,
    Dataset,
    IterableDataset,
    RandomSampler,
    SequentialSampler,
    Subset,
    SubsetRandomSampler,
    TensorDataset,
    WeightedRandomSampler,
    default_collate,
    default_convert,
    get_worker_info,
    random_split,
)

REC = json.loads(
    (Path(__file__).resolve().parent.parent / "data" / "data_loading.json").read_text()
)
Point = collections.namedtuple("Point", "x y")


def gen(seed):
    return keyroute.Generator().manual_seed(seed)


def describe(obj):
    if isinstance(obj, keyroute.Tensor):
        return {
            "tensor": obj.dtype.name,
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


# -- samplers -----------------------------------------------------------------------------------
@pytest.mark.parametrize("key", sorted(k for k in REC["random_sampler"] if "global" not in k))
def test_random_sampler_order_is_pytorchs(key):
    kind, s, *rest = key.split("_")
    seed = int(s[1:])
    rest = rest[0] if rest else ""
    if kind == "perm":
        got = list(RandomSampler(range(int(rest[1:])), generator=gen(seed)))
    elif kind == "repl":
        got = list(RandomSampler(range(10), True, num_samples=int(rest[1:]), generator=gen(seed)))
    else:
        got = list(RandomSampler(range(5), num_samples=12, generator=gen(seed)))
    assert got == REC["random_sampler"][key]


def test_random_sampler_global_seed_over_epochs():
    keyroute.manual_seed(3)
    assert list(RandomSampler(range(8))) == REC["random_sampler"]["global_epoch0"]
    assert list(RandomSampler(range(8))) == REC["random_sampler"]["global_epoch1"]


def test_subset_random_sampler():
    assert list(SubsetRandomSampler([10, 20, 30, 40, 50], generator=gen(3))) == REC["subset_random"]


@pytest.mark.parametrize(
    "key, n, repl, seed", [("repl", 5, True, 0), ("norepl", 5, False, 0), ("repl20", 20, True, 1)]
)
def test_weighted_random_sampler(key, n, repl, seed):
    w = [0.1, 0.9, 0.4, 0.7, 3.0, 0.6]
    assert list(WeightedRandomSampler(w, n, repl, generator=gen(seed))) == REC["weighted"][key]


def test_batch_sampler():
    assert (
        list(BatchSampler(SequentialSampler(range(10)), 3, False)) == REC["batch_sampler"]["keep"]
    )
    assert list(BatchSampler(SequentialSampler(range(10)), 3, True)) == REC["batch_sampler"]["drop"]
    assert (
        len(BatchSampler(range(10), 3, False)) == 4 and len(BatchSampler(range(10), 3, True)) == 3
    )


# -- DataLoader orders --------------------------------------------------------------------------
def test_loader_shuffle_with_generator_over_epochs():
    ds = TensorDataset(keyroute.arange(10))
    dl = DataLoader(ds, batch_size=4, shuffle=True, generator=gen(7))
    got = [[b[0].tolist() for b in dl] for _ in range(2)]
    assert got == REC["loaders"]["gen_epochs"]


def test_loader_shuffle_with_global_seed_and_drop_last():
    ds = TensorDataset(keyroute.arange(10))
    keyroute.manual_seed(11)
    dl = DataLoader(ds, batch_size=4, shuffle=True, drop_last=True)
    got = [[b[0].tolist() for b in dl] for _ in range(2)]
    assert got == REC["loaders"]["global_drop_epochs"]
    # The loader moved the global generator exactly as PyTorch's (base seed + sampler seed).
    assert keyroute.rand(2).tolist() == REC["loaders"]["after_global"]


def test_random_split_lengths_fractions_and_remainder():
    rec = REC["random_split"]
    assert [s.indices for s in random_split(range(10), [3, 7], generator=gen(42))] == rec["lengths"]
    got = [s.indices for s in random_split(range(30), [0.3, 0.3, 0.4], generator=gen(42))]
    assert got == rec["fractions"]
    got = [s.indices for s in random_split(range(11), [0.5, 0.5], generator=gen(0))]
    assert got == rec["remainder"]
    keyroute.manual_seed(1)
    assert [s.indices for s in random_split(range(6), [2, 4])] == rec["default_generator"]


# -- collation ----------------------------------------------------------------------------------
def _cases():
    return {
        "tensors": [keyroute.tensor([1.0, 2.0]), keyroute.tensor([3.0, 4.0])],
        "ints": [1, 2, 3],
        "floats": [1.5, 2.5],
        "bools": [True, False],
        "strings": ["a", "b"],
        "bytes": [b"a", b"b"],
        "numpy_arrays": [np.array([1, 2], np.int32), np.array([3, 4], np.int32)],
        "numpy_f32_scalars": [np.float32(1.5), np.float32(2.5)],
        "numpy_i64_scalars": [np.int64(3), np.int64(4)],
        "numpy_bools": [np.bool_(True), np.bool_(False)],
        "dicts": [{"x": 1, "y": keyroute.ones(2)}, {"x": 2, "y": keyroute.zeros(2)}],
        "ordered": [collections.OrderedDict(b=1.0, a=2), collections.OrderedDict(b=3.0, a=4)],
        "namedtuples": [Point(1, 2.0), Point(3, 4.0)],
        "tuples": [(1, "a", keyroute.tensor(1.0)), (2, "b", keyroute.tensor(2.0))],
        "lists": [[1, 2], [3, 4]],
        "nested": [{"p": [Point(1, np.float64(0.5))]}, {"p": [Point(2, np.float64(1.5))]}],
    }


@pytest.mark.parametrize("key", sorted(REC["collate"]))
def test_default_collate_is_pytorchs(key):
    assert describe(default_collate(_cases()[key])) == REC["collate"][key]


def test_default_convert():
    out = default_convert({"a": np.array([1.0, 2.0]), "b": [np.int64(3)], "c": (np.float32(1),)})
    assert out["a"].dtype == keyroute.float64 and out["a"].tolist() == [1.0, 2.0]
    assert out["b"][0].dtype == keyroute.int64
    assert isinstance(out["c"], list) and out["c"][0].dtype == keyroute.float32
    assert default_convert("s") == "s"
    s = np.array(["x"])
    assert default_convert(s) is s
    pt = default_convert(Point(np.float64(1), 2))
    assert isinstance(pt, Point) and pt.x.dtype == keyroute.float64


def _err(fn):
    try:
        fn()
    except Exception as e:  # noqa: BLE001
        return f"{type(e).__name__}: {e}"
    return "no error"


def test_errors_are_pytorchs():
    ds = TensorDataset(keyroute.arange(10))
    cases = {
        "collate_object": lambda: default_collate([object(), object()]),
        "collate_uneven": lambda: default_collate([[1, 2], [3]]),
        "collate_str_array": lambda: default_collate([np.array(["a"]), np.array(["b"])]),
        "split_sum": lambda: random_split(range(10), [3, 3]),
        "split_frac": lambda: random_split(range(10), [1.5, -0.5]),
        "sampler_shuffle": lambda: DataLoader(ds, sampler=[0], shuffle=True),
        "batch_sampler_excl": lambda: DataLoader(ds, batch_sampler=[[0]], batch_size=2),
        "persistent_no_workers": lambda: DataLoader(ds, persistent_workers=True),
        "negative_workers": lambda: DataLoader(ds, num_workers=-1),
        "batch_size_zero": lambda: BatchSampler(range(3), 0, False),
        "num_samples_zero": lambda: RandomSampler(range(3), num_samples=0),
        "weights_2d": lambda: WeightedRandomSampler([[1.0]], 1),
        "tensor_dataset": lambda: TensorDataset(keyroute.ones(2), keyroute.ones(3)),
    }
    got = {k: _err(f) for k, f in cases.items()}
    assert got == REC["errors"]


# -- datasets and loader options ----------------------------------------------------------------
class Squares(Dataset):
    def __len__(self):
        return 5

    def __getitem__(self, i):
        return {"i": i, "sq": keyroute.tensor([float(i * i)])}


class Count(IterableDataset):
    def __init__(self, n):
        self.n = n

    def __iter__(self):
        info = get_worker_info()
        start, step = (0, 1) if info is None else (info.id, info.num_workers)
        return iter(range(start, self.n, step))

    def __len__(self):
        return self.n


def test_map_dataset_batches_and_collate_fn():
    dl = DataLoader(Squares(), batch_size=2)
    batches = list(dl)
    assert len(dl) == 3 and len(batches) == 3
    assert batches[0]["i"].tolist() == [0, 1] and batches[2]["sq"].shape == (1, 1)
    dl = DataLoader(Squares(), batch_size=2, collate_fn=lambda b: [x["i"] for x in b])
    assert list(dl) == [[0, 1], [2, 3], [4]]
    dl = DataLoader(Squares(), batch_size=None)
    assert [b["i"] for b in dl] == [0, 1, 2, 3, 4]


def test_sampler_and_batch_sampler_options():
    dl = DataLoader(Squares(), sampler=[4, 0, 2], batch_size=2)
    assert [b["i"].tolist() for b in dl] == [[4, 0], [2]]
    dl = DataLoader(Squares(), batch_sampler=[[3, 1], [0]])
    assert [b["i"].tolist() for b in dl] == [[3, 1], [0]]


def test_iterable_dataset_and_chain():
    dl = DataLoader(Count(7), batch_size=3)
    assert [b.tolist() for b in dl] == [[0, 1, 2], [3, 4, 5], [6]]
    dl = DataLoader(Count(7), batch_size=3, drop_last=True)
    assert [b.tolist() for b in dl] == [[0, 1, 2], [3, 4, 5]]
    assert list(ChainDataset([Count(2), Count(3)])) == [0, 1, 0, 1, 2]
    assert len(ChainDataset([Count(2), Count(3)])) == 5
    with pytest.raises(ValueError, match="expected unspecified shuffle option"):
        DataLoader(Count(3), shuffle=True)


def test_concat_subset_tensor_dataset():
    ds = ConcatDataset([range(3), range(10, 12)])
    assert len(ds) == 5 and [ds[i] for i in range(5)] == [0, 1, 2, 10, 11] and ds[-1] == 11
    with pytest.raises(ValueError, match="absolute value of index"):
        ds[-6]
    sub = Subset(range(10, 20), [3, 1])
    assert len(sub) == 2 and sub[0] == 13 and sub.__getitems__([0, 1]) == [13, 11]
    td = TensorDataset(keyroute.arange(3), keyroute.arange(3) * 2)
    assert [t.item() for t in td[2]] == [2, 4]
    assert isinstance(Squares() + Squares(), ConcatDataset)


def test_setting_loader_attributes_after_init_is_refused():
    dl = DataLoader(Squares())
    with pytest.raises(ValueError, match="batch_size attribute should not be set"):
        dl.batch_size = 3
    dl.num_workers = 0  # the others may change


def test_pin_memory_warns_without_accelerator():
    with pytest.warns(UserWarning, match="no accelerator is found"):
        list(DataLoader(Squares(), pin_memory=True))


def test_worker_info_is_none_in_the_main_process():
    assert get_worker_info() is None
    random.random()
