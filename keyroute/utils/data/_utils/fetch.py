"""Fetchers: turn the sampler's index (or batch of indices) into collated data."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any


class _MapDatasetFetcher:
    def __init__(
        self, dataset: Any, auto_collation: bool, collate_fn: Callable[..., Any], drop_last: bool
    ) -> None:
        self.dataset = dataset
        self.auto_collation = auto_collation
        self.collate_fn = collate_fn
        self.drop_last = drop_last

    def fetch(self, index: Any) -> Any:
        if self.auto_collation:
            many = getattr(self.dataset, "__getitems__", None)
            data = many(index) if many else [self.dataset[i] for i in index]
        else:
            data = self.dataset[index]
        return self.collate_fn(data)


class _IterableDatasetFetcher:
    def __init__(
        self, dataset: Any, auto_collation: bool, collate_fn: Callable[..., Any], drop_last: bool
    ) -> None:
        self.dataset_iter = iter(dataset)
        self.auto_collation = auto_collation
        self.collate_fn = collate_fn
        self.drop_last = drop_last
        self.ended = False

    def fetch(self, index: Any) -> Any:
        if self.ended:
            raise StopIteration
        if self.auto_collation:
            data = []
            for _ in index:
                try:
                    data.append(next(self.dataset_iter))
                except StopIteration:
                    self.ended = True
                    break
            if not data or (self.drop_last and len(data) < len(index)):
                raise StopIteration
        else:
            data = next(self.dataset_iter)
        return self.collate_fn(data)


def create_fetcher(
    iterable: bool, dataset: Any, auto_collation: bool, collate_fn: Any, drop_last: bool
) -> Any:
    cls = _IterableDatasetFetcher if iterable else _MapDatasetFetcher
    return cls(dataset, auto_collation, collate_fn, drop_last)
