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


# Interpolation (aten/nn/upsample.py): each operator and its _backward operator (whose gradient
# is the forward again), up- and down-sampling, with align_corners where it applies.
_UPSAMPLE = {
    "upsample_nearest1d": ((2, 2, 4), [7], ()),
    "upsample_nearest2d": ((1, 2, 3, 4), [5, 3], ()),
    "upsample_nearest3d": ((1, 1, 2, 3, 2), [3, 4, 4], ()),
    "_upsample_nearest_exact1d": ((2, 2, 4), [7], ()),
    "_upsample_nearest_exact2d": ((1, 2, 3, 4), [5, 3], ()),
    "_upsample_nearest_exact3d": ((1, 1, 2, 3, 2), [3, 4, 4], ()),
    "upsample_linear1d": ((2, 2, 4), [7], (False,)),
    "upsample_bilinear2d": ((1, 2, 3, 4), [5, 3], (False,)),
    "upsample_trilinear3d": ((1, 1, 2, 3, 2), [3, 4, 3], (False,)),
    "upsample_bicubic2d": ((1, 2, 3, 4), [5, 3], (False,)),
}


def _upsample_cases(op: str, shape: tuple[int, ...], out: list[int], ac: tuple) -> None:
    case(op)(lambda M, rng: ((t(M, rng, *shape), out, *ac), {}))
    gshape = (*shape[:2], *out)
    case(op + "_backward")(lambda M, rng: ((t(M, rng, *gshape), out, list(shape), *ac), {}))
    if ac:
        case(op + "_align", op)(lambda M, rng: ((t(M, rng, *shape), out, True), {}))
        nd = len(out)
        case(op + "_scales", op)(
            lambda M, rng: ((t(M, rng, *shape), out, False, *([1.7] * nd)), {})
        )


for _op, (_shape, _out, _ac) in _UPSAMPLE.items():
    _upsample_cases(_op, _shape, _out, _ac)

# The anti-aliased forms (aten/nn/upsample_aa.py): downsampling widens the filter.
for _op in ("_upsample_bilinear2d_aa", "_upsample_bicubic2d_aa"):
    _upsample_cases(_op, (1, 2, 7, 9), [3, 4], (False,))


# Sliding blocks and pixel shuffles (aten/nn/fold.py): overlapping blocks, padding, dilation.
case("im2col")(lambda M, rng: ((t(M, rng, 1, 2, 4, 5), [2, 3], [1, 1], [1, 0], [1, 2]), {}))
case("im2col_dilated", "im2col")(
    lambda M, rng: ((t(M, rng, 2, 4, 4), [2, 2], [2, 1], [0, 1], [1, 1]), {})
)
case("col2im")(lambda M, rng: ((t(M, rng, 1, 8, 6), [3, 4], [2, 2], [1, 1], [0, 0], [1, 1]), {}))
case("col2im_strided", "col2im")(
    lambda M, rng: ((t(M, rng, 12, 6), [4, 5], [2, 3], [1, 1], [1, 0], [2, 2]), {})
)
case("pixel_shuffle")(lambda M, rng: ((t(M, rng, 2, 8, 2, 3), 2), {}))
case("pixel_unshuffle")(lambda M, rng: ((t(M, rng, 1, 2, 4, 6), 2), {}))


# Spatial transformers (aten/nn/grid_sample.py): grid points inside and outside [-1, 1].
def _grid(M: Any, rng: np.random.Generator, *shape: int) -> Any:
    return t(M, rng, *shape, low=-1.2, high=1.2)


case("grid_sampler_2d")(
    lambda M, rng: ((t(M, rng, 1, 2, 3, 4), _grid(M, rng, 1, 2, 3, 2), 0, 0, False), {})
)
case("grid_sampler_2d_border", "grid_sampler_2d")(
    lambda M, rng: ((t(M, rng, 2, 1, 3, 3), _grid(M, rng, 2, 3, 2, 2), 0, 1, True), {})
)
case("grid_sampler_2d_reflection", "grid_sampler_2d")(
    lambda M, rng: ((t(M, rng, 1, 2, 4, 3), _grid(M, rng, 1, 2, 2, 2), 0, 2, False), {})
)
case("affine_grid_generator")(lambda M, rng: ((t(M, rng, 2, 2, 3), [2, 1, 3, 4], False), {}))
case("affine_grid_generator_3d", "affine_grid_generator")(
    lambda M, rng: ((t(M, rng, 1, 3, 4), [1, 1, 2, 3, 2], True), {})
)


# Max unpooling (aten/nn/unpool.py): distinct indices per plane.
def _perm_idx(M: Any, rng: np.random.Generator, shape: tuple[int, ...], n_out: int, nd: int) -> Any:
    per = int(np.prod(shape[-nd:]))
    planes = int(np.prod(shape)) // per
    rows = np.stack([rng.permutation(n_out)[:per] for _ in range(planes)])
    return M.from_numpy(rows.reshape(shape).astype(np.int64))


case("max_unpool2d")(
    lambda M, rng: ((t(M, rng, 2, 2, 2, 2), _perm_idx(M, rng, (2, 2, 2, 2), 12, 2), [3, 4]), {})
)
case("max_unpool3d")(
    lambda M, rng: (
        (
            t(M, rng, 1, 2, 1, 2, 2),
            _perm_idx(M, rng, (1, 2, 1, 2, 2), 16, 3),
            [2, 2, 4],
            [2, 1, 2],
            [0, 0, 0],
        ),
        {},
    )
)

# unfold_backward (istft's overlap-add) and as_strided with overlapping windows (stft's frames).
case("unfold_backward")(lambda M, rng: ((t(M, rng, 2, 4, 3), [2, 9], 1, 3, 2), {}))
case("as_strided_overlap", "as_strided")(
    lambda M, rng: ((t(M, rng, 2, 10), [2, 3, 4], [10, 3, 1], 0), {})
)


# CTC (aten/nn/ctc.py): padded targets with a repeated label, lengths as int[] and as tensors.
def _ctc_args(M: Any, rng: np.random.Generator, tensors: bool) -> tuple[Any, ...]:
    lp = t(M, rng, 6, 2, 4)
    targets = M.from_numpy(np.array([[1, 1, 2], [3, 2, 0]], dtype=np.int64))
    il, tl = [6, 5], [3, 2]
    if tensors:
        return lp, targets, M.tensor(il), M.tensor(tl), 0, False
    return lp, targets, il, tl, 0, False


case("_ctc_loss")(lambda M, rng: (_ctc_args(M, rng, False), {}))
case("_ctc_loss.Tensor")(lambda M, rng: (_ctc_args(M, rng, True), {}))
