"""Alias of keyroute.subclasses under PyTorch's private name (torch._subclasses).

`keyroute._subclasses.fake_tensor` is the very module `keyroute.subclasses.fake_tensor` (one
module object under both names), so code written for `torch._subclasses.fake_tensor` works
unchanged and sees the same classes and state.
"""

import sys

from ..subclasses import (
    DynamicOutputShapeException,
    FakeTensor,
    FakeTensorMode,
    UnsupportedFakeTensorException,
    fake_tensor,
)

sys.modules[__name__ + ".fake_tensor"] = fake_tensor

__all__ = [
    "FakeTensor",
    "FakeTensorMode",
    "UnsupportedFakeTensorException",
    "DynamicOutputShapeException",
    "fake_tensor",
]
