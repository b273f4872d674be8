"""CPU kernels of the random operators: PyTorch's CPU distributions, bit for bit.

Every kernel draws from a `keyroute.random.Generator` (PyTorch's mt19937) exactly the words
PyTorch's kernel draws, in the same order, and transforms them with the same floating-point
steps (ATen's TransformationHelper.h, DistributionsHelper.h and cpu/DistributionTemplates.h):

- uniform: float32/half/bfloat16 from one 32-bit word (24 bits times 2**-24, in float), double
  from one 64-bit draw (53 bits times 2**-53); `x * (to - from) + from` as one FMA (GCC
  contracts it: the kernels are built with -mfma), a value that rounds up to `to` becomes
  `from`.
- normal: a contiguous tensor of 16 or more elements takes `normal_fill`: uniforms into the
  buffer, Box-Muller on each block of 16 (u1 = the first 8, u2 = the next 8; the AVX2 version
  with avx_mathfun's log/sincos for float), the last 16 values redrawn when 16 does not divide
  the size. Otherwise each element comes from `normal_distribution<double>`, which makes a
  pair per two 64-bit draws and caches the second value in the generator.
- random_/randint: `word % range + from`, with a 64-bit draw when the range is 2**28 or more.
- bernoulli (scalar p), exponential, cauchy, log_normal, geometric: the double distributions.

The kernels are the ones PyTorch's x86 builds run with AVX2 (also chosen on AVX-512 machines for
normal_), on AMD and Intel CPUs alike: PyTorch 2.13 takes no vendor-specific path here (older
releases drew bernoulli_(float p) from MKL's MCG31 stream on Intel CPUs; 2.13 run under an
Intel CPUID gives the portable kernel's values, tools/record_random_intel_cpuid.py).

Elements are visited in TensorIterator's order: memory order (dimensions by decreasing
stride), which is the row-major order of a contiguous tensor.
"""

from __future__ import annotations

import math
from typing import Any

import numpy as np

from ...random import Generator, get_generator
from ...tensor._tensor import Tensor
from ._kernel import check_no_internal_overlap
from ._random_jit import jit_kernels
from ._random_math import fill16_double as _fill16_double
from ._random_math import fill16_float as _fill16_float
from ._random_math import fma32, fma64, libm

__all__ = [
    "fill",
    "uniform_values",
    "uniform_double",
    "uniform_float",
    "normal_values",
    "exponential_values",
]

_f32 = np.float32
_f64 = np.float64
_M53 = np.uint64((1 << 53) - 1)
_M24 = np.uint64((1 << 24) - 1)
_2_53 = _f64(1.0 / (1 << 53))
_2_24 = _f32(1.0 / (1 << 24))
_TWO_PI = 2.0 * math.pi
_SMALL = 64  # below this many values, libm through Python's math is cheaper than NumPy


# ----------------------------------------------------------------------------- layout


def iteration_order(a: np.ndarray) -> tuple[int, ...] | None:
    """The dimension order TensorIterator visits a written tensor in (None: row-major)."""
    if a.ndim < 2 or a.flags.c_contiguous:
        return None
    dims = [d for d in range(a.ndim)]
    # Outermost first: larger strides first; size-1 dimensions do not matter.
    dims.sort(key=lambda d: -abs(a.strides[d]) if a.shape[d] > 1 else 0)
    return tuple(dims)


def fill(a: np.ndarray, values: np.ndarray) -> None:
    """Write `values` (one per element, in TensorIterator's order) into `a`."""
    if a.size == 0:
        return
    order = iteration_order(a)
    if order is None:
        if a.flags.c_contiguous:
            a.reshape(-1)[...] = values
        else:
            a[...] = values.reshape(a.shape)
        return
    view = a.transpose(order)
    view[...] = values.reshape(view.shape)


def cast_double(values: np.ndarray, np_dtype: Any) -> np.ndarray:
    """static_cast<scalar_t>(double): half types round through float first (c10::Half and
    BFloat16 are built from a float); integers truncate."""
    if np_dtype == _f64:
        return values
    if np_dtype.kind == "f" and np_dtype.itemsize == 2 or np_dtype.name == "bfloat16":
        return values.astype(_f32).astype(np_dtype)
    if np_dtype.kind in "iub":
        with np.errstate(invalid="ignore"):
            return values.astype(np_dtype)
    return values.astype(np_dtype)


# ----------------------------------------------------------------------------- uniforms


def uniform_double(g: Generator, n: int) -> np.ndarray:
    """n draws of uniform_real_distribution<double>(0, 1): 53 bits of a 64-bit draw."""
    return (g.random_u64(n) & _M53).astype(_f64) * _2_53


def uniform_float(g: Generator, n: int) -> np.ndarray:
    """n draws of uniform_real_distribution<float>(0, 1): 24 bits of a 32-bit draw."""
    return (g.random_u32(n) & _M24).astype(_f32) * _2_24


def uniform_values(g: Generator, n: int, from_: float, to: float, np_dtype: Any) -> np.ndarray:
    """uniform_kernel's n values of dtype np_dtype (opmath: double for double, else float)."""
    if np_dtype == _f64:
        x = uniform_double(g, n)
        lo, hi = _f64(from_), _f64(to)
        v = x if (lo == 0.0 and hi == 1.0) else fma64(x, hi - lo, lo)
    else:
        x = uniform_float(g, n)
        lo, hi = _f32(from_), _f32(to)
        v = x if (lo == 0.0 and hi == 1.0) else fma32(x, hi - lo, lo)
    if v.dtype != np_dtype:
        v = v.astype(np_dtype)
    # A value that rounds up to `to` in scalar_t is clamped to `from`.
    to_s = np.asarray(to).astype(np_dtype) if np_dtype != v.dtype else np_dtype.type(to)
    hit = v == to_s
    if hit.any():
        v[hit] = np.asarray(from_).astype(np_dtype)
    return v


# ----------------------------------------------------------------------------- normal


def _box_muller_pairs(g: Generator, k: int) -> tuple[np.ndarray, np.ndarray]:
    """k pairs of normal_distribution<double>: (r cos theta, r sin theta), two draws each."""
    u = uniform_double(g, 2 * k)
    jit = jit_kernels(2 * k)
    if jit is not None:
        c, s = np.empty(k), np.empty(k)
        jit["box_muller"](u, c, s)
        return c, s
    u1, u2 = u[0::2], u[1::2]
    if k <= _SMALL // 2:
        r = np.array([math.sqrt(-2.0 * math.log1p(-v)) for v in u2.tolist()])
        theta = _TWO_PI * u1
        c = np.array([math.cos(t) for t in theta.tolist()])
        s = np.array([math.sin(t) for t in theta.tolist()])
        return r * c, r * s
    r = np.sqrt(-2.0 * libm("log1p")(-u2))
    theta = _TWO_PI * u1
    return r * libm("cos")(theta), r * libm("sin")(theta)


def normal_double(g: Generator, n: int) -> np.ndarray:
    """n successive normal_distribution<double>(0, 1) samples, using and refilling the
    generator's cached double sample."""
    out = np.empty(n, _f64)
    start = 0
    if n and g._next_double is not None:
        out[0] = g._next_double
        g._next_double = None
        start = 1
    m = n - start
    if m > 0:
        k = (m + 1) // 2
        c, s = _box_muller_pairs(g, k)
        both = np.empty(2 * k, _f64)
        both[0::2] = c
        both[1::2] = s
        out[start:] = both[:m]
        if m % 2:
            g._next_double = float(s[-1])
    return out


def _jit_fill16(jit: dict[str, Any], double: bool) -> Any:
    """The compiled NormalFill16 with _fill16_float / _fill16_double's signature."""
    if double:

        def fill16(d: np.ndarray, mean: float, std: float) -> np.ndarray:
            out = np.empty_like(d)
            jit["fill16_double"](d, out, float(mean), float(std), mean == 0.0 and std == 1.0)
            return out

    else:

        def fill16(d: np.ndarray, mean: float, std: float) -> np.ndarray:
            out = np.empty_like(d)
            jit["fill16_float"](d, out, _f32(mean), _f32(std))
            return out

    return fill16


def _normal_fill(g: Generator, n: int, mean: float, std: float, np_dtype: Any) -> np.ndarray:
    """normal_fill's n values (n >= 16, a contiguous tensor)."""
    double = np_dtype == _f64
    fill16 = _fill16_double if double else _fill16_float
    jit = jit_kernels(n)
    if jit is not None:
        fill16 = _jit_fill16(jit, double)
    draw = uniform_double if double else uniform_float
    blocks = n // 16
    tail = n % 16
    if double or np_dtype == _f32:
        # float/double: all n uniforms into the buffer, then each full block transformed.
        data = draw(g, n)
        out = data.copy()
        out[: blocks * 16] = fill16(data[: blocks * 16].reshape(blocks, 16), mean, std).reshape(-1)
    else:
        # half types: 16 uniforms per block in a float buffer.
        out = np.empty(n, _f32)
        data = draw(g, blocks * 16)
        out[: blocks * 16] = fill16(data.reshape(blocks, 16), mean, std).reshape(-1)
    if tail:
        last = draw(g, 16).reshape(1, 16)
        out[n - 16 :] = fill16(last, mean, std).reshape(-1)
    return out


def normal_values(
    g: Generator, n: int, mean: float, std: float, np_dtype: Any, contiguous: bool
) -> np.ndarray:
    """normal_kernel's n values of dtype np_dtype."""
    if n >= 16 and contiguous:
        v = _normal_fill(g, n, mean, std, np_dtype)
        return v if v.dtype == np_dtype else v.astype(np_dtype)
    v = normal_double(g, n)
    if not (std == 1.0 and mean == 0.0):
        v = fma64(v, std, mean)  # `val * std + mean`, contracted by GCC
    return cast_double(v, np_dtype)


# ----------------------------------------------------------------------------- the others


def exponential_values(g: Generator, n: int, lambd: float) -> np.ndarray:
    """exponential_distribution<double>: -1/lambda * log1p(-u)."""
    u = uniform_double(g, n)
    return (-1.0 / lambd) * libm("log1p")(-u)


def cauchy_values(g: Generator, n: int, median: float, sigma: float) -> np.ndarray:
    u = uniform_double(g, n)
    return median + sigma * libm("tan")(math.pi * (u - 0.5))


def log_normal_values(g: Generator, n: int, mean: float, std: float) -> np.ndarray:
    v = normal_double(g, n) * std + mean
    return libm("exp")(v)


def geometric_values(g: Generator, n: int, p: float) -> np.ndarray:
    u = uniform_double(g, n)
    with np.errstate(divide="ignore"):
        return np.ceil(libm("log")(u) / math.log1p(-p))


def random_from_to_values(g: Generator, n: int, range_: int, base: int) -> np.ndarray:
    """uniform_int_from_to_distribution: `word % range + base` as int64 (wrapping)."""
    words = g.random_u64(n) if range_ >= (1 << 28) else g.random_u32(n)
    r = words % np.uint64(range_)
    return (r + np.uint64(base & 0xFFFFFFFFFFFFFFFF)).view(np.int64)


# The modulus of random_() without bounds per dtype (uniform_int), and whether it takes a
# 64-bit draw.
def random_default_values(g: Generator, n: int, dt: Any) -> np.ndarray:
    name = dt.name
    if name in ("int64", "float64"):
        words = g.random_u64(n)
    else:
        words = g.random_u32(n)
    if name == "bool":
        return (words & np.uint64(1)).astype(np.bool_)
    if name == "int64":
        return (words % np.uint64(1 << 63)).astype(np.int64)
    mod = {
        "float64": (1 << 53) + 1,
        "float32": (1 << 24) + 1,
        "float16": (1 << 11) + 1,
        "bfloat16": (1 << 8) + 1,
    }.get(name)
    if mod is None:
        mod = int(np.iinfo(dt.np).max) + 1
    return (words % np.uint64(mod)).astype(np.int64)


def write_int_values(a: np.ndarray, values: np.ndarray) -> None:
    """Store int64 values as static_cast<scalar_t>(int64)."""
    if a.dtype.kind == "f" or a.dtype.name == "bfloat16":
        v = values.astype(_f32).astype(a.dtype) if a.dtype.itemsize == 2 else values.astype(a.dtype)
    elif a.dtype.kind == "b":
        v = values != 0
    else:
        v = values.astype(a.dtype)
    fill(a, v)


def bernoulli_scalar_values(g: Generator, n: int, p: float) -> np.ndarray:
    """bernoulli_distribution<double>(p) per element: a double uniform below p."""
    return uniform_double(g, n) < p


def _writable(self: Tensor) -> np.ndarray:
    a = self._data
    check_no_internal_overlap(a)
    return a


__all__ += [
    "get_generator",
    "cast_double",
    "normal_double",
    "cauchy_values",
    "log_normal_values",
    "geometric_values",
    "random_from_to_values",
    "random_default_values",
    "write_int_values",
    "bernoulli_scalar_values",
    "iteration_order",
    "_writable",
]


# ============================================================================= kernels

from ...tensor.dtype import int64 as _int64  # noqa: E402
from ._kernel import kernel, wrap  # noqa: E402
from .core import _check_random_bounds, _check_randperm, resize_  # noqa: E402


def _g(x: float) -> str:
    """A double as PyTorch's messages print it (C++ ostream: 6 significant digits)."""
    return f"{float(x):g}"


def _floating(self: Tensor, what: str) -> None:
    if self._dtype.category < 2:
        raise NotImplementedError(f"\"{what}\" not implemented for '{self._dtype._short}'")
    if self._dtype.category == 3:
        raise NotImplementedError(f"\"{what}\" not implemented for '{self._dtype._short}'")


def _real_view(a: np.ndarray) -> np.ndarray:
    """view_as_real of a complex array: a trailing dimension of 2 (real, imaginary)."""
    part = np.dtype(_f32 if a.dtype == np.complex64 else _f64)
    return np.lib.stride_tricks.as_strided(
        a.view(part) if a.ndim == 0 else a.real,
        a.shape + (2,),
        a.strides + (part.itemsize,),
        writeable=True,
    )


@kernel("uniform_")
def uniform_(self, from_=0.0, to=1.0, *, generator=None):
    if self._dtype.category == 3:
        # PyTorch fills view_as_real(self)
        a = _real_view(_writable(self))
        if a.size:
            fill(a, uniform_values(get_generator(generator), a.size, from_, to, a.dtype))
        return self
    if self._dtype.category < 2:
        raise NotImplementedError(
            f"\"check_uniform_bounds\" not implemented for '{self._dtype._short}'"
        )
    if not from_ <= to:
        raise RuntimeError(
            f"uniform_ expects to return a [from, to) range, but found from={_g(from_)} > "
            f"to={_g(to)}"
        )
    a = _writable(self)
    g = get_generator(generator)
    if a.size:
        fill(a, uniform_values(g, a.size, from_, to, a.dtype))
    return self


@kernel("normal_")
def normal_(self, mean=0.0, std=1.0, *, generator=None):
    if std < 0:
        raise RuntimeError(f"normal expects std >= 0.0, but found std {std}")
    if self._dtype.category == 3:
        # PyTorch fills view_as_real(self) with std / sqrt(2)
        a = _real_view(_writable(self))
        if a.size:
            contiguous = self._data.flags.c_contiguous
            values = normal_values(
                get_generator(generator), a.size, mean, std / math.sqrt(2), a.dtype, contiguous
            )
            fill(a, values)
        return self
    _floating(self, "normal_kernel_cpu")
    a = _writable(self)
    g = get_generator(generator)
    if a.size:
        fill(a, normal_values(g, a.size, mean, std, a.dtype, a.flags.c_contiguous))
    return self


_FLOAT_DIGITS = {"float16": 11, "bfloat16": 8, "float32": 24, "float64": 53}


@kernel("random_.from")
def random__from(self, from_, to, *, generator=None):
    a = _writable(self)
    g = get_generator(generator)
    dt = self._dtype
    if dt.category == 3:
        raise NotImplementedError(
            f"\"random_from_to_kernel_cpu\" not implemented for '{dt._short}'"
        )
    if to is not None:
        if from_ >= to:
            raise RuntimeError(
                f"random_ expects 'from' to be less than 'to', but got from={from_} >= to={to}"
            )
        _check_random_bounds(dt, from_, to - 1)
        if a.size:
            write_int_values(a, random_from_to_values(g, a.size, to - from_, from_))
        return self
    if from_ != -(1 << 63):
        if dt.category == 2:
            to_inc = 1 << _FLOAT_DIGITS[dt.name]
        elif dt.category == 0:
            to_inc = 1
        else:
            to_inc = int(np.iinfo(dt.np).max)
        _check_random_bounds(dt, from_, to_inc)
        if a.size:
            write_int_values(a, random_from_to_values(g, a.size, to_inc - from_ + 1, from_))
        return self
    # [int64 min, int64 max]: the full 64-bit range
    if dt.name not in ("int64", "float64", "float32", "bfloat16"):
        raise RuntimeError(
            "random_full_64_bits_range_kernel_cpu handles only int64, double, float and bfloat16"
        )
    if a.size:
        write_int_values(a, g.random_u64(a.size).view(np.int64))
    return self


@kernel("random_.to")
def random__to(self, to, *, generator=None):
    return random__from(self, 0, to, generator=generator)


@kernel("random_")
def random_(self, *, generator=None):
    a = _writable(self)
    if self._dtype.category == 3:
        raise NotImplementedError(
            f"\"random_kernel_cpu\" not implemented for '{self._dtype._short}'"
        )
    if a.size:
        write_int_values(a, random_default_values(get_generator(generator), a.size, self._dtype))
    return self


def _cast_fill(a: np.ndarray, values: np.ndarray) -> None:
    fill(a, cast_double(values, a.dtype))


@kernel("bernoulli_.float")
def bernoulli__float(self, p=0.5, *, generator=None):
    if not 0 <= p <= 1:
        raise RuntimeError(f"bernoulli_ expects p to be in [0, 1], but got p={p}")
    a = _writable(self)
    if self._dtype.category == 3:
        raise NotImplementedError(
            f"\"bernoulli_scalar_cpu_\" not implemented for '{self._dtype._short}'"
        )
    if a.size:
        fill(a, bernoulli_scalar_values(get_generator(generator), a.size, p).astype(a.dtype))
    return self


@kernel("bernoulli_.Tensor")
def bernoulli__Tensor(self, p, *, generator=None):
    a = _writable(self)
    if self._dtype.category == 3:
        raise NotImplementedError(
            f"\"bernoulli_tensor_cpu_self_\" not implemented for '{self._dtype._short}'"
        )
    if p._dtype.category != 2:
        raise NotImplementedError(
            f"\"bernoulli_tensor_cpu_p_\" not implemented for '{p._dtype._short}'"
        )
    if not a.size:
        return self
    pv = np.broadcast_to(p._data, a.shape)
    order = iteration_order(a)
    flat_p = (pv.transpose(order) if order is not None else pv).reshape(-1)
    g = get_generator(generator)
    if p._data.dtype == _f64:
        ok = (flat_p >= 0) & (flat_p <= 1)
        u = uniform_double(g, a.size)
        pf = flat_p
    else:
        pf = flat_p.astype(_f32)
        ok = (pf >= 0) & (pf <= 1)
        u = uniform_float(g, a.size)
    if not ok.all():
        raise RuntimeError("Expected p_in >= 0 && p_in <= 1 to be true, but got false.")
    fill(a, (u < pf).astype(a.dtype))
    return self


@kernel("exponential_")
def exponential_(self, lambd=1.0, *, generator=None):
    if not lambd > 0.0:
        raise RuntimeError(f"exponential_ expects lambda > 0.0, but found lambda={_g(lambd)}")
    if self._dtype.category != 2:
        raise RuntimeError(
            "Exponential distribution is a continuous probability distribution. dtype must be a "
            f"floating point but you specified {self._dtype._short}"
        )
    a = _writable(self)
    if a.size:
        _cast_fill(a, exponential_values(get_generator(generator), a.size, lambd))
    return self


@kernel("cauchy_")
def cauchy_(self, median=0.0, sigma=1.0, *, generator=None):
    if not sigma > 0.0:
        raise RuntimeError(f"cauchy_ expects sigma > 0.0, but found sigma={_g(sigma)}")
    _floating(self, "cauchy_cpu")
    a = _writable(self)
    if a.size:
        _cast_fill(a, cauchy_values(get_generator(generator), a.size, median, sigma))
    return self


@kernel("log_normal_")
def log_normal_(self, mean=1.0, std=2.0, *, generator=None):
    if not std > 0.0:
        raise RuntimeError(f"log_normal_ expects std > 0.0, but found std={_g(std)}")
    _floating(self, "log_normal_cpu")
    a = _writable(self)
    if a.size:
        _cast_fill(a, log_normal_values(get_generator(generator), a.size, mean, std))
    return self


@kernel("geometric_")
def geometric_(self, p, *, generator=None):
    if not 0 < p < 1:
        raise RuntimeError(f"geometric_ expects p to be in (0, 1), but got p={_g(p)}")
    if self._dtype.category == 3:
        raise NotImplementedError(f"\"geometric_cpu\" not implemented for '{self._dtype._short}'")
    a = _writable(self)
    if a.size:
        _cast_fill(a, geometric_values(get_generator(generator), a.size, p))
    return self


# -- randperm (TensorFactories.cpp's randperm_cpu)


def randperm_values(g: Generator, n: int) -> np.ndarray:
    if n < (1 << 32) // 20:
        # Forward Fisher-Yates: swap element i with i + (word % (n - i)), n - 1 words.
        jit = jit_kernels(n)
        if jit is not None:
            perm = np.empty(n, np.int64)
            jit["randperm_forward"](g.random_u32(n - 1) if n > 1 else np.empty(0, np.uint64), perm)
            return perm
        perm = list(range(n))
        if n > 1:
            mods = np.arange(n, 1, -1, dtype=np.uint64)
            js = ((g.random_u32(n - 1) % mods) + np.arange(n - 1, dtype=np.uint64)).tolist()
            for i, j in enumerate(js):
                perm[i], perm[j] = perm[j], perm[i]
        return np.array(perm, dtype=np.int64)
    # Inside-out Fisher-Yates with 64-bit draws (sizes where % of a word would skew).
    perm = np.empty(n, np.int64)  # pragma: no cover - 214M+ elements
    zs = (g.random_u64(n) % np.arange(1, n + 1, dtype=np.uint64)).tolist()
    for i, z in enumerate(zs):
        perm[i] = perm[z]
        perm[z] = i
    return perm


def _randperm_into(n: int, generator: Any, out: Tensor) -> Tensor:
    _check_randperm(n, out._dtype)
    if out._data.shape != (n,):
        resize_(out, [n])
    g = get_generator(generator)
    write_int_values(out._data, randperm_values(g, n))
    return out


@kernel("randperm.out")
def randperm_out(n, *, out):
    return _randperm_into(n, None, out)


@kernel("randperm.generator_out")
def randperm_generator_out(n, *, generator, out):
    return _randperm_into(n, generator, out)


# -- multinomial (Distributions.cpp's multinomial_out and cpu/MultinomialKernel.cpp)


def _multinomial(self: Tensor, n_sample: int, replacement: bool, generator: Any) -> np.ndarray:
    from ...aten.random import _multinomial_checks

    shape = _multinomial_checks(self, n_sample, replacement)
    probs = self._data
    g = get_generator(generator)
    if not probs.size:
        return np.empty(shape, np.int64)
    rows = probs.reshape(-1, probs.shape[-1]) if probs.ndim == 2 else probs.reshape(1, -1)
    if not replacement or n_sample == 1:
        # q ~ Exp(1) in self's dtype; argmax / topk of p / q (the exponential race).
        if self._dtype.name == "float16":
            raise RuntimeError("multinomial is not implemented for half on CPU")
        comp = rows.astype(_f64)
        if not (np.isfinite(comp).all() and (comp >= 0).all()):
            raise RuntimeError("probability tensor contains either `inf`, `nan` or element < 0")
        if (comp.sum(axis=1) == 0).any():
            raise RuntimeError("invalid multinomial distribution (sum of probabilities <= 0)")
        q = np.empty(probs.shape, probs.dtype)
        _cast_fill(q, exponential_values(g, q.size, 1.0))
        work = _f32 if probs.dtype.itemsize == 2 else probs.dtype
        with np.errstate(divide="ignore", invalid="ignore"):
            ratio = (probs.astype(work) / q.astype(work)).astype(probs.dtype)
        ratio = ratio.reshape(rows.shape).astype(work)
        if n_sample == 1:
            idx = np.argmax(ratio, axis=1)[:, None]
        else:
            idx = np.argsort(-ratio, axis=1, kind="stable")[:, :n_sample]
        return idx.reshape(shape).astype(np.int64)
    work = _f32 if probs.dtype.itemsize == 2 else probs.dtype
    vals = rows.astype(work)
    if (vals < 0).any():
        raise RuntimeError("invalid multinomial distribution (encountering probability entry < 0)")
    if not np.isfinite(vals).all():
        raise RuntimeError(
            "invalid multinomial distribution (encountering probability entry = infinity or NaN)"
        )
    out = np.empty((rows.shape[0], n_sample), np.int64)
    for i in range(rows.shape[0]):
        cum = np.cumsum(vals[i], dtype=work)  # sequential, in scalar_t (float for half types)
        total = cum[-1]
        if not total > 0:
            raise RuntimeError("invalid multinomial distribution (sum of probabilities <= 0)")
        cum = (cum / total).astype(work)
        cum[-1] = 1
        u = uniform_double(g, n_sample)
        out[i] = np.searchsorted(cum.astype(_f64), u, side="left")
    return out.reshape(shape)


@kernel("multinomial")
def multinomial(self, num_samples, replacement=False, *, generator=None):
    return wrap(_multinomial(self, num_samples, replacement, generator), _int64)


@kernel("multinomial.out")
def multinomial_out(self, num_samples, replacement=False, *, generator=None, out):
    values = _multinomial(self, num_samples, replacement, generator)
    if out._data.shape != values.shape:
        resize_(out, list(values.shape))
    out._data[...] = values
    return out
