"""Gradient cases of torch.fft's transforms (aten/fft.py) and the image operators of
aten/nn/ (interpolation, grid sampling, unfold/fold, pooling families); registered into
tests/autograd/grad_cases.py's CASES. Complex inputs are complex128 leaves: the harness compares
their gradients as (..., 2) real arrays and gradchecks them through view_as_real. No torch or
keyroute import here."""

from __future__ import annotations

from typing import Any

import numpy as np

from tests.autograd.grad_cases import case, t


def c(M: Any, rng: np.random.Generator, *shape: int) -> Any:
    a = rng.uniform(-2, 2, shape) + 1j * rng.uniform(-2, 2, shape)
    return M.from_numpy(a.astype(np.complex128)).requires_grad_(True)


# torch.fft's transforms, each normalization and the one-sided / two-sided forms.
case("_fft_r2c")(lambda M, rng: ((t(M, rng, 3, 6), [1], 0, True), {}))
case("_fft_r2c_odd", "_fft_r2c")(lambda M, rng: ((t(M, rng, 2, 5), [1], 1, True), {}))
case("_fft_r2c_twosided", "_fft_r2c")(lambda M, rng: ((t(M, rng, 4, 3), [0], 2, False), {}))
case("_fft_r2c_2d", "_fft_r2c")(lambda M, rng: ((t(M, rng, 2, 3, 4), [0, 2], 0, True), {}))
case("_fft_c2r")(lambda M, rng: ((c(M, rng, 3, 4), [1], 2, 6), {}))
case("_fft_c2r_odd", "_fft_c2r")(lambda M, rng: ((c(M, rng, 2, 4), [1], 1, 7), {}))
case("_fft_c2r_2d", "_fft_c2r")(lambda M, rng: ((c(M, rng, 3, 2, 3), [0, 2], 0, 4), {}))
case("_fft_c2c")(lambda M, rng: ((c(M, rng, 3, 4), [1], 0, True), {}))
case("_fft_c2c_inverse", "_fft_c2c")(lambda M, rng: ((c(M, rng, 3, 4), [0, 1], 2, False), {}))
case("_fft_c2c_ortho", "_fft_c2c")(lambda M, rng: ((c(M, rng, 5), [0], 1, True), {}))
