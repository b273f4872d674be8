"""Data loading as torch.utils.data: datasets, samplers, DataLoader, collation.

>>> import keyroute
>>> from keyroute.utils.data import DataLoader, TensorDataset
>>> g = keyroute.Generator().manual_seed(0)
>>> [b[0].tolist() for b in DataLoader(TensorDataset(keyroute.arange(6)), 3, True, generator=g)]
[[5, 1, 0], [3, 2, 4]]
"""

from ._utils.collate import default_collate, default_convert
from .dataloader import DataLoader, _InfiniteConstantSampler, get_worker_info
from .dataset import (
    ChainDataset,
    ConcatDataset,
    Dataset,
    IterableDataset,
    StackDataset,
    Subset,
    TensorDataset,
    random_split,
)
from .sampler import (
    BatchSampler,
    RandomSampler,
    Sampler,
    SequentialSampler,
    SubsetRandomSampler,
    WeightedRandomSampler,
)

__all__ = [
    "BatchSampler",
    "ChainDataset",
    "ConcatDataset",
    "DataLoader",
    "Dataset",
    "IterableDataset",
    "RandomSampler",
    "Sampler",
    "SequentialSampler",
    "StackDataset",
    "Subset",
    "SubsetRandomSampler",
    "TensorDataset",
    "WeightedRandomSampler",
    "_InfiniteConstantSampler",
    "default_collate",
    "default_convert",
    "get_worker_info",
    "random_split",
]
