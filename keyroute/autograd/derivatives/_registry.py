"""The derivatives table itself: `Derivative`, `DERIVATIVES`, `derivative()`, and the small
helpers every family's formulas use."""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from typing import Any

from ..._ops import ops

__all__ = ["DERIVATIVES", "Derivative", "derivative"]

A = ops.aten


@dataclass
class Derivative:
    name: str
    node_name: str
    formula: Callable[..., Any]
    save: tuple[str, ...] = ()
    inputs: tuple[str, ...] | None = None
    n_outputs: int = 1
    differentiable_outputs: frozenset[int] = frozenset({0})
    save_computed: dict[str, Callable[[dict[str, Any]], Any]] = field(default_factory=dict)
    # Tensor arguments with neither a formula nor PyTorch's `non_differentiable` mark: the
    # operator refuses them requiring grad (PyTorch's check_no_requires_grad).
    no_grad: tuple[str, ...] = ()
    # Given the bound arguments, whether the outputs are differentiable at all (PyTorch's
    # output_differentiability conditions); None: always.
    condition: Callable[[dict[str, Any]], bool] | None = None
    # The inputs whose gradient formula reads the saved `self`: the in-place form clones self
    # only when one of them needs a gradient (PyTorch's should_compute_output guard on
    # `self.clone()`); None: every input's.
    self_for: tuple[str, ...] | None = None


DERIVATIVES: dict[str, Derivative] = {}


def derivative(
    name: str,
    node_name: str,
    *,
    save: Sequence[str] = (),
    inputs: Sequence[str] | None = None,
    n_outputs: int = 1,
    outputs: Sequence[int] = (0,),
    computed: dict[str, Callable[[dict[str, Any]], Any]] | None = None,
    no_grad: Sequence[str] = (),
    condition: Callable[[dict[str, Any]], bool] | None = None,
    self_for: Sequence[str] | None = None,
) -> Callable[[Callable[..., Any]], Callable[..., Any]]:
    """Register the formula of aten `name` (as "add.Tensor" / "mm")."""

    def deco(fn: Callable[..., Any]) -> Callable[..., Any]:
        DERIVATIVES[name] = Derivative(
            name,
            node_name,
            fn,
            tuple(save),
            None if inputs is None else tuple(inputs),
            n_outputs,
            frozenset(outputs),
            dict(computed or {}),
            tuple(no_grad),
            condition,
            None if self_for is None else tuple(self_for),
        )
        return fn

    return deco


def _shape(name: str) -> Callable[[dict[str, Any]], tuple[int, ...]]:
    return lambda v: tuple(v[name]._data.shape)


def _dtype(name: str) -> Callable[[dict[str, Any]], Any]:
    return lambda v: v[name]._dtype


def _scale(grad: Any, alpha: Any) -> Any:
    return grad if alpha == 1 else A.mul.Scalar(grad, alpha)


def _zeros(shape: tuple[int, ...], like: Any) -> Any:
    return A.zeros.default(list(shape), dtype=like._dtype, device=like.device)
