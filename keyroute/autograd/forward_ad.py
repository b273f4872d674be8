"""Forward-mode AD (torch.autograd.forward_ad): dual_level, make_dual, unpack_dual.

keyroute derives every forward derivative from the reverse-mode formulas ("double vjp"): a
dual tensor is an autograd input of the level, and a tangent is asked for lazily, at
`unpack_dual`, as d/du <u, J^T> . t = J t over the graph from the level's duals. This is
exact for every operator whose backward formula is itself differentiable (PyTorch derives a
part of its forward formulas from the backward ones the same way). Known difference: a dual
tensor reports requires_grad=True (it is the level's autograd input).
"""

from __future__ import annotations

from collections import namedtuple
from typing import Any

from ..tensor._tensor import Tensor
from .grad_mode import enable_grad

__all__ = ["dual_level", "enter_dual_level", "exit_dual_level", "make_dual", "unpack_dual",
           "UnpackedDualTensor"]  # fmt: skip

UnpackedDualTensor = namedtuple("UnpackedDualTensor", ["primal", "tangent"])

#: One entry per entered level: the duals made at it, as (dual tensor, tangent).
_LEVELS: list[list[tuple[Tensor, Tensor]]] = []


def enter_dual_level() -> int:
    if _LEVELS:
        raise RuntimeError("Nested forward mode AD is not supported at the moment")
    _LEVELS.append([])
    return len(_LEVELS) - 1


def exit_dual_level(*, level: int | None = None) -> None:
    if level is None:
        level = len(_LEVELS) - 1
    if level != len(_LEVELS) - 1 or level < 0:
        raise RuntimeError(
            "Trying to exit a forward AD level that was not the last one that was created. "
            "This is not supported."
        )
    _LEVELS.pop()


class dual_level:
    """Context manager for a forward AD level: tangents live as long as it."""

    def __enter__(self) -> int:
        return enter_dual_level()

    def __exit__(self, *exc: object) -> None:
        exit_dual_level()


def make_dual(tensor: Tensor, tangent: Tensor, *, level: int | None = None) -> Tensor:
    """A tensor whose forward gradient at the level is `tangent`."""
    if not _LEVELS:
        raise RuntimeError(
            "Trying to create a dual Tensor for forward AD but no level exists, make sure to "
            "enter_dual_level() first."
        )
    if not (tensor.is_floating_point() or tensor.is_complex()):
        raise ValueError(
            f"Expected primal to be floating point or complex, but got: {tensor.dtype}"
        )
    if not (tangent.is_floating_point() or tangent.is_complex()):
        raise ValueError(
            f"Expected tangent to be floating point or complex, but got: {tangent.dtype}"
        )
    if tuple(tangent.shape) != tuple(tensor.shape):
        raise RuntimeError(
            f"Trying to set a forward gradient that has a different size than that of the "
            f"original Tensor, this is not supported. Tensor is of size {list(tensor.shape)} "
            f"while the given forward gradient is of size {list(tangent.shape)}."
        )
    with enable_grad():
        dual = tensor.view_as(tensor) if tensor.requires_grad else tensor.detach().requires_grad_()
    _LEVELS[-1].append((dual, tangent))
    return dual


def unpack_dual(tensor: Any, *, level: int | None = None) -> Any:
    """(primal, tangent) of `tensor` at the level (tangent None when it has none)."""
    if not isinstance(tensor, Tensor):
        return UnpackedDualTensor(tensor, None)
    if not _LEVELS:
        return UnpackedDualTensor(tensor, None)
    duals = _LEVELS[-1]
    for d, t in duals:
        if d is tensor:
            return UnpackedDualTensor(tensor.detach(), t)
    if not tensor.requires_grad or not duals:
        return UnpackedDualTensor(tensor, None)
    from .engine import grad as autograd_grad
    from .function import forward_pull

    with enable_grad():
        u = tensor.detach().new_zeros(tensor.shape).requires_grad_()
        with forward_pull():
            gs = autograd_grad(
                [tensor], [d for d, _ in duals], [u], create_graph=True, allow_unused=True
            )
        pairs = [(g, t) for g, (_, t) in zip(gs, duals) if g is not None and g.requires_grad]
        if not pairs:
            # Reached from a dual but with a zero derivative (sgn's is an efficient zero
            # tensor, constant in u): PyTorch's tangent is then materialized zeros, not None.
            if any(g is not None for g in gs):
                return UnpackedDualTensor(tensor.detach(), tensor.detach().new_zeros(tensor.shape))
            return UnpackedDualTensor(tensor.detach(), None)
        (jt,) = autograd_grad([g for g, _ in pairs], [u], [t for _, t in pairs], allow_unused=True)
    return UnpackedDualTensor(tensor.detach(), None if jt is None else jt.detach())
