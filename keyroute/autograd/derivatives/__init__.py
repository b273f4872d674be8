"""The derivatives table: one short entry per differentiable operator (PyTorch's
derivatives.yaml). An entry names the operator, its graph node (PyTorch's name), what the
forward saves, and the formula mapping the output gradient to one gradient per differentiable
input (the schema's tensor arguments in order, unless `inputs=` says otherwise; None = no
gradient). Gradients of broadcast inputs are summed back to the input's shape by the engine.

    @derivative("mul.Tensor", "MulBackward0", save=("self", "other"))
    def _(grad, self, other):
        return grad * other, grad * self

The in-place form of an operator (`mul_.Tensor`) uses the same entry.

One module per operator family, mirroring keyroute/aten/: elementwise, views, reductions,
linalg, indexing, assembly, nn, backward_ops; then `inplace` (in-place operators with an entry
of their own) and `no_formula` (not_implemented entries, non-differentiable operators, the
generated out= forms). The autograd layer that applies these is keyroute/layers/autograd.py.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from typing import Any

from ..._ops import ops

__all__ = ["DERIVATIVES", "NOT_IMPLEMENTED", "Derivative", "derivative"]

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


# The families register their entries on import; in-place forms reuse entries, so come last.
from . import (  # noqa: E402, F401, I001
    elementwise,
    views,
    reductions,
    linalg,
    indexing,
    assembly,
    nn,
    backward_ops,
    inplace,
    no_formula,
)
from .no_formula import NOT_IMPLEMENTED  # noqa: E402
