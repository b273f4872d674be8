"""Sampling operators with a tensor of rates: poisson (Distributions.cpp's _s_poisson_cpu).
The schema is PyTorch's; the CPU kernel (kernels/cpu/random_sampling.py) draws the generator's
words in PyTorch's order; the derivative (autograd/derivatives/random.py) is zero, as
derivatives.yaml's PoissonBackward0."""

from __future__ import annotations

from ._define import meta
from ._meta_util import new_meta, shape_of

__all__: list[str] = []


@meta(
    "poisson(Tensor self, Generator? generator=None) -> Tensor", tags=("nondeterministic_seeded",)
)
def poisson(self, generator=None):
    # at::zeros(lambda.sizes(), lambda.options()): a contiguous result of the rates' dtype.
    return new_meta(shape_of(self), self._dtype)
