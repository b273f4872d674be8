"""Views in the graph: after an in-place op on a view, the view's history reads from its base.

PyTorch regenerates a view's grad_fn from its base when the base's history changed; keyroute
uses the view's geometry (sizes, strides, offset in the base), as PyTorch does when it replays
a view with as_strided: the node is AsStridedBackward0.
"""

from __future__ import annotations

from typing import Any

from .graph import Node, gradient_edge, set_history

__all__ = ["as_strided_history", "AsStridedBackward0"]


class AsStridedBackward0(Node):
    """Gradient of `base.as_strided(size, stride, offset)` w.r.t. base."""

    _name = "AsStridedBackward0"

    def __init__(self, base: Any, geometry: tuple[Any, ...]) -> None:
        super().__init__((gradient_edge(base),))
        self.geometry = geometry
        self.base_meta = (tuple(base._data.shape), base.stride(), base._dtype)
        self.input_metadata = [(tuple(base._data.shape), base._dtype)]

    def apply(self, grads: list[Any]) -> tuple[Any, ...]:
        from .._ops import ops

        aten = ops.aten
        grad = grads[0]
        size, stride, dtype = self.base_meta
        result = aten.zeros.default(list(size), dtype=grad._dtype, device=grad.device)
        if tuple(stride) != tuple(result.stride()):
            result = aten.as_strided.default(
                aten.zeros.default([_extent(size, stride)], dtype=grad._dtype, device=grad.device),
                list(size),
                list(stride),
                0,
            )
        vsize, vstride, voffset = self.geometry
        region = aten.as_strided.default(result, list(vsize), list(vstride), voffset)
        aten.add_.Tensor(region, grad)
        return (result,)


def _extent(size: tuple[int, ...], stride: tuple[int, ...]) -> int:
    if not all(size):
        return 0
    return 1 + sum((s - 1) * st for s, st in zip(size, stride))


def as_strided_history(view: Any, base: Any, geometry: tuple[Any, ...]) -> None:
    set_history(view, AsStridedBackward0(base, geometry), 0)
