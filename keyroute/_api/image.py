"""torch.* functions over the image operators of aten/nn/ (fold.py, grid_sample.py):
torch.pixel_shuffle, pixel_unshuffle, grid_sampler, grid_sampler_2d, affine_grid_generator."""

from __future__ import annotations

from .._ops import ops
from ..tensor._tensor import Tensor
from . import function

aten = ops.aten

__all__: list[str] = []


@function
def pixel_shuffle(input: Tensor, upscale_factor: int) -> Tensor:  # noqa: A002
    """(*, C r^2, H, W) -> (*, C, H r, W r) (aten::pixel_shuffle)."""
    return aten.pixel_shuffle.default(input, upscale_factor)


@function
def pixel_unshuffle(input: Tensor, downscale_factor: int) -> Tensor:  # noqa: A002
    """(*, C, H r, W r) -> (*, C r^2, H, W) (aten::pixel_unshuffle)."""
    return aten.pixel_unshuffle.default(input, downscale_factor)


@function
def grid_sampler(
    input: Tensor,  # noqa: A002
    grid: Tensor,
    interpolation_mode: int,
    padding_mode: int,
    align_corners: bool,
) -> Tensor:
    """aten::grid_sampler (F.grid_sample's operator)."""
    return aten.grid_sampler.default(input, grid, interpolation_mode, padding_mode, align_corners)


@function
def grid_sampler_2d(
    input: Tensor,  # noqa: A002
    grid: Tensor,
    interpolation_mode: int,
    padding_mode: int,
    align_corners: bool,
) -> Tensor:
    """aten::grid_sampler_2d."""
    return aten.grid_sampler_2d.default(
        input, grid, interpolation_mode, padding_mode, align_corners
    )


@function
def affine_grid_generator(theta: Tensor, size: list[int], align_corners: bool) -> Tensor:
    """aten::affine_grid_generator (F.affine_grid's operator)."""
    return aten.affine_grid_generator.default(theta, size, align_corners)
