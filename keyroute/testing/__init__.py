"""torch.testing: assert_close, make_tensor, and opcheck for custom operators."""

from ._comparison import assert_close, default_tolerances
from ._creation import make_tensor
from ._opcheck import DEFAULT_TEST_UTILS, OpCheckError, opcheck

__all__ = [
    "assert_close",
    "make_tensor",
    "opcheck",
    "OpCheckError",
    "DEFAULT_TEST_UTILS",
    "default_tolerances",
]
