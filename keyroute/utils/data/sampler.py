"""Samplers (torch.utils.data.sampler): the order in which a DataLoader visits indices.

Each random sampler calls the generator exactly as PyTorch's does (same calls, same sizes, same
order), so with keyroute's PyTorch-exact random streams a seeded shuffle visits the same
indices as PyTorch's. `RandomSampler` without a generator draws a seed from the default
generator (`empty((), dtype=int64).random_()`) and shuffles with a fresh Generator seeded by
it; with replacement it draws `randint` in chunks of 32.

>>> import keyroute
>>> list(BatchSampler(SequentialSampler(range(5)), batch_size=2, drop_last=False))
[[0, 1], [2, 3], [4]]
"""

from __future__ import annotations

import itertools
from collections.abc import Iterable, Iterator, Sequence, Sized
from typing import Any, Generic, TypeVar

__all__ = [
    "Sampler",
    "SequentialSampler",
    "RandomSampler",
    "SubsetRandomSampler",
    "WeightedRandomSampler",
    "BatchSampler",
]

T_co = TypeVar("T_co", covariant=True)


def _kr() -> Any:
    import keyroute

    return keyroute


class Sampler(Generic[T_co]):
    """Iterates over indices (or batches of indices) of a dataset."""

    def __init__(self, data_source: Sized | None = None) -> None:
        pass

    def __iter__(self) -> Iterator[T_co]:
        raise NotImplementedError


class SequentialSampler(Sampler[int]):
    """0, 1, ..., len(data_source) - 1."""

    def __init__(self, data_source: Sized) -> None:
        self.data_source = data_source

    def __iter__(self) -> Iterator[int]:
        return iter(range(len(self.data_source)))

    def __len__(self) -> int:
        return len(self.data_source)


class RandomSampler(Sampler[int]):
    """A random permutation (or, with replacement, `num_samples` random draws)."""

    def __init__(
        self,
        data_source: Sized,
        replacement: bool = False,
        num_samples: int | None = None,
        generator: Any = None,
    ) -> None:
        self.data_source = data_source
        self.replacement = replacement
        self._num_samples = num_samples
        self.generator = generator
        if not isinstance(self.replacement, bool):
            raise TypeError(
                f"replacement should be a boolean value, but got replacement={self.replacement}"
            )
        if not isinstance(self.num_samples, int) or self.num_samples <= 0:
            raise ValueError(
                "num_samples should be a positive integer value, but got "
                f"num_samples={self.num_samples}"
            )

    @property
    def num_samples(self) -> int:
        return len(self.data_source) if self._num_samples is None else self._num_samples

    def __iter__(self) -> Iterator[int]:
        kr = _kr()
        n = len(self.data_source)
        if self.generator is None:
            seed = int(kr.empty((), dtype=kr.int64).random_().item())
            generator = kr.Generator()
            generator.manual_seed(seed)
        else:
            generator = self.generator
        if self.replacement:
            for _ in range(self.num_samples // 32):
                yield from kr.randint(
                    high=n, size=(32,), dtype=kr.int64, generator=generator
                ).tolist()
            yield from kr.randint(
                high=n, size=(self.num_samples % 32,), dtype=kr.int64, generator=generator
            ).tolist()
        else:
            for _ in range(self.num_samples // n):
                yield from kr.randperm(n, generator=generator).tolist()
            yield from kr.randperm(n, generator=generator).tolist()[: self.num_samples % n]

    def __len__(self) -> int:
        return self.num_samples


class SubsetRandomSampler(Sampler[int]):
    """The given indices in a random order."""

    def __init__(self, indices: Sequence[int], generator: Any = None) -> None:
        self.indices = indices
        self.generator = generator

    def __iter__(self) -> Iterator[int]:
        for i in _kr().randperm(len(self.indices), generator=self.generator).tolist():
            yield self.indices[i]

    def __len__(self) -> int:
        return len(self.indices)


class WeightedRandomSampler(Sampler[int]):
    """`num_samples` indices drawn with probabilities proportional to `weights`."""

    def __init__(
        self,
        weights: Sequence[float],
        num_samples: int,
        replacement: bool = True,
        generator: Any = None,
    ) -> None:
        if not isinstance(num_samples, int) or isinstance(num_samples, bool) or num_samples <= 0:
            raise ValueError(
                f"num_samples should be a positive integer value, but got num_samples={num_samples}"
            )
        if not isinstance(replacement, bool):
            raise ValueError(
                f"replacement should be a boolean value, but got replacement={replacement}"
            )
        kr = _kr()
        w = kr.as_tensor(weights, dtype=kr.float64)
        if len(w.shape) != 1:
            raise ValueError(
                f"weights should be a 1d sequence but given weights have shape {tuple(w.shape)}"
            )
        self.weights = w
        self.num_samples = num_samples
        self.replacement = replacement
        self.generator = generator

    def __iter__(self) -> Iterator[int]:
        kr = _kr()
        multinomial = getattr(kr, "multinomial", None)
        if multinomial is None:
            raise NotImplementedError(
                "WeightedRandomSampler needs keyroute.multinomial, which this build lacks"
            )
        drawn = multinomial(
            self.weights, self.num_samples, self.replacement, generator=self.generator
        )
        yield from iter(drawn.tolist())

    def __len__(self) -> int:
        return self.num_samples


class BatchSampler(Sampler[list[int]]):
    """Groups another sampler's indices into lists of `batch_size`."""

    def __init__(
        self, sampler: Sampler[int] | Iterable[int], batch_size: int, drop_last: bool
    ) -> None:
        if not isinstance(batch_size, int) or isinstance(batch_size, bool) or batch_size <= 0:
            raise ValueError(
                f"batch_size should be a positive integer value, but got batch_size={batch_size}"
            )
        if not isinstance(drop_last, bool):
            raise ValueError(f"drop_last should be a boolean value, but got drop_last={drop_last}")
        self.sampler = sampler
        self.batch_size = batch_size
        self.drop_last = drop_last

    def __iter__(self) -> Iterator[list[int]]:
        it = iter(self.sampler)
        if self.drop_last:
            yield from (list(b) for b in zip(*([it] * self.batch_size)))
            return
        batch = list(itertools.islice(it, self.batch_size))
        while batch:
            yield batch
            batch = list(itertools.islice(it, self.batch_size))

    def __len__(self) -> int:
        n = len(self.sampler)  # type: ignore[arg-type]
        if self.drop_last:
            return n // self.batch_size
        return (n + self.batch_size - 1) // self.batch_size
