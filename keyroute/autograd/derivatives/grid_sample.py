"""Derivatives of the spatial transformer operators (aten/nn/grid_sample.py): derivatives.yaml's
grid_sampler_2d entry (one backward operator for both inputs) and affine_grid_generator's."""

from __future__ import annotations

from ._registry import aten, derivative


@derivative(
    "grid_sampler_2d",
    "GridSampler2DBackward0",
    save=("input", "grid", "interpolation_mode", "padding_mode", "align_corners"),
)
def _grid_sampler_2d(grad, input, grid, interpolation_mode, padding_mode, align_corners, needs):  # noqa: A002
    gi, gg = aten.grid_sampler_2d_backward.default(
        grad, input, grid, interpolation_mode, padding_mode, align_corners, list(needs)
    )
    return (gi if needs[0] else None), (gg if needs[1] else None)


@derivative(
    "affine_grid_generator",
    "AffineGridGeneratorBackward0",
    save=("size", "align_corners"),
)
def _affine_grid(grad, size, align_corners):
    return (aten.affine_grid_generator_backward.default(grad, size, align_corners),)
