"""torch.* functions over the image operators of aten/nn/ (fold.py, upsample.py):
torch.pixel_shuffle and torch.pixel_unshuffle."""

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
