"""Sampling operators with tensors of parameters: poisson and binomial (Distributions.cpp's
_s_poisson_cpu, _s_binomial_cpu).
The schema is PyTorch's; the CPU kernel (kernels/cpu/random_sampling.py) draws the generator's
words in PyTorch's order; the derivative (autograd/derivatives/random.py) is zero, as
derivatives.yaml's PoissonBackward0."""

from __future__ import annotations

from . import _shape
from ._define import meta
from ._meta_util import check, new_meta, shape_of
from ._variants import out_variant

__all__: list[str] = []


@meta(
    "poisson(Tensor self, Generator? generator=None) -> Tensor", tags=("nondeterministic_seeded",)
)
def poisson(self, generator=None):
    # at::zeros(lambda.sizes(), lambda.options()): a contiguous result of the rates' dtype.
    return new_meta(shape_of(self), self._dtype)


@meta(
    "binomial(Tensor count, Tensor prob, Generator? generator=None) -> Tensor",
    tags=("nondeterministic_seeded",),
)
def binomial(count, prob, generator=None):
    # _s_binomial_cpu: at::zeros(count.sizes(), count.options()) filled by a TensorIterator over
    # (count, prob): prob broadcasts to count; a larger broadcast shape resizes the result.
    if not count._dtype.is_floating_point:
        raise ValueError(
            f"binomial only supports floating-point dtypes for count, got: {count._dtype._short}"
        )
    shape = _shape.broadcast_shapes(shape_of(count), shape_of(prob))
    check(
        prob._dtype is count._dtype,
        f"Found dtype {prob._dtype._short} but expected {count._dtype._short}",
    )
    return new_meta(shape, count._dtype)


out_variant(
    "binomial.out(Tensor count, Tensor prob, Generator? generator=None, *, Tensor(a!) out) -> "
    "Tensor(a!)",
    "binomial",
)
