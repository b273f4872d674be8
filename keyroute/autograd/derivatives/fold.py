"""Derivatives of im2col / col2im and pixel_shuffle / pixel_unshuffle (aten/nn/fold.py): each
is the other's adjoint (derivatives.yaml)."""

from __future__ import annotations

from ._registry import aten, derivative


@derivative(
    "im2col",
    "Im2ColBackward0",
    save=("kernel_size", "dilation", "padding", "stride"),
    computed={"hw": lambda v: list(v["self"]._data.shape[-2:])},
)
def _im2col(grad, kernel_size, dilation, padding, stride, hw):
    return (aten.col2im.default(grad, hw, kernel_size, dilation, padding, stride),)


@derivative("col2im", "Col2ImBackward0", save=("kernel_size", "dilation", "padding", "stride"))
def _col2im(grad, kernel_size, dilation, padding, stride):
    return (aten.im2col.default(grad, kernel_size, dilation, padding, stride),)


@derivative("pixel_shuffle", "PixelShuffleBackward0", save=("upscale_factor",))
def _pixel_shuffle(grad, upscale_factor):
    return (aten.pixel_unshuffle.default(grad, upscale_factor),)


@derivative("pixel_unshuffle", "PixelUnshuffleBackward0", save=("downscale_factor",))
def _pixel_unshuffle(grad, downscale_factor):
    return (aten.pixel_shuffle.default(grad, downscale_factor),)
