"""torch.nn's upsampling modules (PyTorch's torch/nn/modules/upsampling.py): Upsample over
F.interpolate, and the fixed-mode UpsamplingNearest2d / UpsamplingBilinear2d."""

from __future__ import annotations

from typing import Any

from ...tensor._tensor import Tensor
from .. import functional as F
from .module import Module

__all__ = ["Upsample", "UpsamplingNearest2d", "UpsamplingBilinear2d"]


class Upsample(Module):
    """Resamples its input to `size` or by `scale_factor` (F.interpolate)."""

    def __init__(
        self,
        size: Any = None,
        scale_factor: Any = None,
        mode: str = "nearest",
        align_corners: bool | None = None,
        recompute_scale_factor: bool | None = None,
    ) -> None:
        super().__init__()
        self.name = type(self).__name__
        self.size = size
        if isinstance(scale_factor, tuple):
            self.scale_factor: Any = tuple(float(f) for f in scale_factor)
        else:
            self.scale_factor = float(scale_factor) if scale_factor else None
        self.mode = mode
        self.align_corners = align_corners
        self.recompute_scale_factor = recompute_scale_factor

    def forward(self, input: Tensor) -> Tensor:  # noqa: A002
        return F.interpolate(
            input,
            self.size,
            self.scale_factor,
            self.mode,
            self.align_corners,
            recompute_scale_factor=self.recompute_scale_factor,
        )

    def __setstate__(self, state: dict[str, Any]) -> None:
        # Modules pickled before recompute_scale_factor existed recomputed it (PyTorch's default).
        state.setdefault("recompute_scale_factor", True)
        super().__setstate__(state)

    def extra_repr(self) -> str:
        if self.scale_factor is not None:
            info = "scale_factor=" + repr(self.scale_factor)
        else:
            info = "size=" + repr(self.size)
        return info + ", mode=" + repr(self.mode)


class UpsamplingNearest2d(Upsample):
    def __init__(self, size: Any = None, scale_factor: Any = None) -> None:
        super().__init__(size, scale_factor, mode="nearest")


class UpsamplingBilinear2d(Upsample):
    def __init__(self, size: Any = None, scale_factor: Any = None) -> None:
        super().__init__(size, scale_factor, mode="bilinear", align_corners=True)
