"""nn.CTCLoss (PyTorch's torch/nn/modules/loss.py): F.ctc_loss with the module's blank,
reduction and zero_infinity."""

from __future__ import annotations

from typing import Any

from ...tensor._tensor import Tensor
from .. import functional as F
from .layers import _Loss

__all__ = ["CTCLoss"]


class CTCLoss(_Loss):
    """The connectionist temporal classification loss."""

    __constants__ = ["blank", "reduction"]

    def __init__(self, blank: int = 0, reduction: str = "mean", zero_infinity: bool = False):
        super().__init__(reduction=reduction)
        self.blank = blank
        self.zero_infinity = zero_infinity

    def forward(
        self, log_probs: Tensor, targets: Tensor, input_lengths: Any, target_lengths: Any
    ) -> Tensor:
        return F.ctc_loss(
            log_probs,
            targets,
            input_lengths,
            target_lengths,
            self.blank,
            self.reduction,
            self.zero_infinity,
        )
