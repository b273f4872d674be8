"""The derivatives table itself: `Derivative`, `DERIVATIVES`, `derivative()`, and the small
helpers every family's formulas use.

A formula is registered in one of two ways, by this rule:

- `derivative(name, node_name, ...)` registers a formula: as a decorator on a ``def``, or
  called on a lambda or a shared function where a table or a loop registers one formula for
  several operators (``derivative("exp", "ExpBackward0", save=("result",))(lambda g, result:
  ...)``).
- `same_formula(name, node_name, like)` gives an operator another operator's entry under a
  node name of its own: the in-place forms with their own derivatives.yaml entry, and the
  ``*_copy`` forms of the views.

Operators without a formula are not here: derivatives.yaml's ``not_implemented`` entries and
the non-differentiable operators are listed in `no_formula.py`.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass, field, replace
from typing import Any

from ..._ops import ops

__all__ = ["DERIVATIVES", "Derivative", "derivative", "same_formula"]

aten = ops.aten


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
    # Saved tensor arguments other than `self` that only some inputs' formulas read: saved
    # only when one of those needs a gradient (PyTorch's should_compute_output guard on saving
    # them, which `grad_fn._saved_<name>` shows as None).
    saved_for: dict[str, tuple[str, ...]] = field(default_factory=dict)


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
    saved_for: dict[str, Sequence[str]] | None = None,
    table: dict[str, Derivative] | None = None,
) -> Callable[[Callable[..., Any]], Callable[..., Any]]:
    """Register the formula of aten `name` (as "add.Tensor" / "mm") in DERIVATIVES, or in
    `table`: the entries without a gradient case to check against finite differences are kept
    in tables of their own (no_formula.NOT_IMPLEMENTED, random.RANDOM_DERIVATIVES)."""

    def deco(fn: Callable[..., Any]) -> Callable[..., Any]:
        (DERIVATIVES if table is None else table)[name] = Derivative(
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
            {k: tuple(v) for k, v in (saved_for or {}).items()},
        )
        return fn

    return deco


def same_formula(name: str, node_name: str, like: str) -> None:
    """Register `like`'s entry for aten `name` under `node_name` (see the module docstring)."""
    DERIVATIVES[name] = replace(DERIVATIVES[like], name=name, node_name=node_name)


def _shape(name: str) -> Callable[[dict[str, Any]], tuple[int, ...]]:
    return lambda v: tuple(v[name]._data.shape)


def _dtype(name: str) -> Callable[[dict[str, Any]], Any]:
    return lambda v: v[name]._dtype


def _scale(grad: Any, alpha: Any) -> Any:
    return grad if alpha == 1 else aten.mul.Scalar(grad, alpha)


def _zeros(shape: tuple[int, ...], like: Any) -> Any:
    return aten.zeros.default(list(shape), dtype=like._dtype, device=like.device)
