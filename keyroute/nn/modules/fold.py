"""torch.nn.Fold and torch.nn.Unfold (PyTorch's torch/nn/modules/fold.py) over F.fold / F.unfold,
and MaxUnpool1d/2d/3d over F.max_unpool*."""

from __future__ import annotations

from typing import Any

from ...tensor._tensor import Tensor
from .. import functional as F
from .module import Module

__all__ = ["Fold", "Unfold", "MaxUnpool1d", "MaxUnpool2d", "MaxUnpool3d"]


class Fold(Module):
    """Combines an array of sliding local blocks into a tensor (col2im)."""

    def __init__(
        self,
        output_size: Any,
        kernel_size: Any,
        dilation: Any = 1,
        padding: Any = 0,
        stride: Any = 1,
    ) -> None:
        super().__init__()
        self.output_size = output_size
        self.kernel_size = kernel_size
        self.dilation = dilation
        self.padding = padding
        self.stride = stride

    def forward(self, input: Tensor) -> Tensor:  # noqa: A002
        return F.fold(
            input, self.output_size, self.kernel_size, self.dilation, self.padding, self.stride
        )

    def extra_repr(self) -> str:
        return (
            f"output_size={self.output_size}, kernel_size={self.kernel_size}, "
            f"dilation={self.dilation}, padding={self.padding}, stride={self.stride}"
        )


class Unfold(Module):
    """Extracts sliding local blocks from a batched input tensor (im2col)."""

    def __init__(
        self, kernel_size: Any, dilation: Any = 1, padding: Any = 0, stride: Any = 1
    ) -> None:
        super().__init__()
        self.kernel_size = kernel_size
        self.dilation = dilation
        self.padding = padding
        self.stride = stride

    def forward(self, input: Tensor) -> Tensor:  # noqa: A002
        return F.unfold(input, self.kernel_size, self.dilation, self.padding, self.stride)

    def extra_repr(self) -> str:
        return (
            f"kernel_size={self.kernel_size}, dilation={self.dilation}, "
            f"padding={self.padding}, stride={self.stride}"
        )


def _unpool_module(name: str, nd: int) -> type[Module]:
    def norm(x: Any) -> tuple[int, ...]:
        return tuple(x) if isinstance(x, (list, tuple)) else (x,) * nd

    def __init__(self: Any, kernel_size: Any, stride: Any = None, padding: Any = 0) -> None:  # noqa: N807
        Module.__init__(self)
        self.kernel_size = norm(kernel_size)
        self.stride = norm(stride if stride is not None else kernel_size)
        self.padding = norm(padding)

    def forward(self: Any, input: Tensor, indices: Tensor, output_size: Any = None) -> Tensor:  # noqa: A002
        fn = getattr(F, f"max_unpool{nd}d")
        return fn(input, indices, self.kernel_size, self.stride, self.padding, output_size)

    def extra_repr(self: Any) -> str:
        return f"kernel_size={self.kernel_size}, stride={self.stride}, padding={self.padding}"

    cls = type(
        name, (Module,), {"__init__": __init__, "forward": forward, "extra_repr": extra_repr}
    )
    cls.__module__ = __name__
    return cls


MaxUnpool1d = _unpool_module("MaxUnpool1d", 1)
MaxUnpool2d = _unpool_module("MaxUnpool2d", 2)
MaxUnpool3d = _unpool_module("MaxUnpool3d", 3)
