"""Tools built on the dispatcher: dispatch modes, counters, memory planning."""

from ._swap import swap_tensors  # noqa: E402

__all__ = ["swap_tensors"]

from . import data  # noqa: E402, F401  (torch.utils.data, loaded with the package as PyTorch's)
