"""torch.autograd.graph.GradientEdge, get_gradient_edge and increment_version (installed on
autograd.graph by autograd/__init__.py, as register_multi_grad_hook is)."""

from __future__ import annotations

from collections.abc import Iterable
from typing import NamedTuple

from ..tensor._tensor import Tensor
from ._meta import bump_version
from .graph import Node, gradient_edge

__all__ = ["GradientEdge", "get_gradient_edge", "increment_version"]


class GradientEdge(NamedTuple):
    """An edge of the autograd graph: a node and which of its inputs the gradient enters."""

    node: Node
    output_nr: int
    # PyTorch 2.13: an object keeping the edge's owner alive (None for ordinary edges)
    ownership_token: object | None = None


def get_gradient_edge(tensor: Tensor) -> GradientEdge:
    """The edge gradients flow through to `tensor`: its grad_fn (or, for a leaf, its
    AccumulateGrad node) and its output number."""
    if not tensor.requires_grad:
        raise RuntimeError(
            "It is not possible to get the gradient edge for a Tensor that does not require "
            "gradients"
        )
    node, nr = gradient_edge(tensor)
    # autograd.grad(edge) needs the shape of the gradient entering the node there (PyTorch
    # reads the node's input metadata; keyroute's nodes keep none on the recording path)
    try:
        meta = node.__dict__.setdefault("_edge_metadata", {})
    except AttributeError:
        meta = None
    if meta is not None:
        meta[nr] = (tuple(tensor._data.shape), tensor.dtype, tensor.device)
    return GradientEdge(node, nr)


def increment_version(tensor: Tensor | Iterable[Tensor]) -> None:
    """Bump the version counter of `tensor` (or each tensor of an iterable), as an in-place
    write does: a saved copy of it then fails its version check in backward."""
    tensors = [tensor] if isinstance(tensor, Tensor) else list(tensor)
    for t in tensors:
        bump_version(t)
