"""Testing utilities (torch.testing): opcheck for custom operators."""

from ._opcheck import OpCheckError, opcheck

__all__ = ["opcheck", "OpCheckError"]
