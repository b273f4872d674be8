"""Spatial transformer operators: affine_grid_generator (F.affine_grid) with its backward, and
grid_sampler / grid_sampler_2d (F.grid_sample) with GridSampler.h's checks. The 2-d sampler's
bilinear and nearest modes with zeros / border / reflection padding are implemented (kernel in
kernels/cpu/grid_sample.py, derivatives in autograd/derivatives/grid_sample.py); bicubic and
the 3-d sampler raise NotImplementedError naming themselves."""

from __future__ import annotations

from ...tensor._tensor import Tensor
from .._define import composite, composite_explicit, meta
from .._meta_util import check, new_meta, shape_of
from ..linalg import op

__all__ = ["grid_sampler_2d_check", "same_dtype_check"]


def _sizes(t: Tensor) -> str:
    return str(list(shape_of(t)))


def same_dtype_check(input: Tensor, grid: Tensor) -> None:  # noqa: A002
    """The CPU kernel reads grid as input's scalar type."""
    check(
        input._dtype is grid._dtype,
        f"expected scalar type {input._dtype._short} but found {grid._dtype._short}",
    )


def _common_check(input: Tensor, grid: Tensor) -> None:  # noqa: A002
    check(
        shape_of(input)[0] == shape_of(grid)[0],
        f"grid_sampler(): expected grid and input to have same batch size, but got input with "
        f"sizes {_sizes(input)} and grid with sizes {_sizes(grid)}",
    )
    check(
        shape_of(grid)[-1] == input.dim() - 2,
        f"grid_sampler(): expected grid to have size {input.dim() - 2} in last dimension, but "
        f"got grid with sizes {_sizes(grid)}",
    )
    for i in range(2, input.dim()):
        check(
            shape_of(input)[i] > 0,
            f"grid_sampler(): expected input to have non-empty spatial dimensions, but input has "
            f"sizes {_sizes(input)} with dimension {i} being empty",
        )


def grid_sampler_2d_check(
    input: Tensor,  # noqa: A002
    grid: Tensor,
    interpolation_mode: int,
) -> tuple[int, ...]:
    _common_check(input, grid)
    check(
        input.dim() == 4 and input.dim() == grid.dim(),
        f"grid_sampler(): expected 4D input and grid with same number of dimensions, but got "
        f"input with sizes {_sizes(input)} and grid with sizes {_sizes(grid)}",
    )
    if interpolation_mode == 2:
        raise NotImplementedError(
            "grid_sampler_2d with mode='bicubic' is not implemented in keyroute yet"
        )
    n, c = shape_of(input)[:2]
    return (n, c, shape_of(grid)[1], shape_of(grid)[2])


@meta(
    "grid_sampler_2d(Tensor input, Tensor grid, int interpolation_mode, int padding_mode, bool "
    "align_corners) -> Tensor"
)
def grid_sampler_2d(input, grid, interpolation_mode, padding_mode, align_corners):  # noqa: A002
    same_dtype_check(input, grid)
    return new_meta(grid_sampler_2d_check(input, grid, interpolation_mode), input._dtype)


@meta(
    "grid_sampler_2d_backward(Tensor grad_output, Tensor input, Tensor grid, int "
    "interpolation_mode, int padding_mode, bool align_corners, bool[2] output_mask) -> "
    "(Tensor, Tensor)"
)
def grid_sampler_2d_backward(
    grad_output,
    input,  # noqa: A002
    grid,
    interpolation_mode,
    padding_mode,
    align_corners,
    output_mask,
):
    grid_sampler_2d_check(input, grid, interpolation_mode)
    same_dtype_check(input, grid)
    # The input's gradient only when asked; the grid's always (PyTorch's CPU kernel).
    gi = new_meta(shape_of(input), input._dtype) if output_mask[0] else None
    return gi, new_meta(shape_of(grid), grid._dtype)


@composite(
    "grid_sampler(Tensor input, Tensor grid, int interpolation_mode, int padding_mode, bool "
    "align_corners) -> Tensor"
)
def grid_sampler(input, grid, interpolation_mode, padding_mode, align_corners):  # noqa: A002
    if input.dim() == 4:
        return op("grid_sampler_2d")(input, grid, interpolation_mode, padding_mode, align_corners)
    raise NotImplementedError("grid_sampler_3d is not implemented in keyroute yet")


# ----------------------------------------------------------------------------- affine grids


def _linspace_from_neg_one(like: Tensor, steps: int, align_corners: bool) -> Tensor:
    if steps <= 1:
        return op("scalar_tensor")(0, dtype=like._dtype, device=like.device)
    r = op("linspace")(-1, 1, steps, dtype=like._dtype, device=like.device)
    if not align_corners:
        r = op("div.Scalar")(op("mul.Scalar")(r, steps - 1), steps)
    return r


def _base_grid(like: Tensor, size: list[int], align_corners: bool) -> Tensor:
    """(N, *spatial, nd + 1): x, y[, z] coordinates in [-1, 1] and a column of ones."""
    n, spatial = size[0], size[2:]
    nd = len(spatial)
    base = op("empty.memory_format")([n, *spatial, nd + 1], dtype=like._dtype, device=like.device)
    # The last spatial dim is x (coordinate 0), the first is y or z.
    for coord in range(nd):
        dim = nd - 1 - coord  # the spatial dim this coordinate runs along
        r = _linspace_from_neg_one(like, spatial[dim], align_corners)
        for _ in range(nd - 1 - dim):
            r = op("unsqueeze")(r, -1)
        op("copy_")(op("select.int")(base, -1, coord), r)
    op("fill_.Scalar")(op("select.int")(base, -1, nd), 1)
    return base


@composite_explicit(
    "affine_grid_generator(Tensor theta, SymInt[] size, bool align_corners) -> Tensor"
)
def affine_grid_generator(theta, size, align_corners):
    size = [int(s) for s in size]
    check(
        len(size) in (4, 5),
        "AffineGridGenerator needs 4d (spatial) or 5d (volumetric) inputs.",
    )
    n, spatial = size[0], size[2:]
    nd = len(spatial)
    numel = 1
    for s in spatial:
        numel *= s
    base = _base_grid(theta, size, align_corners)
    grid = op("bmm")(op("view")(base, [n, numel, nd + 1]), op("transpose.int")(theta, 1, 2))
    return op("view")(grid, [n, *spatial, nd])


@composite(
    "affine_grid_generator_backward(Tensor grad, SymInt[] size, bool align_corners) -> Tensor"
)
def affine_grid_generator_backward(grad, size, align_corners):
    size = [int(s) for s in size]
    check(
        len(size) in (4, 5),
        "AffineGridGenerator needs 4d (spatial) or 5d (volumetric) inputs.",
    )
    n, spatial = size[0], size[2:]
    nd = len(spatial)
    numel = 1
    for s in spatial:
        numel *= s
    base = op("view")(_base_grid(grad, size, align_corners), [n, numel, nd + 1])
    g = op("bmm")(op("transpose.int")(base, 1, 2), op("reshape")(grad, [n, numel, nd]))
    return op("transpose.int")(g, 1, 2)
