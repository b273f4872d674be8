"""Random number generators: `Generator`, `manual_seed`, the default generator.

keyroute draws from NumPy's PCG64, so the same seed gives the same numbers on every run, but
not the same numbers as PyTorch (whose CPU generator is an mt19937 with its own transforms).

>>> g = Generator().manual_seed(0)
>>> a = g.numpy_generator.random(2)
>>> b = Generator().manual_seed(0).numpy_generator.random(2)
>>> bool((a == b).all())
True
"""

from __future__ import annotations

import json
from typing import Any

import numpy as np

__all__ = [
    "Generator",
    "default_generator",
    "manual_seed",
    "seed",
    "initial_seed",
    "get_rng_state",
    "set_rng_state",
    "numpy_generator",
]

_DEFAULT_SEED = 67280421310721  # PyTorch's default CPU seed


class Generator:
    """A random number generator (torch.Generator) over NumPy's PCG64."""

    def __init__(self, device: Any = "cpu") -> None:
        from .tensor.device import Device

        self.device = Device(device)
        self._seed = _DEFAULT_SEED
        self.numpy_generator = np.random.Generator(np.random.PCG64(self._seed))

    def manual_seed(self, seed: int) -> Generator:
        seed = int(seed)
        if seed < 0:
            seed += 1 << 64
        self._seed = seed
        self.numpy_generator = np.random.Generator(np.random.PCG64(seed))
        return self

    def seed(self) -> int:
        s = int(np.random.SeedSequence().entropy) % (1 << 63)
        self.manual_seed(s)
        return s

    def initial_seed(self) -> int:
        return self._seed

    def get_state(self) -> Any:
        from .tensor._tensor import wrap_cpu

        state = json.dumps(self.numpy_generator.bit_generator.state)
        return wrap_cpu(np.frombuffer(state.encode(), dtype=np.uint8).copy())

    def set_state(self, new_state: Any) -> Generator:
        text = bytes(np.asarray(new_state.numpy(), dtype=np.uint8)).decode()
        self.numpy_generator.bit_generator.state = json.loads(text)
        return self


default_generator = Generator()


def numpy_generator(generator: Generator | None) -> np.random.Generator:
    """The NumPy generator to draw from: the given one's, else the default generator's."""
    return (generator if generator is not None else default_generator).numpy_generator


def manual_seed(seed: int) -> Generator:
    """Seed the default generator (torch.manual_seed)."""
    return default_generator.manual_seed(seed)


def seed() -> int:
    return default_generator.seed()


def initial_seed() -> int:
    return default_generator.initial_seed()


def get_rng_state() -> Any:
    return default_generator.get_state()


def set_rng_state(new_state: Any) -> None:
    default_generator.set_state(new_state)
