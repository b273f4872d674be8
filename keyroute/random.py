"""Random number generators: `Generator`, `manual_seed`, `fork_rng`, the default generator.

A CPU `Generator` is PyTorch's CPUGeneratorImpl: an mt19937 engine (seeded with the low 32 bits
of the seed, as PyTorch's `mt19937(seed)`), 64-bit draws made of two 32-bit draws (the first is
the high word), and two cached normal samples (the second value of the last Box-Muller pair, one
for `double` and one for `float`). `get_state()` is PyTorch's 5056-byte CPUGeneratorImplState,
byte for byte, so a state moves between PyTorch and keyroute. The per-distribution transforms
live in `keyroute/kernels/cpu/random.py`.

The engine's output comes from NumPy's MT19937 bit generator (the same tempered mt19937 words,
made in C), whose state is PyTorch's `state_` array and whose `pos` is PyTorch's `next_`.

>>> g = Generator().manual_seed(5)  # std::mt19937(5)'s first word, as PyTorch's int32 random_()
>>> int(g.random_u32(1)[0])
953453411
>>> Generator().manual_seed(5).get_state().shape
keyroute.Size([5056])
"""

from __future__ import annotations

import contextlib
import secrets
from collections.abc import Generator as _PyGenerator
from collections.abc import Iterable
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
    "fork_rng",
]

_DEFAULT_SEED = 67280421310721  # PyTorch's default_rng_seed_val: a new Generator's seed
_N = 624  # mt19937's state words
_STATE_SIZE = 5056  # sizeof(CPUGeneratorImplState)

# CPUGeneratorImplState, as PyTorch lays it out (x86-64): the legacy POD (initial seed, left,
# seeded, next, the 624 state words widened to uint64, the unused normal_x/normal_rho, the
# cached double normal sample normal_y and its flag), then the cached float sample and its
# flag; the padding bytes are zero.
_STATE_DTYPE = np.dtype(
    {
        "names": [
            "seed",
            "left",
            "seeded",
            "next",
            "state",
            "normal_x",
            "normal_y",
            "normal_rho",
            "normal_is_valid",
            "next_float",
            "next_float_valid",
        ],
        "formats": [
            "<u8",
            "<i4",
            "<i4",
            "<u8",
            ("<u8", _N),
            "<f8",
            "<f8",
            "<f8",
            "<i4",
            "<f4",
            "u1",
        ],
        "offsets": [0, 8, 12, 16, 24, 5016, 5024, 5032, 5040, 5048, 5052],
        "itemsize": _STATE_SIZE,
    }
)


def _unpack_seed(seed: Any) -> int:
    """A seed as PyTorch's unpack_uint64: an unsigned 64-bit value, or a negative int64 taken
    as its two's complement."""
    value = int(seed)
    if -(1 << 63) <= value < 0:
        return value + (1 << 64)
    if not 0 <= value < (1 << 64):
        raise ValueError("Overflow when unpacking long long")
    return value


def _init_genrand(seed32: int) -> np.ndarray:
    """mt19937's seeding recurrence (init_genrand), for NumPy builds without _legacy_seeding."""
    key = np.empty(_N, np.uint32)
    x = seed32
    key[0] = x
    for j in range(1, _N):
        x = (1812433253 * (x ^ (x >> 30)) + j) & 0xFFFFFFFF
        key[j] = x
    return key


class Generator:
    """torch.Generator for the CPU: PyTorch's mt19937 generator, with its seeding and state."""

    __slots__ = ("device", "_bg", "_seed", "_fresh_next", "_next_double", "_next_float")

    def __init__(self, device: Any = "cpu") -> None:
        from .tensor.device import Device

        dev = Device(device)
        if dev.type != "cpu":
            raise RuntimeError(
                f"Device type {dev.type.upper()} is not supported for torch.Generator() api."
            )
        self.device = dev
        self._bg = np.random.MT19937(0)
        self._next_double: float | None = None
        self._next_float: float | None = None
        self._set_seed(_DEFAULT_SEED)

    def __repr__(self) -> str:
        return f"<keyroute._C.Generator object at {id(self):#x}>"

    # -- seeding

    def _set_seed(self, seed: int) -> None:
        # CPUGeneratorImpl::set_current_seed: a fresh mt19937(seed), both normal caches cleared.
        self._seed = seed
        seed32 = seed & 0xFFFFFFFF
        legacy = getattr(self._bg, "_legacy_seeding", None)
        if legacy is not None:
            legacy(seed32)
        else:
            self._bg.state = {
                "bit_generator": "MT19937",
                "state": {"key": _init_genrand(seed32), "pos": _N},
            }
        # A freshly seeded mt19937 reports next_ = 0 (and left_ = 1) until its first draw.
        self._fresh_next: int | None = 0
        self._next_double = None
        self._next_float = None

    def manual_seed(self, seed: Any) -> Generator:
        """Seed this generator; returns it."""
        self._set_seed(_unpack_seed(seed))
        return self

    def seed(self) -> int:
        """Seed from a non-deterministic source (53 bits, as c10's getNonDeterministicRandom)."""
        s = secrets.randbits(64) & 0x1FFFFFFFFFFFFF
        self._set_seed(s)
        return s

    def initial_seed(self) -> int:
        return self._seed

    # -- draws

    def random_u32(self, n: int) -> np.ndarray:
        """The next n 32-bit engine outputs (CPUGeneratorImpl::random), as uint64."""
        self._fresh_next = None
        return self._bg.random_raw(n)

    def random_u64(self, n: int) -> np.ndarray:
        """The next n 64-bit draws (CPUGeneratorImpl::random64: two words, the first high)."""
        self._fresh_next = None
        raw = self._bg.random_raw(2 * n)
        return (raw[0::2] << np.uint64(32)) | raw[1::2]

    # -- state

    def get_state(self) -> Any:
        """PyTorch's CPUGeneratorImplState bytes, as a uint8 tensor of 5056 elements."""
        from .tensor._tensor import wrap_cpu

        st = self._bg.state["state"]
        pos = int(st["pos"])
        rec = np.zeros((), _STATE_DTYPE)
        rec["seed"] = self._seed
        rec["seeded"] = 1
        rec["state"] = np.asarray(st["key"], dtype=np.uint32)
        if self._fresh_next is not None:
            rec["left"], rec["next"] = 1, self._fresh_next
        elif pos >= _N:
            rec["left"], rec["next"] = 1, _N
        else:
            rec["left"], rec["next"] = _N + 1 - pos, pos
        if self._next_double is not None:
            rec["normal_is_valid"], rec["normal_y"] = 1, self._next_double
        if self._next_float is not None:
            rec["next_float_valid"], rec["next_float"] = 1, self._next_float
        return wrap_cpu(np.frombuffer(rec.tobytes(), dtype=np.uint8).copy())

    def set_state(self, new_state: Any) -> Generator:
        """Restore a state from get_state() (keyroute's or PyTorch's bytes); returns self."""
        from .tensor._tensor import Tensor

        if not isinstance(new_state, Tensor) or new_state.dtype.name != "uint8":
            raise TypeError("RNG state must be a torch.ByteTensor")
        if new_state.device.type != "cpu":
            raise RuntimeError("RNG state must be a CPU tensor")  # pragma: no cover
        data = np.ascontiguousarray(new_state.numpy()).reshape(-1)
        if data.size != _STATE_SIZE:
            raise RuntimeError(
                f"Expected a CPUGeneratorImplState of size {_STATE_SIZE} but found the input RNG "
                f"state size to be {data.size}"
            )
        rec = np.frombuffer(data.tobytes(), dtype=_STATE_DTYPE)[0]
        left, nxt, seeded = int(rec["left"]), int(rec["next"]) & 0xFFFFFFFF, int(rec["seeded"])
        if not (seeded and 0 < left <= _N and nxt <= _N):
            raise RuntimeError("Invalid mt19937 state")
        key = (rec["state"] & np.uint64(0xFFFFFFFF)).astype(np.uint32)
        # left_ == 1: the next draw twists the block first (NumPy's pos 624); otherwise the
        # next word is state_[next_].
        pos = _N if left == 1 else nxt
        self._bg.state = {"bit_generator": "MT19937", "state": {"key": key, "pos": pos}}
        self._seed = int(rec["seed"])
        self._fresh_next = nxt if left == 1 else None
        self._next_double = float(rec["normal_y"]) if int(rec["normal_is_valid"]) else None
        self._next_float = float(rec["next_float"]) if int(rec["next_float_valid"]) else None
        return self

    def __reduce__(self) -> Any:
        return (_rebuild_generator, (str(self.device), bytes(self.get_state().numpy())))

    def __deepcopy__(self, memo: dict) -> Generator:
        g = Generator(self.device)
        return g.set_state(self.get_state())


def _rebuild_generator(device: str, state: bytes) -> Generator:
    from .tensor._tensor import wrap_cpu

    g = Generator(device)
    return g.set_state(wrap_cpu(np.frombuffer(state, dtype=np.uint8).copy()))


# PyTorch seeds its default CPU generator non-deterministically at startup.
default_generator = Generator()
default_generator.seed()


def get_generator(generator: Generator | None) -> Generator:
    """The generator a random kernel draws from: the given one, else the default generator."""
    if generator is None:
        return default_generator
    if not isinstance(generator, Generator):
        raise TypeError(f"expected a torch.Generator, got {type(generator).__name__}")
    return generator


def numpy_generator(generator: Generator | None) -> np.random.Generator:
    """A NumPy generator seeded from the given (or default) generator's next 64-bit draw.

    For code that needs NumPy's samplers (its numbers are not PyTorch's); keyroute's own random
    operators draw from the mt19937 stream directly.
    """
    return np.random.Generator(np.random.PCG64(int(get_generator(generator).random_u64(1)[0])))


def manual_seed(seed: Any) -> Generator:
    """Seed the default generator (torch.manual_seed); returns it."""
    seed = int(seed)
    return default_generator.manual_seed(seed)


def seed() -> int:
    """Seed the default generator non-deterministically; returns the seed."""
    return default_generator.seed()


def initial_seed() -> int:
    """The default generator's initial seed."""
    return default_generator.initial_seed()


def get_rng_state() -> Any:
    """The default generator's state, a uint8 tensor (PyTorch's byte layout)."""
    return default_generator.get_state()


def set_rng_state(new_state: Any) -> None:
    """Restore the default generator's state from get_rng_state()."""
    default_generator.set_state(new_state)


@contextlib.contextmanager
def fork_rng(
    devices: Iterable[Any] | None = None,
    enabled: bool = True,
    _caller: str = "fork_rng",
    _devices_kw: str = "devices",
    device_type: str = "cuda",
) -> _PyGenerator[None, None, None]:
    """Fork the RNG: on exit the CPU generator (and the devices') state is what it was on entry.

    keyroute has no accelerator generators, so only the CPU state is saved and restored; asking
    for a device type keyroute has no generator for is accepted as PyTorch accepts a missing
    CUDA.
    """
    if device_type == "meta":
        yield
        return
    if not enabled:
        yield
        return
    del devices, _caller, _devices_kw  # no device generators to fork
    cpu_state = get_rng_state()
    try:
        yield
    finally:
        set_rng_state(cpu_state)
