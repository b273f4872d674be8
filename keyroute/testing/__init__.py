"""Testing utilities (torch.testing): opcheck for custom operators."""

from ._opcheck import DEFAULT_TEST_UTILS, OpCheckError, opcheck

__all__ = ["opcheck", "OpCheckError", "DEFAULT_TEST_UTILS"]
