"""torch.nn.init's structured fills (orthogonal_, sparse_, dirac_) and its deprecated
un-suffixed names. Each draws from the same random calls as PyTorch's, in the same order,
so a seeded fill is bit-identical."""

from __future__ import annotations

import functools
import math
import warnings
from collections.abc import Callable
from typing import Any

from ..autograd.grad_mode import no_grad
from ..tensor._tensor import Tensor

__all__ = ["orthogonal_", "sparse_", "dirac_", "deprecated_alias"]


def orthogonal_(tensor: Tensor, gain: float = 1, generator: Any = None) -> Tensor:
    """Fill with a (semi-)orthogonal matrix: the Q factor of a standard normal matrix, its
    columns' signs fixed by R's diagonal (so the result is uniform over orthogonal matrices),
    viewed as the tensor's shape (dims after the first flattened) and scaled by gain."""
    import keyroute as kr

    if tensor.dim() < 2:
        raise ValueError("Only tensors with 2 or more dimensions are supported")
    if tensor.numel() == 0:
        return tensor  # nothing to fill
    rows = tensor.size(0)
    cols = tensor.numel() // rows
    gaussian = tensor.new_empty((rows, cols)).normal_(0, 1, generator=generator)
    wide = rows < cols
    if wide:  # QR of the tall transpose, transposed back
        gaussian.t_()
    q, r = kr.linalg.qr(gaussian)
    q *= kr.diag(r, 0).sign()
    if wide:
        q.t_()
    with no_grad():
        tensor.view_as(q).copy_(q)
        tensor.mul_(gain)
    return tensor


def sparse_(tensor: Tensor, sparsity: float, std: float = 0.01, generator: Any = None) -> Tensor:
    """Normal(0, std) values with ceil(sparsity * rows) zeros in every column, the zeroed rows
    chosen by a random permutation per column (from the default generator, as PyTorch's)."""
    import keyroute as kr

    if tensor.dim() != 2:
        raise ValueError("Only tensors with 2 dimensions are supported")
    rows, cols = tensor.shape
    num_zeros = int(math.ceil(sparsity * rows))
    with no_grad():
        tensor.normal_(0, std, generator=generator)
        for col in range(cols):
            zero_rows = kr.randperm(rows)[:num_zeros]
            tensor[zero_rows, col] = 0
    return tensor


def dirac_(tensor: Tensor, groups: int = 1) -> Tensor:
    """The identity of a convolution: per group, a 1 at the kernel's centre for each of the
    first min(out_channels/groups, in_channels) channel pairs, zeros elsewhere."""
    dims = tensor.dim()
    if dims not in (3, 4, 5):
        raise ValueError("Only tensors with 3, 4, or 5 dimensions are supported")
    sizes = tensor.shape
    if sizes[0] % groups != 0:
        raise ValueError("dim 0 must be divisible by groups")
    per_group = sizes[0] // groups
    centre = tuple(s // 2 for s in sizes[2:])
    with no_grad():
        tensor.zero_()
        for g in range(groups):
            for d in range(min(per_group, sizes[1])):
                tensor[(g * per_group + d, d, *centre)] = 1
    return tensor


def deprecated_alias(fill: Callable[..., Tensor]) -> Callable[..., Tensor]:
    """nn.init.<name> (no underscore): PyTorch's deprecated spelling, warning then filling."""
    new = fill.__name__
    old = new[:-1]

    @functools.wraps(fill)
    def alias(*args: Any, **kwargs: Any) -> Tensor:
        warnings.warn(
            f"`nn.init.{old}` is now deprecated in favor of `nn.init.{new}`.",
            FutureWarning,
            stacklevel=2,
        )
        return fill(*args, **kwargs)

    alias.__name__ = alias.__qualname__ = old
    alias.__doc__ = f"Deprecated alias of nn.init.{new}."
    return alias
