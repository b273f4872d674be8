"""Random operators beyond the fills in `core` (uniform_, normal_, random_.from/to,
bernoulli_.float, rand/randn/randint/randperm): the other distributions, bernoulli with a tensor
of probabilities, multinomial, normal with tensor mean/std, randint_like and the generator
overloads. Schemas are PyTorch's; the decompositions are PyTorch's native implementations
(Distributions.cpp), so the words drawn from the generator are the same.
"""

from __future__ import annotations

from ..tensor.dtype import int64
from . import _shape
from ._define import aten, composite_explicit, meta
from ._meta_util import check, meta_like, new_meta, shape_of
from .core import _INT_FACTORY, _LIKE, as_size, factory_dtype

_SEEDED = ("nondeterministic_seeded",)

# -- in-place fills


@meta("random_(Tensor(a!) self, *, Generator? generator=None) -> Tensor(a!)", tags=_SEEDED)
def random_(self, *, generator=None):
    return self


@meta(
    "exponential_(Tensor(a!) self, float lambd=1., *, Generator? generator=None) -> Tensor(a!)",
    tags=_SEEDED,
)
def exponential_(self, lambd=1.0, *, generator=None):
    check(lambd > 0.0, f"exponential_ expects lambda > 0.0, but found lambda={lambd}")
    return self


@meta(
    "cauchy_(Tensor(a!) self, float median=0., float sigma=1., *, Generator? generator=None) -> "
    "Tensor(a!)",
    tags=_SEEDED,
)
def cauchy_(self, median=0.0, sigma=1.0, *, generator=None):
    check(sigma > 0.0, f"cauchy_ expects sigma > 0.0, but found sigma={sigma}")
    return self


@meta(
    "log_normal_(Tensor(a!) self, float mean=1., float std=2., *, Generator? generator=None) -> "
    "Tensor(a!)",
    tags=_SEEDED,
)
def log_normal_(self, mean=1.0, std=2.0, *, generator=None):
    check(std > 0.0, f"log_normal_ expects std > 0.0, but found std={std}")
    return self


@meta(
    "geometric_(Tensor(a!) self, float p, *, Generator? generator=None) -> Tensor(a!)",
    tags=_SEEDED,
)
def geometric_(self, p, *, generator=None):
    check(0 < p < 1, f"geometric_ expects p to be in (0, 1), but got p={p}")
    return self


@meta(
    "bernoulli_.Tensor(Tensor(a!) self, Tensor p, *, Generator? generator=None) -> Tensor(a!)",
    tags=_SEEDED,
)
def bernoulli__Tensor(self, p, *, generator=None):
    _shape.broadcast_shapes(shape_of(self), shape_of(p))
    return self


# -- functional forms (PyTorch's: a fresh tensor, then the in-place fill)


@composite_explicit("bernoulli(Tensor self, *, Generator? generator=None) -> Tensor", tags=_SEEDED)
def bernoulli(self, *, generator=None):
    out = aten("empty_like")(self, memory_format=aten_contiguous())
    return aten("bernoulli_.Tensor")(out, self, generator=generator)


@composite_explicit(
    "bernoulli.p(Tensor self, float p, *, Generator? generator=None) -> Tensor", tags=_SEEDED
)
def bernoulli_p(self, p, *, generator=None):
    out = aten("empty_like")(self)
    return aten("bernoulli_.float")(out, p, generator=generator)


@composite_explicit(
    "bernoulli.Tensor(Tensor self, Tensor p, *, Generator? generator=None) -> Tensor",
    tags=_SEEDED,
)
def bernoulli_Tensor(self, p, *, generator=None):
    out = aten("empty_like")(self)
    return aten("bernoulli_.Tensor")(out, p, generator=generator)


@composite_explicit(
    "exponential(Tensor self, float lambd=1., *, Generator? generator=None) -> Tensor",
    tags=_SEEDED,
)
def exponential(self, lambd=1.0, *, generator=None):
    out = aten("clone")(self)
    return aten("exponential_")(out, lambd, generator=generator)


def aten_contiguous():
    from ..tensor.layout import contiguous_format

    return contiguous_format


# -- multinomial


@meta(
    "multinomial(Tensor self, SymInt num_samples, bool replacement=False, *, Generator? "
    "generator=None) -> Tensor",
    tags=_SEEDED,
)
def multinomial(self, num_samples, replacement=False, *, generator=None):
    shape = _multinomial_checks(self, num_samples, replacement)
    return new_meta(shape, int64)


@meta(
    "multinomial.out(Tensor self, SymInt num_samples, bool replacement=False, *, Generator? "
    "generator=None, Tensor(a!) out) -> Tensor(a!)",
    tags=_SEEDED,
)
def multinomial_out(self, num_samples, replacement=False, *, generator=None, out):
    shape = _multinomial_checks(self, num_samples, replacement)
    check(
        out.dtype is int64,
        f"multinomial expects Long tensor out, got: {out.dtype._short}",
    )
    if shape_of(out) != shape:
        aten("resize_")(out, list(shape))
    return out


def _multinomial_checks(self, n_sample, replacement) -> tuple[int, ...]:
    dim = len(shape_of(self))
    check(dim in (1, 2), "prob_dist must be 1 or 2 dim")
    check(
        self.dtype.category == 2,
        f"multinomial only supports floating-point dtypes for input, got: {self.dtype._short}",
    )
    check(n_sample > 0, "cannot sample n_sample <= 0 samples")
    n_categories = shape_of(self)[-1]
    check(
        replacement or n_sample <= n_categories,
        "cannot sample n_sample > prob_dist.size(-1) samples without replacement",
    )
    check(n_categories <= 1 << 24, "number of categories cannot exceed 2^24")
    return (n_sample,) if dim == 1 else (shape_of(self)[0], n_sample)


# -- normal with tensor arguments (Distributions.cpp's normal_impl: a standard fill, then the
# arithmetic in the result's dtype)


def _check_std_tensor(std) -> None:
    check(
        not bool(aten("lt.Scalar")(std, 0.0).any().item()) if std.numel() else True,
        "normal expects all elements of std >= 0.0",
    )


@composite_explicit(
    "normal.Tensor_float(Tensor mean, float std=1., *, Generator? generator=None) -> Tensor",
    tags=_SEEDED,
)
def normal_Tensor_float(mean, std=1.0, *, generator=None):
    check(std >= 0.0, f"normal expects std >= 0.0, but found std {std}")
    out = aten("empty_like")(mean, memory_format=aten_contiguous())
    aten("normal_")(out, 0.0, std, generator=generator)
    return aten("add_.Tensor")(out, mean)


@composite_explicit(
    "normal.float_Tensor(float mean, Tensor std, *, Generator? generator=None) -> Tensor",
    tags=_SEEDED,
)
def normal_float_Tensor(mean, std, *, generator=None):
    _check_std_tensor(std)
    out = aten("empty_like")(std, memory_format=aten_contiguous())
    aten("normal_")(out, 0.0, 1.0, generator=generator)
    aten("mul_.Tensor")(out, std)
    mean_t = aten("full")([], mean, dtype=out.dtype, device=out.device)
    return aten("add_.Tensor")(out, mean_t)


@composite_explicit(
    "normal.Tensor_Tensor(Tensor mean, Tensor std, *, Generator? generator=None) -> Tensor",
    tags=_SEEDED,
)
def normal_Tensor_Tensor(mean, std, *, generator=None):
    _check_std_tensor(std)
    shape = _shape.broadcast_shapes(shape_of(mean), shape_of(std))
    out = aten("empty.memory_format")(list(shape), dtype=mean.dtype, device=mean.device)
    aten("normal_")(out, 0.0, 1.0, generator=generator)
    aten("mul_.Tensor")(out, std)
    return aten("add_.Tensor")(out, mean)


_FACTORY_TAIL = (
    "ScalarType? dtype=None, Layout? layout=None, Device? device=None, bool? pin_memory=None) "
    "-> Tensor"
)


@composite_explicit(
    f"normal.float_float(float mean, float std, SymInt[] size, *, Generator? generator=None, "
    f"{_FACTORY_TAIL}",
    tags=_SEEDED,
)
def normal_float_float(mean, std, size, *, generator=None, dtype=None, layout=None, device=None,
                       pin_memory=None):  # fmt: skip
    out = aten("empty.memory_format")(list(as_size(size)), dtype=dtype, device=device)
    return aten("normal_")(out, mean, std, generator=generator)


# -- generator overloads of the factories


@composite_explicit(
    "randint.low_generator(SymInt low, SymInt high, SymInt[] size, *, Generator? generator, "
    + _INT_FACTORY.replace("*, ", ""),
    tags=_SEEDED,
)
def randint_low_generator(low, high, size, *, generator, dtype=4, layout=None, device=None,
                          pin_memory=None):  # fmt: skip
    check(
        low < high, f"random_ expects 'from' to be less than 'to', but got from={low} >= to={high}"
    )
    t = aten("empty.memory_format")(
        list(as_size(size)), dtype=factory_dtype(dtype, int64), device=device
    )
    return aten("random_.from")(t, low, high, generator=generator)


def _like(self, dtype, device, memory_format):
    return aten("empty_like")(self, dtype=dtype, device=device, memory_format=memory_format)


@composite_explicit(f"rand_like.generator(Tensor self, *, Generator? generator, {_LIKE[3:]}")
def rand_like_generator(self, *, generator, dtype=None, layout=None, device=None,
                        pin_memory=None, memory_format=None):  # fmt: skip
    return aten("uniform_")(_like(self, dtype, device, memory_format), 0.0, 1.0,
                            generator=generator)  # fmt: skip


@composite_explicit(f"randn_like.generator(Tensor self, *, Generator? generator, {_LIKE[3:]}")
def randn_like_generator(self, *, generator, dtype=None, layout=None, device=None,
                         pin_memory=None, memory_format=None):  # fmt: skip
    return aten("normal_")(_like(self, dtype, device, memory_format), 0.0, 1.0,
                           generator=generator)  # fmt: skip


def _randint_like(self, low, high, generator, dtype, device, memory_format):
    check(
        low < high, f"random_ expects 'from' to be less than 'to', but got from={low} >= to={high}"
    )
    t = _like(self, dtype, device, memory_format)
    return aten("random_.from")(t, low, high, generator=generator)


@composite_explicit(f"randint_like(Tensor self, SymInt high, {_LIKE}", tags=_SEEDED)
def randint_like(self, high, *, dtype=None, layout=None, device=None, pin_memory=None,
                 memory_format=None):  # fmt: skip
    return _randint_like(self, 0, high, None, dtype, device, memory_format)


@composite_explicit(
    f"randint_like.low_dtype(Tensor self, SymInt low, SymInt high, {_LIKE}", tags=_SEEDED
)
def randint_like_low_dtype(self, low, high, *, dtype=None, layout=None, device=None,
                           pin_memory=None, memory_format=None):  # fmt: skip
    return _randint_like(self, low, high, None, dtype, device, memory_format)


@composite_explicit(
    f"randint_like.generator(Tensor self, SymInt high, *, Generator? generator, {_LIKE[3:]}",
    tags=_SEEDED,
)
def randint_like_generator(self, high, *, generator, dtype=None, layout=None, device=None,
                           pin_memory=None, memory_format=None):  # fmt: skip
    return _randint_like(self, 0, high, generator, dtype, device, memory_format)


@composite_explicit(
    f"randint_like.low_generator_dtype(Tensor self, SymInt low, SymInt high, *, Generator? "
    f"generator, {_LIKE[3:]}",
    tags=_SEEDED,
)
def randint_like_low_generator_dtype(self, low, high, *, generator, dtype=None, layout=None,
                                     device=None, pin_memory=None,
                                     memory_format=None):  # fmt: skip
    return _randint_like(self, low, high, generator, dtype, device, memory_format)


__all__: list[str] = []
del meta_like
