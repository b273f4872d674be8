"""Gradient cases of angle, polar, complex (aten/complex_ops.py) and abs of a complex input
(its derivative goes through sgn); registered into tests/autograd/grad_cases.py's CASES.
Complex leaves are complex128, compared as (..., 2) real arrays (grad_cases_spectral's `c`).
No torch or keyroute import here."""

from __future__ import annotations

from tests.autograd.grad_cases import case, t
from tests.autograd.grad_cases_spectral import c

case("angle")(lambda M, rng: ((c(M, rng, 3, 2),), {}))
case("angle_real", "angle")(lambda M, rng: ((t(M, rng, 4),), {}))
case("polar")(lambda M, rng: ((t(M, rng, 3, positive=True), t(M, rng, 3)), {}))
case("polar_broadcast", "polar")(
    lambda M, rng: ((t(M, rng, 2, 1, positive=True), t(M, rng, 3)), {})
)
case("complex")(lambda M, rng: ((t(M, rng, 2, 3), t(M, rng, 2, 3)), {}))
case("complex_broadcast", "complex")(lambda M, rng: ((t(M, rng, 3), t(M, rng, 2, 1)), {}))
case("abs_complex", "abs")(lambda M, rng: ((c(M, rng, 4),), {}))
