"""Derivatives of the random operators added with PyTorch's generator (aten/random.py): their
results do not depend on their inputs' values, so every input's gradient is zero, under
PyTorch's node names (derivatives.yaml). Kept apart from DERIVATIVES: a random result cannot be
checked against finite differences, which tests/autograd/test_gradients.py runs for each entry
there; tests/random/test_random_autograd.py checks these instead. The autograd layer
(keyroute/layers/autograd.py) installs them with the others."""

from __future__ import annotations

from typing import Any

from ._registry import Derivative, derivative

__all__ = ["RANDOM_DERIVATIVES"]

RANDOM_DERIVATIVES: dict[str, Derivative] = {}


def _zeros_like_inputs(*names: str) -> Any:
    def formula(grad: Any, **shapes: Any) -> tuple[Any, ...]:
        from ..._ops import ops

        zeros = ops.aten.zeros.default
        return tuple(
            zeros(list(shapes[f"{n}_shape"]), dtype=grad.dtype, device=grad.device) for n in names
        )

    return formula


def _shape_of(name: str) -> Any:
    return lambda v: tuple(v[name].shape)


for _name, _node, _inputs in (
    ("random_", "RandomBackward2", ("self",)),
    ("exponential_", "ExponentialBackward0", ("self",)),
    ("exponential", "ExponentialBackward0", ("self",)),
    ("cauchy_", "CauchyBackward0", ("self",)),
    ("log_normal_", "LogNormalBackward0", ("self",)),
    ("geometric_", "GeometricBackward0", ("self",)),
    ("bernoulli", "BernoulliBackward0", ("self",)),
    ("bernoulli_.Tensor", "BernoulliBackward1", ("self", "p")),
    ("bernoulli.Tensor", "BernoulliBackward1", ("self", "p")),
    ("normal.Tensor_float", "NormalBackward1", ("mean",)),
    ("normal.float_Tensor", "NormalBackward2", ("std",)),
    ("normal.Tensor_Tensor", "NormalBackward3", ("mean", "std")),
    ("poisson", "PoissonBackward0", ("self",)),
):
    derivative(
        _name,
        _node,
        inputs=_inputs,
        computed={f"{n}_shape": _shape_of(n) for n in _inputs},
        table=RANDOM_DERIVATIVES,
    )(_zeros_like_inputs(*_inputs))
