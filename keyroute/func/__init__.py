"""keyroute.func (torch.func): function transforms."""

from .._functorch.functionalize import functionalize

__all__ = ["functionalize"]
